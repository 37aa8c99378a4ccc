/**
 * Unpaid orders for the payment browser tests (pay-method, pay-wechat-qr, payment-failed), put into a test
 * server's database the way sign-up leaves them: a fresh account (password UNPAID_PASSWORD) with `n` 10 km
 * entries of the demo race, each with its own order of ¥80.00 due in a day.
 */
import { randomBytes } from 'node:crypto';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { hashPassword } from '../../server/src/lib/password-hash';
import { repoRoot } from './server-process';

const HOUR = 3_600_000;
export const UNPAID_PASSWORD = 'Runner2027';

/** Makes the account of `phone` with `n` unpaid orders in the server's data folder; answers their numbers. */
export async function unpaidOrders(dataDir: string, phone: string, n: number): Promise<string[]> {
  const now = Date.now();
  const { db, repos } = await openDatabase({ dataDir, seedDir: `${repoRoot}/server/seed`, now });
  try {
    const userId = await repos.users.create({ phone, passwordHash: await hashPassword(UNPAID_PASSWORD) }, now);
    const orders: string[] = [];
    for (let i = 0; i < n; i += 1) {
      const entry = await repos.entries.insertEntry({
        raceId: seed.race.raceId,
        itemCode: '10K',
        channel: 'public',
        userId,
        status: 0,
        holdsPlace: true,
        name: '李四',
        gender: 1,
        birthday: '1990-03-07',
        certType: 1,
        // One person may hold one entry per item: each entry is another (hashed) certificate.
        certHash: `unpaid-e2e-${randomBytes(6).toString('hex')}`,
        certNumber: '110105199003071239',
        phone,
        values: {},
        feeFen: 8000,
        now: now - HOUR,
      });
      const order = await repos.orders.create({
        raceId: seed.race.raceId,
        userId,
        amountFen: 8000,
        deadlineAt: now + 24 * HOUR,
        createdAt: now - HOUR,
        lines: [{ entryId: entry.id, amountFen: 8000 }],
      });
      await repos.entries.addEvent(entry.id, 'orderCreated', now - HOUR);
      orders.push(order.orderNo);
    }
    return orders;
  } finally {
    await db.close();
  }
}
