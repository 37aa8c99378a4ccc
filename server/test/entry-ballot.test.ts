/**
 * The ballot anyone can verify (issue 14 §3; docs/ballot.md): commit before the window closes, the draw after
 * it (deterministic, equal to drawBallot over the published list, teams all in or all out), the seed hidden
 * until the reveal, the wait list taking the place of an unpaid winner, pay-first losers refunded once, the
 * "am I in?" lookup and `site ballot-verify` on a good and a tampered record.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_PATHS } from '#contract/api';
import { drawBallot, seedMatches } from '#contract/ballot';
import type { BallotCheckAnswer, BallotPublic, EntrySettings } from '#contract/entry';
import type { RaceInfo } from '#contract/site-config/race-types';
import { CHECK_REFRESH_MS } from '../src/services/entry/ballot-check.ts';
import { sql } from '../src/db/engine.ts';
import { createSandboxProvider } from '../src/lib/payment/sandbox.ts';
import { cancelDue } from '../src/services/entry/order-transitions.ts';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, removeTempDirs, siteCli, tempDir } from './helpers.ts';

/** 2025-06-16 10:00 China time. */
const T0 = Date.UTC(2025, 5, 16, 2, 0, 0);
/** signUpEndTime '2025-06-20 20:00:00' (China time). */
const END = Date.UTC(2025, 5, 20, 12, 0, 0);
const HOUR = 3_600_000;

const ENTRY: EntrySettings = {
  allowMultiple: false,
  items: [
    {
      code: 'M',
      name: { zh: '马拉松', en: 'Marathon' },
      capacity: 7,
      feeFen: 20_000,
      model: 'ballot',
      paymentMinutes: 60,
    },
    { code: 'P', name: { zh: '半程', en: 'Half' }, capacity: 2, feeFen: 10_000, model: 'payThenDraw' },
    { code: 'F', name: { zh: '欢乐跑', en: 'Fun run' }, capacity: 9, feeFen: 5_000, model: 'firstCome' },
  ],
};

describe('the verifiable ballot', () => {
  const clock = fakeClock(T0);
  const dataDir = tempDir();
  let app: FastifyInstance;
  let other: FastifyInstance | undefined;
  let people = 0;

  /** The organiser CLI on this file's data folder at `at`. */
  const cli = (at: number, ...argv: string[]) => siteCli(dataDir, () => at)(...argv);

  /** A new account and its entry (status 0) of the item; a team's member when teamId is given. */
  async function enter(itemCode: string, options: { teamId?: number; name?: string } = {}) {
    people += 1;
    const userId = await app.repos.users.create({ phone: `1390000${String(people).padStart(4, '0')}` }, T0);
    const fee = ENTRY.items.find((i) => i.code === itemCode)!.feeFen;
    const made = await app.repos.entries.insertEntry({
      raceId: FIXTURE_RACE_ID,
      itemCode,
      channel: options.teamId ? 'team' : 'public',
      userId,
      teamId: options.teamId ?? null,
      status: 0,
      holdsPlace: false,
      name: options.name ?? `张${'伟明'.slice(0, 1 + (people % 2))}${people}`,
      gender: 1,
      birthday: '1990-01-01',
      certType: 1,
      certHash: `hash-${people}`,
      certNumber: `11010119900101${String(1000 + people)}`,
      phone: `1390000${String(people).padStart(4, '0')}`,
      values: {},
      feeFen: fee,
      now: T0,
    });
    return { ...made, userId };
  }

  async function publicOf(itemCode: string, round?: number) {
    const response = await app.inject({
      method: 'GET',
      url: API_PATHS.ballotPublic,
      query: { raceId: FIXTURE_RACE_ID, itemCode, ...(round ? { round: String(round) } : {}) },
    });
    return { response, data: response.json().data as BallotPublic };
  }

  async function check(body: unknown) {
    const response = await app.inject({ method: 'POST', url: API_PATHS.ballotCheck, payload: body as object });
    return { status: response.statusCode, body: response.json() as { code: number; data: BallotCheckAnswer | null } };
  }

  const statusOf = async (entryNo: string) =>
    app.repos.db.get<{ status: number; wait_rank: number | null }>(
      sql`SELECT status, wait_rank FROM entries WHERE entry_no = ${entryNo}`,
    );

  const teams: string[][] = [];
  const singles: { entryNo: string; userId: number }[] = [];
  /** The one runner of a team too short to be drawn as a team: drawn as a single runner. */
  let loneMember = { entryNo: '', userId: 0 };

  beforeAll(async () => {
    app = await buildTestApp({ dataDir, now: clock.now, env: { ...process.env, RATE_LIMITS: 'off' } });
    const race = (await app.repos.races.findById(FIXTURE_RACE_ID))!;
    const withEntry: RaceInfo = {
      ...race,
      signUpOpenStatus: 1,
      signUpStartTime: '2025-06-01 00:00:00',
      signUpEndTime: '2025-06-20 20:00:00',
      entry: ENTRY,
    };
    await app.repos.races.save(withEntry, T0);
    await app.repos.entries.ensurePlaces(FIXTURE_RACE_ID, ENTRY);
    // Ballot item M: 8 single runners, two teams of 3 and the lone member of a short team (below) for 7 places.
    // The two teams fill 6 at most, so at least one single unit always wins (one of the 8, or the lone member):
    // the wait-list promotion below starts from one.
    for (let i = 0; i < 8; i += 1) singles.push(await enter('M'));
    for (let t = 0; t < 2; t += 1) {
      const captain = await app.repos.users.create({ email: `captain${t}@example.com` }, T0);
      const team = await app.repos.entries.createTeam({
        raceId: FIXTURE_RACE_ID,
        itemCode: 'M',
        name: `Team ${t}`,
        captainUserId: captain,
        minSize: 2,
        maxSize: 7,
        now: T0,
      });
      const members: string[] = [];
      for (let m = 0; m < 3; m += 1) members.push((await enter('M', { teamId: team.id })).entryNo);
      teams.push(members);
    }
    // A team of at least 3 that only one runner entered: drawn as a single runner.
    const captain = await app.repos.users.create({ email: 'captain-short@example.com' }, T0);
    const short = await app.repos.entries.createTeam({
      raceId: FIXTURE_RACE_ID,
      itemCode: 'M',
      name: 'Short team',
      captainUserId: captain,
      minSize: 3,
      maxSize: 7,
      now: T0,
    });
    loneMember = await enter('M', { teamId: short.id });
  });

  afterAll(async () => {
    await other?.close();
    await app?.close();
    removeTempDirs();
  });

  it('commits only before the window closes, only for ballot items, and prints the commitment', async () => {
    const late = await cli(END + 1000, 'ballot-commit', FIXTURE_RACE_ID, 'M');
    expect(late.code).toBe(1);
    expect(late.err).toMatch(/closed/);
    expect((await cli(T0, 'ballot-commit', FIXTURE_RACE_ID, 'F')).code).toBe(1);
    expect((await cli(T0, 'ballot-commit', 'no-such-race', 'M')).code).toBe(1);
    expect((await cli(T0, 'ballot-commit', FIXTURE_RACE_ID)).code).toBe(2);

    const made = await cli(T0, 'ballot-commit', FIXTURE_RACE_ID, 'M', '--beacon', 'Welfare lottery 3D of 2025-06-21');
    expect(made.code).toBe(0);
    const commitment = /commitment \(SHA-256 of the seed\): ([0-9a-f]{64})/.exec(made.out)?.[1];
    expect(commitment).toBeDefined();
    // Round 1 is committed and not drawn: no second commitment.
    expect((await cli(T0 + 1000, 'ballot-commit', FIXTURE_RACE_ID, 'M')).code).toBe(1);

    const { response, data } = await publicOf('M');
    expect(response.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    expect(data).toMatchObject({ round: 1, commitment, seed: null, drawnAt: null, entries: [], winners: [] });
    expect(data.beacon).toBe('Welfare lottery 3D of 2025-06-21');
    const list = await app.inject({ method: 'GET', url: API_PATHS.ballotList, query: { raceId: FIXTURE_RACE_ID } });
    expect(list.json().data).toEqual([expect.objectContaining({ itemCode: 'M', round: 1, commitment, seed: null })]);
    // Before the draw every entry of the item is pending.
    clock.advance(10_000);
    expect((await check({ raceId: FIXTURE_RACE_ID, entryNo: singles[0]!.entryNo })).body.data).toMatchObject({
      outcome: 'pending',
      itemCode: 'M',
    });
  });

  it('draws after the window only, deterministically over the published list, and hides the seed until the reveal', async () => {
    const early = await cli(END - 1000, 'ballot-draw', FIXTURE_RACE_ID, 'M', '--beacon-value', '3 1 4');
    expect(early.code).toBe(1);
    expect(early.err).toMatch(/still open/);
    // The commitment named a beacon: its value is needed.
    expect((await cli(END + HOUR, 'ballot-draw', FIXTURE_RACE_ID, 'M')).code).toBe(1);

    clock.advance(END + HOUR - clock.now());
    const drawn = await cli(END + HOUR, 'ballot-draw', FIXTURE_RACE_ID, 'M', '--beacon-value', '3 1 4');
    expect(drawn.code, drawn.err).toBe(0);
    expect(drawn.out).toMatch(/15 entries, 7 places/);
    expect((await cli(END + HOUR, 'ballot-draw', FIXTURE_RACE_ID, 'M', '--beacon-value', '3 1 4')).code).toBe(1);

    const { data } = await publicOf('M');
    expect(data.seed).toBeNull();
    expect(data.beacon).toBe('Welfare lottery 3D of 2025-06-21 = 3 1 4');
    expect(data.places).toBe(7);
    expect(data.entries).toHaveLength(15);
    expect(data.entries.find((e) => e.entryNo === loneMember.entryNo)?.unit).toBeNull();
    expect(data.entries.filter((e) => e.unit !== null)).toHaveLength(6);
    const numbers = data.entries.map((e) => e.entryNo);
    expect(numbers).toEqual([...numbers].sort((a, b) => (a < b ? -1 : 1)));
    expect(data.entries.every((e) => e.maskedName.includes('*'))).toBe(true);
    expect(JSON.stringify(data)).not.toMatch(/11010119900101/);
    // The seed is nowhere in the database in clear before the reveal.
    const stored = await app.repos.db.get<{ seed: string | null; seed_enc: string }>(
      sql`SELECT seed, seed_enc FROM ballots WHERE race_id = ${FIXTURE_RACE_ID} AND item_code = 'M'`,
    );
    expect(stored?.seed).toBeNull();
    expect(stored?.seed_enc).toMatch(/^v1\./);

    const revealed = await cli(END + 2 * HOUR, 'ballot-reveal', FIXTURE_RACE_ID, 'M');
    expect(revealed.code, revealed.err).toBe(0);
    expect((await cli(END + 2 * HOUR, 'ballot-reveal', FIXTURE_RACE_ID, 'M')).code).toBe(1);
    const after = (await publicOf('M')).data;
    expect(seedMatches(after.seed!, after.commitment)).toBe(true);
    const again = drawBallot(after.seed!, after.beacon!, after.entries, after.places!);
    expect(again.winners).toEqual(after.winners);
    expect(again.waitList).toEqual(after.waitList);
    expect(after.winners).toHaveLength(7);

    // Teams all in or all out.
    for (const members of teams) {
      const won = members.filter((no) => after.winners.includes(no)).length;
      expect([0, 3]).toContain(won);
    }
    // Winners registered with an order to pay; the others wait-listed in draw order.
    for (const no of after.winners) expect((await statusOf(no))?.status).toBe(1);
    for (const no of after.waitList) {
      const row = await statusOf(no);
      expect(row?.status).toBe(2);
      expect(row?.wait_rank).toBeGreaterThan(0);
    }
    const places = await app.repos.entries.places(FIXTURE_RACE_ID);
    expect(places.find((p) => p.itemCode === 'M' && p.pool === 'main')?.taken).toBe(7);
    // The outcome itself is in the message, in both languages.
    const messages = await app.repos.outbox.latest(50);
    const winner = singles.find((s) => after.winners.includes(s.entryNo));
    if (winner) {
      const message = messages.find((m) => m.body.includes(winner.entryNo));
      expect(message?.body).toMatch(/中签/);
      expect(message?.body).toMatch(/WON a place/);
      expect(message?.body).toMatch(/before 2025-06-20 22:00:00/);
    }
  });

  it('answers "am I in?" from its cache, and refuses bad input with 400', async () => {
    clock.advance(10_000);
    const { data } = await publicOf('M');
    const won = await check({ raceId: FIXTURE_RACE_ID, entryNo: data.winners[0] });
    expect(won.body).toMatchObject({ code: 0, data: { entryNo: data.winners[0], itemCode: 'M', outcome: 'won' } });
    const first = await check({ raceId: FIXTURE_RACE_ID, entryNo: data.waitList[0] });
    expect(first.body.data).toMatchObject({ outcome: 'waitList', waitListPosition: 1 });
    const unknown = await check({ raceId: FIXTURE_RACE_ID, entryNo: 'EZZZZZZZZ' });
    expect(unknown.body.code).toBe(404);
    expect((await check({ raceId: 'no-ballot-race', entryNo: data.winners[0] })).body.code).toBe(404);
    // Within the refresh interval a question is answered from memory: no database call.
    const versions = vi.spyOn(app.repos.ballots, 'checkVersion');
    const rows = vi.spyOn(app.repos.ballots, 'checkRows');
    for (let i = 0; i < 20; i += 1) {
      expect((await check({ raceId: FIXTURE_RACE_ID, entryNo: data.winners[i % 6] })).body.data?.outcome).toBe('won');
      expect((await check({ raceId: 'no-ballot-race', entryNo: data.winners[0] })).body.code).toBe(404);
    }
    expect(versions).not.toHaveBeenCalled();
    // After it, one short version read; the map is rebuilt only when something changed.
    clock.advance(CHECK_REFRESH_MS);
    await check({ raceId: FIXTURE_RACE_ID, entryNo: data.winners[0] });
    expect(versions).toHaveBeenCalledTimes(1);
    expect(rows).not.toHaveBeenCalled();
    versions.mockRestore();
    rows.mockRestore();
    for (const bad of [{}, { raceId: FIXTURE_RACE_ID }, { raceId: FIXTURE_RACE_ID, entryNo: 'a b' }, 'x']) {
      const answer = await app.inject({
        method: 'POST',
        url: API_PATHS.ballotCheck,
        payload: typeof bad === 'string' ? bad : JSON.stringify(bad),
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.json().code).toBe(400);
    }
    const badPublic = await app.inject({
      method: 'GET',
      url: `${API_PATHS.ballotPublic}?raceId=${FIXTURE_RACE_ID}&itemCode=a%20b`,
    });
    expect(badPublic.statusCode).toBe(400);
    const missing = await publicOf('F');
    expect(missing.response.json().code).toBe(404);
  });

  it('gives an unpaid winner’s place to the next wait-list unit that fits', async () => {
    const { data } = await publicOf('M');
    // One of the 8, or the lone member when both teams won and it took the 7th place.
    const single = [...singles, loneMember].find((s) => data.winners.includes(s.entryNo));
    expect(single).toBeDefined();
    const waiting = await app.repos.ballots.waitList(FIXTURE_RACE_ID, 'M');
    const ranks = new Map<number, string[]>();
    for (const w of waiting) ranks.set(w.waitRank!, [...(ranks.get(w.waitRank!) ?? []), w.entryNo]);
    const expected = [...ranks.values()].find((members) => members.length === 1)![0]!;

    // A second instance on the same database answers from its own memory and follows the promotion.
    other = await buildTestApp({ dataDir, now: clock.now, env: { ...process.env, RATE_LIMITS: 'off' } });
    const ask = async (instance: FastifyInstance) =>
      (
        await instance.inject({
          method: 'POST',
          url: API_PATHS.ballotCheck,
          payload: { raceId: FIXTURE_RACE_ID, entryNo: expected },
        })
      ).json().data as BallotCheckAnswer;
    expect((await ask(other)).outcome).toBe('waitList');

    // Only the single winner's order is left unpaid past its deadline: pay the others.
    const orders = await app.repos.db.all<{ id: number; user_id: number; amount_fen: number }>(
      sql`SELECT id, user_id, amount_fen FROM orders WHERE race_id = ${FIXTURE_RACE_ID} AND status = 1`,
    );
    expect(orders.length).toBeGreaterThan(0);
    for (const order of orders) {
      if (order.user_id === single!.userId) continue;
      await app.repos.orders.markPaid(order.id, { paidFen: order.amount_fen, paidAt: clock.now(), serialNo: 'T' });
    }
    clock.advance(2 * HOUR);
    const provider = createSandboxProvider({
      env: {},
      secret: 'test',
      now: clock.now,
      state: async () => ({ status: 'unknown', tradeNo: null, amountFen: null, paidAt: null }),
    });
    expect(await cancelDue({ repos: app.repos, provider, now: clock.now })).toBe(1);
    expect((await statusOf(single!.entryNo))?.status).toBe(3);
    expect(await statusOf(expected)).toEqual({ status: 1, wait_rank: null });
    const events = await app.repos.db.all<{ step: string }>(
      sql`SELECT ev.step FROM entry_events ev JOIN entries e ON e.id = ev.entry_id WHERE e.entry_no = ${expected}`,
    );
    expect(events.map((e) => e.step)).toContain('promoted');
    const order = await app.repos.db.get<{ status: number; deadline_at: number }>(sql`
      SELECT o.status, o.deadline_at FROM orders o JOIN order_lines l ON l.order_id = o.id JOIN entries e ON e.id = l.entry_id
      WHERE e.entry_no = ${expected}`);
    expect(order).toEqual({ status: 1, deadline_at: clock.now() + 60 * 60_000 });
    const places = await app.repos.entries.places(FIXTURE_RACE_ID);
    expect(places.find((p) => p.itemCode === 'M' && p.pool === 'main')?.taken).toBe(7);
    const message = (await app.repos.outbox.latest(5)).find((m) => m.body.includes(expected));
    expect(message?.body).toMatch(/got a place from the wait list/);
    clock.advance(5000);
    expect((await check({ raceId: FIXTURE_RACE_ID, entryNo: expected })).body.data?.outcome).toBe('won');
    expect((await ask(other)).outcome).toBe('won');
  });

  it('draws a second round over the entries that did not win, for the places left', async () => {
    // Cancel one more place by hand: a winner's place is freed without a wait-list promotion.
    const at = clock.now();
    expect((await cli(at, 'ballot-commit', FIXTURE_RACE_ID, 'M')).code).toBe(0);
    await app.repos.db.run(
      sql`UPDATE entry_places SET capacity = capacity + 1 WHERE race_id = ${FIXTURE_RACE_ID} AND item_code = 'M' AND pool = 'main'`,
    );
    const drawn = await cli(at + 1000, 'ballot-draw', FIXTURE_RACE_ID, 'M', '--round', '2');
    expect(drawn.code, drawn.err).toBe(0);
    expect((await cli(at + 2000, 'ballot-reveal', FIXTURE_RACE_ID, 'M', '--round', '2')).code).toBe(0);
    const round2 = (await publicOf('M', 2)).data;
    expect(round2.places).toBe(1);
    expect(round2.entries.length).toBeGreaterThan(0);
    expect(drawBallot(round2.seed!, round2.beacon ?? '', round2.entries, 1).winners).toEqual(round2.winners);
    for (const no of round2.winners) expect((await statusOf(no))?.status).toBe(1);
  });

  it('refunds the losers of a pay-first draw once (a second draw is refused)', async () => {
    const paid: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const entry = await enter('P');
      paid.push(entry.entryNo);
      // Made and paid at the app's now, its deadline ahead: an order made with a deadline already past could be
      // closed by the app's payment sweep (a real 30 s timer) before it is paid, on a busy machine.
      const now = clock.now();
      const order = await app.repos.orders.create({
        raceId: FIXTURE_RACE_ID,
        userId: entry.userId,
        amountFen: 10_000,
        deadlineAt: now + HOUR,
        createdAt: now,
        lines: [{ entryId: entry.id, amountFen: 10_000 }],
      });
      const payment = await app.repos.payments.create({
        orderId: order.id,
        provider: 'sandbox',
        amountFen: 10_000,
        now,
      });
      await app.repos.payments.markPaid(payment.paymentId, `TRADE${i}`, now);
      await app.repos.orders.markPaid(order.id, { paidFen: 10_000, paidAt: now, serialNo: `TRADE${i}` });
    }
    const unpaid = await enter('P');
    expect((await cli(T0, 'ballot-commit', FIXTURE_RACE_ID, 'P')).code).toBe(0);
    const at = clock.now();
    const drawn = await cli(at, 'ballot-draw', FIXTURE_RACE_ID, 'P');
    expect(drawn.code, drawn.err).toBe(0);
    expect(drawn.out).toMatch(/4 entries, 2 places/);
    expect(drawn.out).toMatch(/2 refunded/);
    expect((await cli(at + 1000, 'ballot-draw', FIXTURE_RACE_ID, 'P')).code).toBe(1);
    // Losers are refunded: no second round of a pay-first item.
    expect((await cli(at + 1000, 'ballot-commit', FIXTURE_RACE_ID, 'P')).code).toBe(1);
    const { data } = await publicOf('P');
    expect(data.entries.map((e) => e.entryNo)).not.toContain(unpaid.entryNo);
    const refunds = await app.repos.db.all<{ entry_no: string; status: string }>(sql`
      SELECT e.entry_no, r.status FROM refunds r JOIN entries e ON e.id = r.entry_id WHERE e.item_code = 'P'`);
    expect(refunds.map((r) => r.entry_no).sort()).toEqual([...data.waitList].sort());
    expect(refunds.every((r) => r.status === 'done')).toBe(true);
    const refundedOrders = await app.repos.db.all<{ status: number; refunded_fen: number }>(sql`
      SELECT DISTINCT o.status, o.refunded_fen FROM orders o JOIN order_lines l ON l.order_id = o.id
      JOIN entries e ON e.id = l.entry_id WHERE e.entry_no IN (${sql.join(data.waitList)})`);
    expect(refundedOrders).toEqual([{ status: 5, refunded_fen: 10_000 }]);
    for (const no of data.winners) expect((await statusOf(no))?.status).toBe(1);
    for (const no of data.waitList) expect((await statusOf(no))?.wait_rank).toBeNull();
  });

  it('ballot-verify re-runs a published draw: ok, and exit 1 when tampered', async () => {
    const { response, data } = await publicOf('M', 1);
    const good = path.join(dataDir, 'ballot.json');
    writeFileSync(good, response.body);
    const ok = await cli(T0, 'ballot-verify', good);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toMatch(/Commitment matches seed: yes/);
    expect(ok.out).toMatch(/Winners identical: yes/);

    const swapped = { ...data, winners: [data.waitList[0], ...data.winners.slice(1)] };
    const tampered = path.join(dataDir, 'tampered.json');
    writeFileSync(tampered, JSON.stringify({ code: 0, msg: 'success', data: swapped }));
    const bad = await cli(T0, 'ballot-verify', tampered);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/Winners identical: no/);

    const otherSeed = path.join(dataDir, 'seed.json');
    writeFileSync(otherSeed, JSON.stringify({ ...data, seed: 'f'.repeat(64) }));
    const wrongSeed = await cli(T0, 'ballot-verify', otherSeed);
    expect(wrongSeed.code).toBe(1);
    expect(wrongSeed.err).toMatch(/Commitment matches seed: no/);

    // Straight from the server's URL.
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const byUrl = await cli(
      T0,
      'ballot-verify',
      `${address}${API_PATHS.ballotPublic}?raceId=${FIXTURE_RACE_ID}&itemCode=M&round=1`,
    );
    expect(byUrl.code, byUrl.err).toBe(0);
    expect(byUrl.out).toMatch(/Winners identical: yes/);
  });
});
