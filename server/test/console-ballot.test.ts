/**
 * The console's ballot and bib pages (issue 32; routes/admin/ballot.ts over services/entry/ballot.ts and
 * bibs.ts, the CLI's own services): only 'season' (owners) may, the service desk and finance are refused; the
 * CLI's refusals before and after the window as message codes; commit → draw → reveal through the console,
 * with the server's re-run of the draw matching the public record; the wait list in order and a promotion
 * with how its place was freed; bibs previewed and assigned with their refusals; every action in the audit
 * log under the CLI's action names (the CLI itself records the same). Both engines.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { drawBallot, seedMatches } from '#contract/ballot';
import type { ConsoleBallotAnswer, ConsoleBibsAnswer } from '#contract/console-ballot';
import { CONSOLE_MESSAGES } from '#contract/console-messages';
import type { BallotPublic, EntrySettings } from '#contract/entry';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { StaffRole } from '#contract/staff';
import { ADMIN_PREFIX, CSRF_HEADER } from '../src/routes/admin/index.ts';
import { cancelDue } from '../src/services/entry/order-transitions.ts';
import { verifyAuditChain } from '../src/services/staff/audit.ts';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, removeTempDirs, siteCli, tempDir } from './helpers.ts';
import { memberSession, signInMember } from './console-helpers.ts';

/** 2025-06-16 10:00 China time. */
const T0 = Date.UTC(2025, 5, 16, 2, 0, 0);
/** signUpEndTime '2025-06-20 20:00:00' (China time). */
const END = Date.UTC(2025, 5, 20, 12, 0, 0);
const HOUR = 3_600_000;

const ENTRY: EntrySettings = {
  allowMultiple: true,
  items: [
    {
      code: 'M',
      name: { zh: '马拉松', en: 'Marathon' },
      capacity: 3,
      feeFen: 20_000,
      model: 'ballot',
      paymentMinutes: 60,
    },
    { code: 'P', name: { zh: '半程', en: 'Half' }, capacity: 2, feeFen: 10_000, model: 'payThenDraw' },
    { code: 'F', name: { zh: '欢乐跑', en: 'Fun run' }, capacity: 9, feeFen: 0, model: 'firstCome' },
    { code: 'K', name: { zh: '亲子跑', en: 'Family run' }, capacity: 9, feeFen: 0, model: 'firstCome' },
  ],
};

const clock = fakeClock(T0);
const dataDir = tempDir();
let app: FastifyInstance;
const sessions = new Map<StaffRole, { cookie: string; csrf: string; id: number }>();
let people = 0;

async function member(email: string, role: StaffRole) {
  sessions.set(role, await memberSession(app, { email, role, now: clock.now }));
}

async function signIn(email: string, role: StaffRole, id: number) {
  return { ...(await signInMember(app, email, role, clock.now)), id };
}

/** The clock moves to `at` (days pass between the window's close and the draw): everyone signs in again. */
async function moveClock(at: number) {
  clock.advance(at - clock.now());
  for (const [role, { id }] of sessions) sessions.set(role, await signIn(`${role}@example.org`, role, id));
}

const call = async (role: StaffRole, method: 'GET' | 'POST', url: string, payload?: object) => {
  const who = sessions.get(role)!;
  const res = await app.inject({
    method,
    url: `${ADMIN_PREFIX}/races/${FIXTURE_RACE_ID}${url}`,
    headers: { cookie: who.cookie, [CSRF_HEADER]: who.csrf },
    ...(method === 'POST' ? { payload: payload ?? {} } : {}),
  });
  const body = res.json() as { code: number; msgCode?: string; msg: string; data: Record<string, string> | null };
  return { status: body.code === 0 ? res.statusCode : body.code, body };
};
const view = async () => (await call('owner', 'GET', '/ballot')).body.data as unknown as ConsoleBallotAnswer;
const audits = (action: string) => app.repos.audit.find({ action, limit: 50 });

/** A new account and its entry of the item (status 0 awaiting the draw, or 1 registered). */
async function enter(itemCode: string, status: 0 | 1 = 0) {
  people += 1;
  const phone = `1370000${String(people).padStart(4, '0')}`;
  const userId = await app.repos.users.create({ phone }, T0);
  const made = await app.repos.entries.insertEntry({
    raceId: FIXTURE_RACE_ID,
    itemCode,
    channel: 'public',
    userId,
    teamId: null,
    status,
    holdsPlace: false,
    name: `李跑者${people}`,
    gender: 1,
    birthday: '1990-01-01',
    certType: 1,
    certHash: `console-ballot-${people}`,
    certNumber: `11010119900101${String(3000 + people)}`,
    phone,
    values: {},
    feeFen: ENTRY.items.find((i) => i.code === itemCode)!.feeFen,
    now: T0,
  });
  return made.entryNo;
}

beforeAll(async () => {
  app = await buildTestApp({ dataDir, now: clock.now, env: { ...process.env, RATE_LIMITS: 'off', JOBS: 'off' } });
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
  for (let i = 0; i < 7; i += 1) await enter('M');
  for (const role of ['owner', 'service', 'finance'] as const) await member(`${role}@example.org`, role);
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

describe('the console ballot', () => {
  it('is for owners only: the service desk and finance are refused every call', async () => {
    const calls: [method: 'GET' | 'POST', url: string, body?: object][] = [
      ['GET', '/ballot'],
      ['POST', '/ballot/M/commit', {}],
      ['POST', '/ballot/M/draw', {}],
      ['POST', '/ballot/M/reveal', {}],
      ['GET', '/bibs'],
      ['POST', '/bibs/F/preview', { prefix: 'F', from: 1, width: 4 }],
      ['POST', '/bibs/F/assign', { prefix: 'F', from: 1, width: 4 }],
    ];
    for (const role of ['service', 'finance'] as const) {
      for (const [method, url, body] of calls) {
        const { status, body: answer } = await call(role, method, url, body);
        expect([status, answer.msgCode], `${role} ${url}`).toEqual([403, 'staffForbidden']);
      }
    }
    expect(await audits('ballot.commit')).toEqual([]);
    const before = await view();
    expect(before.items.map((i) => i.itemCode)).toEqual(['M', 'P']);
    expect(before.items[0]).toMatchObject({
      rounds: [],
      pool: { round: 1, entries: 7, places: 3 },
      waitList: [],
      keepsWaitList: true,
    });
    expect(before).toMatchObject({ entryOpen: true, windowClosed: false, publicPath: '/#/ballot' });
  });

  it('refuses as the CLI does: a commitment after the window, a draw before it, a wrong beacon', async () => {
    expect((await call('owner', 'POST', '/ballot/F/commit', {})).body.msgCode).toBe('ballotNotBallotItem');
    expect((await call('owner', 'POST', '/ballot/M/draw', {})).body.msgCode).toBe('ballotNoCommitment');
    expect((await call('owner', 'POST', '/ballot/M/commit', { beacon: 'x'.repeat(501) })).body.msgCode).toBe(
      'ballotBeaconInvalid',
    );

    const made = await call('owner', 'POST', '/ballot/M/commit', { beacon: 'Welfare lottery 3D of 2025-06-21' });
    expect(made.status, made.body.msg).toBe(200);
    expect(made.body.data).toMatchObject({ round: 1, beacon: 'Welfare lottery 3D of 2025-06-21' });
    expect(made.body.data?.commitment).toMatch(/^[0-9a-f]{64}$/);
    expect((await call('owner', 'POST', '/ballot/M/commit', {})).body).toMatchObject({
      msgCode: 'ballotRoundOpen',
      data: null,
    });
    const early = await call('owner', 'POST', '/ballot/M/draw', { beaconValue: '3 1 4' });
    expect(early).toMatchObject({ status: 409, body: { msgCode: 'ballotEntryOpenUntil' } });
    expect(CONSOLE_MESSAGES.ballotEntryOpenUntil.zh).toContain('{{end}}');
    expect((await call('owner', 'POST', '/ballot/M/reveal', {})).body.msgCode).toBe('ballotNotDrawn');

    // Once the window has closed no first round can be committed (item P has none).
    await moveClock(END + 1000);
    const late = await call('owner', 'POST', '/ballot/P/commit', {});
    expect(late).toMatchObject({ status: 409, body: { msgCode: 'ballotWindowClosed' } });
    expect(late.body.msg).toContain('2025-06-20 20:00');

    await moveClock(END + HOUR);
    expect((await call('owner', 'POST', '/ballot/M/draw', {})).body).toMatchObject({
      msgCode: 'ballotBeaconNeeded',
      msgParams: { beacon: 'Welfare lottery 3D of 2025-06-21' },
    });
    const now = await view();
    expect(now).toMatchObject({ entryOpen: false, windowClosed: true });
    expect(now.items[0]!.rounds).toEqual([
      expect.objectContaining({ round: 1, drawnAt: null, revealed: false, seed: null, check: null }),
    ]);
  });

  it('draws and reveals through the console; the server re-runs the draw and it matches the public record', async () => {
    const drawn = await call('owner', 'POST', '/ballot/M/draw', { beaconValue: '3 1 4' });
    expect(drawn.status, drawn.body.msg).toBe(200);
    expect(drawn.body.data).toMatchObject({ round: 1, places: 3, entries: 7, orders: 3 });
    expect((await call('owner', 'POST', '/ballot/M/draw', { beaconValue: '3 1 4' })).body.msgCode).toBe(
      'ballotDrawnAlready',
    );
    // Drawn, not revealed: nothing to re-run yet, and the public record has no seed.
    expect((await view()).items[0]!.rounds[0]).toMatchObject({ revealed: false, check: null, winners: 3 });

    const revealed = await call('owner', 'POST', '/ballot/M/reveal', {});
    expect(revealed.status, revealed.body.msg).toBe(200);
    expect((await call('owner', 'POST', '/ballot/M/reveal', {})).body.msgCode).toBe('ballotRevealedAlready');

    const round = (await view()).items[0]!.rounds[0]!;
    expect(round).toMatchObject({
      revealed: true,
      seed: revealed.body.data?.seed,
      entries: 7,
      winners: 3,
      waitList: 4,
    });
    expect(round.check).toEqual({
      seedMatches: true,
      winnersIdentical: true,
      waitListIdentical: true,
      redrawn: 3,
      published: 3,
      differing: 0,
    });
    // The link staff are shown is the public record anyone re-runs: the same answer there.
    const record = await app.inject({ method: 'GET', url: round.recordPath });
    const published = record.json().data as BallotPublic;
    expect(seedMatches(published.seed!, published.commitment)).toBe(true);
    const again = drawBallot(published.seed!, published.beacon ?? '', published.entries, published.places ?? 0);
    expect(again.winners).toEqual(published.winners);
    expect(round.recordPath.startsWith(API_PATHS.ballotPublic)).toBe(true);
  });

  it('shows the wait list in its order and a promotion with how its place was freed', async () => {
    const answer = await view();
    const item = answer.items[0]!;
    const { data: published } = (await app.inject({ method: 'GET', url: item.rounds[0]!.recordPath })).json() as {
      data: BallotPublic;
    };
    expect(item.waitList.map((r) => r.entryNo)).toEqual(published.waitList);
    expect(item.waitList.map((r) => r.position)).toEqual([1, 2, 3, 4]);
    expect(item.waitList.every((r) => r.promotedAt === null && r.freed === null)).toBe(true);
    expect(item.waitList[0]!.maskedName).not.toContain('李跑者');

    // The winners do not pay: at their deadline their places go to the first three on the list.
    await moveClock(clock.now() + 2 * HOUR);
    expect(await cancelDue({ repos: app.repos, provider: app.payments, now: clock.now })).toBe(3);
    const after = (await view()).items[0]!;
    const promoted = after.waitList.filter((r) => r.promotedAt !== null);
    expect(promoted.map((r) => r.entryNo)).toEqual(published.waitList.slice(0, 3));
    for (const row of promoted) {
      expect(row.freed).toMatchObject({ how: 'unpaid', text: 'unpaid at the payment deadline' });
      expect(published.winners).toEqual(expect.arrayContaining(row.freed!.entryNos));
    }
    expect(after.waitList[3]).toMatchObject({ position: 4, promotedAt: null, freed: null, status: 2 });
    // The CLI's ballot-waitlist prints the same order.
    const cli = await siteCli(dataDir, clock.now)('ballot-waitlist', FIXTURE_RACE_ID, 'M');
    expect(cli.code).toBe(0);
    const lines = cli.out.split('\n').filter((line) => /^\s*\d+\s/.test(line));
    expect(lines.map((line) => line.trim().split(/\s+/)[1])).toEqual(published.waitList);
  });

  it('commits and draws a later round for the places left, and the CLI records the same audit actions', async () => {
    const cli = siteCli(dataDir, clock.now);
    // A refused command changes nothing and records nothing (the window of round 1 is closed).
    const refusedCommit = await cli('ballot-commit', FIXTURE_RACE_ID, 'P');
    expect(refusedCommit.code, refusedCommit.out).toBe(1);
    const owner = sessions.get('owner')!.id;
    const commits = await audits('ballot.commit');
    expect(commits).toHaveLength(1);
    expect(commits[0]).toMatchObject({ actor: `staff:${owner}`, raceId: FIXTURE_RACE_ID, target: 'M round 1' });
    expect(await audits('ballot.draw')).toEqual([
      expect.objectContaining({ actor: `staff:${owner}`, target: 'M round 1' }),
    ]);
    expect(JSON.parse((await audits('ballot.draw'))[0]!.after!)).toMatchObject({ places: 3, entries: 7, winners: 3 });
    expect(await audits('ballot.reveal')).toHaveLength(1);

    // Round 2 over those not drawn, after the window: a later round may be committed.
    const second = await call('owner', 'POST', '/ballot/M/commit', {});
    expect(second.body.data).toMatchObject({ round: 2, beacon: '' });
    const pool = (await view()).items[0]!.pool;
    expect(pool).toEqual({ round: 2, entries: 1, places: 0 });
    const drew = await cli('ballot-draw', FIXTURE_RACE_ID, 'M');
    expect(drew.code, drew.err).toBe(0);
    const draws = await audits('ballot.draw');
    expect(draws).toHaveLength(2);
    expect(draws.find((r) => r.target === 'M round 2')?.actor).toMatch(/^cli:/);
    expect(await audits('cli.ballot-draw')).toEqual([]);
    expect((await view()).items[0]!.rounds.map((r) => [r.round, r.revealed])).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(await verifyAuditChain(app.repos)).toMatchObject({ ok: true });
  });
});

describe('the console bibs', () => {
  const fun: string[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 3; i += 1) fun.push(await enter('F', 1));
    await enter('K', 1);
  });

  it('previews a series, refuses a bad or clashing one in the member’s language, and assigns it', async () => {
    const before = (await call('owner', 'GET', '/bibs')).body.data as unknown as ConsoleBibsAnswer;
    expect(before.items.find((i) => i.itemCode === 'F')).toMatchObject({ withBib: 0, awaiting: 3, series: [] });

    expect((await call('owner', 'POST', '/bibs/F/preview', { prefix: 'f-', from: 1, width: 4 })).body.msgCode).toBe(
      'bibsPrefixInvalid',
    );
    expect((await call('owner', 'POST', '/bibs/F/preview', { prefix: 'F', from: 0, width: 4 })).body.msgCode).toBe(
      'bibsFromInvalid',
    );
    expect((await call('owner', 'POST', '/bibs/F/preview', { prefix: 'F', from: 1, width: 11 })).body.msgCode).toBe(
      'bibsWidthInvalid',
    );
    expect((await call('owner', 'POST', '/bibs/Z/preview', { prefix: 'F', from: 1, width: 4 })).body.msgCode).toBe(
      'ballotNoItem',
    );
    const wide = await call('owner', 'POST', '/bibs/F/preview', { prefix: 'F', from: 9, width: 1 });
    expect(wide.body).toMatchObject({ msgCode: 'bibsTooWide', msgParams: { bib: 'F10', width: 1 } });

    const preview = await call('owner', 'POST', '/bibs/F/preview', { prefix: 'f', from: 7, width: 4 });
    expect(preview.body.data).toEqual({ count: 3, first: 'F0007', last: 'F0009' });
    expect((await app.repos.entries.findByNo(fun[0]!))?.bib ?? null).toBeNull();

    const assigned = await call('owner', 'POST', '/bibs/F/assign', { prefix: 'F', from: 7, width: 4 });
    expect(assigned.body.data).toEqual({ count: 3, first: 'F0007', last: 'F0009' });
    expect((await app.repos.entries.findByNo(fun[2]!))?.bib).toBe('F0009');
    expect((await call('owner', 'POST', '/bibs/F/assign', { prefix: 'F', from: 7, width: 4 })).body.msgCode).toBe(
      'bibsNoneAwaiting',
    );

    // Another item's series running into F's bibs is refused whole, with the bib and its item.
    const clash = await call('owner', 'POST', '/bibs/K/assign', { prefix: 'F', from: 8, width: 4 });
    expect(clash).toMatchObject({
      status: 409,
      body: { msgCode: 'bibsOtherItem', msgParams: { bib: 'F0008', item: 'F' } },
    });
    expect(clash.body.msg).toBe(
      'Bib F0008 is already given to an entry of item F; no bib assigned. Choose another prefix or first number',
    );

    const after = (await call('owner', 'GET', '/bibs')).body.data as unknown as ConsoleBibsAnswer;
    expect(after.items.find((i) => i.itemCode === 'F')).toMatchObject({
      withBib: 3,
      awaiting: 0,
      series: [{ prefix: 'F', width: 4, count: 3, first: 'F0007', last: 'F0009' }],
    });
    expect(after.items.find((i) => i.itemCode === 'K')).toMatchObject({ withBib: 0, awaiting: 1 });
    const records = await audits('bibs.assign');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ actor: `staff:${sessions.get('owner')!.id}`, target: 'F' });
    expect(JSON.parse(records[0]!.after!)).toMatchObject({ prefix: 'F', from: 7, width: 4, count: 3 });
  });
});
