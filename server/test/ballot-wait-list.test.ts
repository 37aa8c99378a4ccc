/**
 * The wait list from the organiser's command line (issue 27 §3): a place freed by `site refund-approve` goes
 * to the next wait-list unit, as a place freed by the server's cancellation job does, and `site
 * ballot-waitlist` shows the list in order with who was promoted, when and why. No app is built in this file:
 * the command line runs as it does on a server, without the HTTP routes loaded. Runs on both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntrySettings } from '#contract/entry';
import type { RaceInfo } from '#contract/site-config/race-types';
import { givePlacesBack } from '../src/services/entry/order-transitions.ts';
import type { OpenedDatabase } from '../src/db/database.ts';
import { FIXTURE_RACE_ID, FIXTURE_SEED, openTestDatabase, removeTempDirs, siteCli, tempDir } from './helpers.ts';

/** 2025-06-16 10:00 China time; sign-up ends 2025-06-20 20:00. */
const T0 = Date.UTC(2025, 5, 16, 2, 0, 0);
const END = Date.UTC(2025, 5, 20, 12, 0, 0);
const HOUR = 3_600_000;

const ENTRY: EntrySettings = {
  allowMultiple: false,
  items: [{ code: 'M', name: { zh: '马拉松', en: 'Marathon' }, capacity: 2, feeFen: 20_000, model: 'ballot' }],
  refunds: { allowed: true, until: '2025-12-31 00:00:00', sharePercent: 50 },
};

const dataDir = tempDir();
let opened: OpenedDatabase;

/** The organiser CLI on this file's data folder at `at`. */
const cli = (at: number, ...argv: string[]) => siteCli(dataDir, () => at)(...argv);

beforeAll(async () => {
  opened = await openTestDatabase({ dataDir, seedDir: FIXTURE_SEED, now: T0 });
  const { repos } = opened;
  const race = (await repos.races.findById(FIXTURE_RACE_ID))!;
  const withEntry: RaceInfo = {
    ...race,
    signUpOpenStatus: 1,
    signUpStartTime: '2025-06-01 00:00:00',
    signUpEndTime: '2025-06-20 20:00:00',
    entry: ENTRY,
  };
  await repos.races.save(withEntry, T0);
  await repos.entries.ensurePlaces(FIXTURE_RACE_ID, ENTRY);
  for (let i = 1; i <= 5; i += 1) {
    const userId = await repos.users.create({ phone: `1370000000${i}` }, T0);
    await repos.entries.insertEntry({
      raceId: FIXTURE_RACE_ID,
      itemCode: 'M',
      channel: 'public',
      userId,
      teamId: null,
      status: 0,
      holdsPlace: false,
      name: `李${'明华'.slice(0, 1 + (i % 2))}${i}`,
      gender: 1,
      birthday: '1990-01-01',
      certType: 1,
      certHash: `wait-list-hash-${i}`,
      certNumber: `11010119900101${String(2000 + i)}`,
      phone: `1370000000${i}`,
      values: {},
      feeFen: 20_000,
      now: T0,
    });
  }
});

afterAll(async () => {
  await opened?.db.close();
  removeTempDirs();
});

describe('the wait list from the command line', () => {
  it('promotes the next wait-list runner when refund-approve frees a place, and lists the wait list in order', async () => {
    const { repos } = opened;
    expect((await cli(T0, 'ballot-commit', FIXTURE_RACE_ID, 'M')).code).toBe(0);
    const drawn = await cli(END + HOUR, 'ballot-draw', FIXTURE_RACE_ID, 'M');
    expect(drawn.code, drawn.err).toBe(0);
    const ballot = (await repos.ballots.latest(FIXTURE_RACE_ID, 'M'))!;
    const [winnerNo] = ballot.result!.winners;
    const [firstWaiting, secondWaiting] = ballot.result!.waitList;

    // The winner pays (the sandbox's payment), then asks for a refund.
    const winner = (await repos.entries.findByNo(winnerNo!))!;
    const order = (await repos.orders.latestOfEntry(winner.id))!;
    const at = END + 2 * HOUR;
    const payment = await repos.payments.create({ orderId: order.id, provider: 'sandbox', amountFen: 20_000, now: at });
    await repos.payments.markPaid(payment.paymentId, 'TRADE-WAIT-1', at);
    expect(await repos.orders.markPaid(order.id, { paidFen: 20_000, paidAt: at, serialNo: 'TRADE-WAIT-1' })).toBe(true);
    await repos.refunds.insertRequest({
      raceId: FIXTURE_RACE_ID,
      entryId: winner.id,
      userId: winner.userId,
      kind: 'refund',
      reason: '受伤无法参赛',
      amountFen: 10_000,
      now: at,
    });
    expect(await repos.entries.setStatus(winner.id, [1], 4, 'refundRequested', at)).toBe(true);

    const approved = await cli(END + 3 * HOUR, 'refund-approve', '--race', FIXTURE_RACE_ID, '--entry', winnerNo!);
    expect(approved.code, approved.err).toBe(0);
    expect(approved.out).toContain('refunded now: 100.00 yuan');

    // The first on the wait list has the freed place, a new order to pay and a message; the second still waits.
    const promoted = (await repos.entries.findByNo(firstWaiting!))!;
    expect(promoted).toMatchObject({ status: 1, holdsPlace: true, waitRank: null });
    const promotedOrder = (await repos.orders.latestOfEntry(promoted.id))!;
    expect(promotedOrder).toMatchObject({ status: 1, amountFen: 20_000 });
    expect((await repos.entries.findByNo(secondWaiting!))?.status).toBe(2);
    const places = await repos.entries.places(FIXTURE_RACE_ID);
    expect(places.find((p) => p.itemCode === 'M' && p.pool === 'main')?.taken).toBe(2);
    const messages = await repos.outbox.latest(20);
    expect(
      messages.some((m) => m.body.includes(firstWaiting!) && m.body.includes('got a place from the wait list')),
    ).toBe(true);

    const list = await cli(END + 4 * HOUR, 'ballot-waitlist', FIXTURE_RACE_ID, 'M');
    expect(list.code, list.err).toBe(0);
    const lines = list.out.split('\n');
    const rowOf = (entryNo: string) => lines.find((line) => line.includes(entryNo)) ?? '';
    expect(lines[1]).toMatch(/position\s+entry\s+name\s+status\s+listed\s+promoted\s+why/);
    expect(rowOf(firstWaiting!)).toMatch(/^\s+1\s/);
    expect(rowOf(firstWaiting!)).toContain(`place of ${winnerNo} (refund approved)`);
    expect(rowOf(firstWaiting!)).toContain('2025-06-20 23:00:00');
    expect(rowOf(firstWaiting!)).toContain('Won the lottery');
    expect(rowOf(secondWaiting!)).toMatch(/^\s+2\s.*Not won.*waiting$/);
    // Masked names only.
    expect(list.out).not.toMatch(/李明华|李明\d/);
    expect(lines.indexOf(rowOf(firstWaiting!))).toBeLessThan(lines.indexOf(rowOf(secondWaiting!)));

    expect((await cli(END, 'ballot-waitlist', FIXTURE_RACE_ID)).code).toBe(2);
    expect((await cli(END, 'ballot-waitlist', FIXTURE_RACE_ID, 'X')).code).toBe(1);
  });

  it('passes over a wait-listed runner who has entered the race again since the draw, and promotes the next', async () => {
    const { repos } = opened;
    const ballot = (await repos.ballots.latest(FIXTURE_RACE_ID, 'M'))!;
    const [firstWaiting, secondWaiting, thirdWaiting] = ballot.result!.waitList;
    const second = (await repos.entries.findByNo(secondWaiting!))!;
    // Since the draw, the second on the list entered the race again (a code, a charity place): live, one per person.
    const userId = await repos.users.create({ phone: '13700000099' }, END + 5 * HOUR);
    await repos.entries.insertEntry({
      raceId: FIXTURE_RACE_ID,
      itemCode: 'M',
      channel: 'code',
      userId,
      teamId: null,
      status: 1,
      holdsPlace: false,
      name: second.name,
      gender: 1,
      birthday: '1990-01-01',
      certType: 1,
      certHash: second.certHash,
      certNumber: '110101199001012002',
      phone: '13700000099',
      values: {},
      feeFen: 20_000,
      now: END + 5 * HOUR,
    });

    // The promoted runner does not pay: their place goes back, to the next on the list who can take it.
    const promoted = (await repos.entries.findByNo(firstWaiting!))!;
    const at = END + 6 * HOUR;
    await repos.transaction(async (tx) => {
      expect(await tx.entries.setStatus(promoted.id, [1], 3, 'cancelled', at)).toBe(true);
      expect(await givePlacesBack(tx, [promoted], at, 'unpaid')).toBe(1);
    });
    expect((await repos.entries.findByNo(secondWaiting!))?.status).toBe(2);
    expect(await repos.entries.findByNo(thirdWaiting!)).toMatchObject({ status: 1, holdsPlace: true });
  });
});
