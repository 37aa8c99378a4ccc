/**
 * The runner's messages of an entry's life (issue 28 §2): an order paid, an order cancelled at its payment
 * deadline and a direct-pass application approved each put exactly one message in the outbox, to the account's
 * phone, in Chinese and English (the account's language is not stored); a repeated notification, a re-run
 * sweep or a second approval sends nothing more. (A submission's message: entry-submit.test.ts.) Both engines.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import type { EntrySettings } from '#contract/entry';
import { runSiteCli } from '../src/cli/site.ts';
import { sql } from '../src/db/engine.ts';
import { sandboxNotification } from '../src/lib/payment/sandbox.ts';
import { cancelDue } from '../src/services/entry/order-transitions.ts';
import {
  buildTestApp,
  databaseFor,
  fakeClock,
  FIXTURE_RACE_ID,
  FIXTURE_SEED,
  FIXTURES,
  postgresEnv,
  removeTempDirs,
  tempDir,
} from './helpers.ts';

/** 2025-06-16 10:00 China time. */
const T0 = Date.UTC(2025, 5, 16, 2, 0, 0);
const HOUR = 3_600_000;

const ENTRY: EntrySettings = {
  allowMultiple: false,
  items: [{ code: 'F', name: { zh: '欢乐跑', en: 'Fun run' }, capacity: 9, feeFen: 5_000, model: 'firstCome' }],
};

const clock = fakeClock(T0);
const dataDir = tempDir();
let app: FastifyInstance;
let people = 0;
let raceName = '';

/** The messages sent to `destination`, oldest first. */
const messagesTo = (destination: string) =>
  app.db.all<{ subject: string; body: string }>(
    sql`SELECT subject, body FROM outbox WHERE destination = ${destination} ORDER BY id`,
  );

/** A runner with a first-come entry holding its place and its order awaiting payment until `deadlineAt`. */
async function enter(deadlineAt: number) {
  people += 1;
  const phone = `1370000${String(people).padStart(4, '0')}`;
  const userId = await app.repos.users.create({ phone }, T0);
  const { token } = await app.repos.tokens.issue(userId, 30 * 24 * HOUR, T0);
  const entry = await app.repos.entries.insertEntry({
    raceId: FIXTURE_RACE_ID,
    itemCode: 'F',
    channel: 'public',
    userId,
    teamId: null,
    status: 0,
    holdsPlace: true,
    name: `李${people}`,
    gender: 1,
    birthday: '1990-01-01',
    certType: 1,
    certHash: `messages-hash-${people}`,
    certNumber: `11010119900101${String(4000 + people)}`,
    phone,
    values: {},
    feeFen: 5_000,
    now: T0,
  });
  const order = await app.repos.orders.create({
    raceId: FIXTURE_RACE_ID,
    userId,
    amountFen: 5_000,
    deadlineAt,
    createdAt: T0,
    lines: [{ entryId: entry.id, amountFen: 5_000 }],
  });
  return { ...entry, userId, token, phone, orderNo: order.orderNo };
}

beforeAll(async () => {
  app = await buildTestApp({ dataDir, now: clock.now, env: { RATE_LIMITS: 'off', JOBS: 'off' } });
  const race = (await app.repos.races.findById(FIXTURE_RACE_ID))!;
  raceName = race.raceName;
  await app.repos.races.save({ ...race, signUpOpenStatus: 1, entry: ENTRY }, T0);
  await app.repos.entries.ensurePlaces(FIXTURE_RACE_ID, ENTRY);
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

describe('entry messages', () => {
  it('tells the runner once that the order is paid, however often the provider notifies', async () => {
    const runner = await enter(T0 + 48 * HOUR);
    const pay = await app.inject({
      method: 'POST',
      url: API_PATHS.orderPay,
      payload: { orderNo: runner.orderNo },
      headers: { token: runner.token },
    });
    const { paymentId } = pay.json().data as { paymentId: string };
    const n = sandboxNotification(app.secrets.payment, { paymentId, status: 'paid', amountFen: 5_000, paidAt: T0 });
    for (let i = 0; i < 3; i += 1) {
      const res = await app.inject({
        method: 'POST',
        url: `${API_PATHS.payNotifyPrefix}sandbox`,
        payload: n.rawBody,
        headers: n.headers,
      });
      expect(res.json().code, res.body).toBe(0);
    }
    const messages = await messagesTo(runner.phone);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.subject).toContain(raceName);
    expect(messages[0]!.body).toContain(`订单 ${runner.orderNo} 已支付 ¥50.00`);
    expect(messages[0]!.body).toContain(`欢乐跑 报名号 ${runner.entryNo}`);
    expect(messages[0]!.body).toContain(`order ${runner.orderNo} is paid, CNY 50.00`);
    expect(messages[0]!.body).toContain(`Fun run entry ${runner.entryNo}`);
  });

  it('tells the runner once that an unpaid order was cancelled at its deadline, however often the sweep runs', async () => {
    const runner = await enter(T0 + HOUR);
    clock.advance(2 * HOUR);
    const deps = { repos: app.repos, provider: app.paymentProvider, now: clock.now };
    expect(await cancelDue(deps)).toBe(1);
    expect(await cancelDue(deps)).toBe(0);
    const messages = await messagesTo(runner.phone);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.body).toContain(`订单 ${runner.orderNo} 未在支付期限前支付，已自动取消`);
    expect(messages[0]!.body).toContain(`Fun run entry ${runner.entryNo} (李*) is cancelled and its place released`);
  });

  it('tells the runner once that a direct-pass application is approved', async () => {
    const phone = '13700009999';
    const userId = await app.repos.users.create({ phone }, T0);
    const id = await app.repos.directApplications.save({
      raceId: FIXTURE_RACE_ID,
      userId,
      status: 1,
      name: '赵直通',
      certHash: 'messages-direct',
      values: {},
      sizes: {},
      submittedAt: T0,
      now: T0,
    });
    const cli = async () =>
      runSiteCli(['direct-approve', String(id)], {
        stdout: () => {},
        stderr: () => {},
        env: postgresEnv({ DATA_DIR: dataDir, SEED_DIR: FIXTURE_SEED, DATABASE_URL: await databaseFor(dataDir) }),
        cwd: FIXTURES,
        now: clock.now,
      });
    expect(await cli()).toBe(0);
    expect(await cli()).toBe(1);
    const messages = await messagesTo(phone);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.body).toContain(`${raceName}：赵*通 的直通资格申请已审核通过`);
    expect(messages[0]!.body).toContain('direct-pass application of 赵*通 is approved');
  });
});
