/**
 * Load bench of sign-up (issue #14 §7): registration opening and ballot-result day.
 *
 * - Registration opening: SIGNUP_BENCH_SUBMISSIONS runners (default 6,000), each with an account of their own,
 *   submit at once through BENCH_LOAD_CONNECTIONS connections to a first-come item of SIGNUP_BENCH_CAPACITY
 *   places (default 5,000): the figure is accepted submissions per second over the run (budget ≥ 500/s), the
 *   p99 of every answer (≤ 200 ms), and the places oversold (0): read from the database after the run.
 * - "Am I in?" (ballotCheck): a ballot item with SIGNUP_BENCH_BALLOT entries (default 3,000) is drawn, then
 *   the lookup by entry number runs for the bench's seconds (budget ≥ 10,000 req/s).
 *
 * Everything the run needs is prepared in the database before the servers start (the bench race with its
 * form and items, the accounts and their tokens, the ballot's commitment), so the servers see it as a real
 * organiser's race; the draw runs in this process on the same database, as `site ballot-draw` would. Each
 * submission carries its runner's slider pass, which the server redeems as it would a browser's: the passes are
 * got from the servers before the run (`solveSliders`: the built-in slider's challenge answered on its target,
 * as a script can; docs/entry-limits.md). The servers run with RATE_LIMITS=off (one address sends everything).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { API_PATHS } from '#contract/api';
import type { EntrySettings } from '#contract/entry';
import { formatRaceTime, parseRaceTime } from '#contract/race-clock';
import type { RaceInfo } from '#contract/site-config/race-types';
import { openDatabase, type OpenedDatabase } from '../server/src/db/database';
import { sql } from '../server/src/db/engine';
import { publishRegistrationForm } from '../server/src/db/registration-form-publisher';
import { idCard } from '../server/src/db/seed-runners';
import type { CaptchaPass } from '#contract/registration-screens';
import { commitBallot, drawRound } from '../server/src/services/entry/ballot';
import { repoRoot } from '../tests/e2e/server-process';

export const SIGNUP_RACE = 'bench-signup-2027';
const FIRST_COME = 'FC';
const BALLOT = 'BAL';
const seedDir = path.join(repoRoot, 'server/seed');

export interface SignupBenchOptions {
  submissions: number;
  capacity: number;
  ballotEntries: number;
}

export const signupBenchOptions = (): SignupBenchOptions => ({
  submissions: Number(process.env.SIGNUP_BENCH_SUBMISSIONS ?? 6000),
  capacity: Number(process.env.SIGNUP_BENCH_CAPACITY ?? 5000),
  ballotEntries: Number(process.env.SIGNUP_BENCH_BALLOT ?? 3000),
});

/** The bench race: open now, a first-come item and a ballot item, one person per submission. */
function benchRace(now: number, options: SignupBenchOptions): RaceInfo {
  const entry: EntrySettings = {
    allowMultiple: false,
    items: [
      {
        code: FIRST_COME,
        name: { zh: '10公里', en: '10 km' },
        capacity: options.capacity,
        feeFen: 8000,
        model: 'firstCome',
      },
      {
        code: BALLOT,
        name: { zh: '马拉松', en: 'Marathon' },
        capacity: Math.max(1, Math.floor(options.ballotEntries / 3)),
        feeFen: 20000,
        model: 'ballot',
      },
    ],
  };
  return {
    raceId: SIGNUP_RACE,
    raceName: '2027 压测马拉松',
    raceNameEn: '2027 Load Test Marathon',
    startTime: '2027-04-18 07:30:00',
    endTime: '2027-04-18 14:00:00',
    signUpStartTime: formatRaceTime(now - 3_600_000),
    signUpEndTime: formatRaceTime(now + 6 * 3_600_000),
    signUpOpenStatus: 1,
    entry,
  };
}

/** The registration form: the participant fields the entry system reads, nothing else. */
function benchForm() {
  const label = (zh: string, en: string) => ({ zh, en });
  return {
    version: 1,
    raceId: SIGNUP_RACE,
    channel: 'public',
    title: label('报名信息', 'Entry form'),
    fields: [
      {
        key: 'item',
        type: 'radio',
        label: label('报名项目', 'Race item'),
        required: true,
        options: [
          { value: FIRST_COME, label: label('10公里', '10 km') },
          { value: BALLOT, label: label('马拉松', 'Marathon') },
        ],
      },
      { key: 'name', type: 'input', label: label('姓名', 'Name'), required: true, rules: [{ rule: 'requiredText' }] },
      { key: 'gender', type: 'gender', label: label('性别', 'Gender'), required: true },
      { key: 'certificateType', type: 'certificateType', label: label('证件类型', 'Certificate type'), required: true },
      {
        key: 'certificateNumber',
        type: 'certificateNumber',
        typeField: 'certificateType',
        label: label('证件号码', 'Certificate number'),
        required: true,
      },
      { key: 'birthday', type: 'date', label: label('出生日期', 'Date of birth'), required: true },
      { key: 'phone', type: 'phone', label: label('手机号码', 'Mobile phone'), required: true },
      {
        key: 'emergencyName',
        type: 'input',
        label: label('紧急联系人', 'Emergency contact'),
        required: true,
        rules: [{ rule: 'differsFrom', field: 'name', message: 'emergencyNameSame' }],
      },
      {
        key: 'emergencyPhone',
        type: 'phone',
        label: label('紧急联系人电话', 'Emergency phone'),
        required: true,
        rules: [{ rule: 'differsFrom', field: 'phone', message: 'emergencyPhoneSame' }],
      },
    ],
  };
}

/** Runner i: a distinct valid ID-card number, a birthday in it, a phone. */
function runner(i: number) {
  const day = new Date(Date.UTC(1970, 0, 1) + (i % 9000) * 86_400_000);
  const ymd = day.toISOString().slice(0, 10);
  const seq = String(Math.floor(i / 9000)).padStart(3, '0');
  return {
    name: `压测${i}`,
    gender: (i % 2) + 1,
    certificateType: 1,
    certificateNumber: idCard(`110105${ymd.replaceAll('-', '')}${seq}`),
    birthday: ymd,
    phone: `139${String(i).padStart(8, '0')}`,
    emergencyName: `家属${i}`,
    emergencyPhone: `137${String(i).padStart(8, '0')}`,
  };
}

export interface SignupPrepared {
  /** The token of account i. */
  tokens: string[];
}

/** Prepares the bench race, its form, the accounts and the ballot's commitment in the database of `env`. */
export async function prepareSignup(env: NodeJS.ProcessEnv, options: SignupBenchOptions): Promise<SignupPrepared> {
  const opened = await openDatabase({
    dataDir: env.DATA_DIR!,
    seedDir,
    now: Date.now(),
    env: { ...process.env, ...env },
  });
  try {
    const { repos } = opened;
    const now = Date.now();
    const race = benchRace(now, options);
    await repos.transaction(async (tx) => {
      await tx.races.save(race, now);
      const places = await tx.entries.syncPlaces(race.raceId, race.entry);
      if (!places.ok) throw new Error(places.problem);
    });
    await publishRegistrationForm({
      repos,
      raceId: SIGNUP_RACE,
      bytes: Buffer.from(JSON.stringify(benchForm())),
      now,
    });
    const committed = await commitBallot(repos, { raceId: SIGNUP_RACE, itemCode: BALLOT, now });
    if (!committed.ok) throw new Error(committed.problem);
    const tokens: string[] = [];
    const accounts = options.submissions + options.ballotEntries;
    for (let i = 0; i < accounts; i++) {
      const userId = await repos.users.create({ phone: `135${String(i).padStart(8, '0')}` }, now);
      tokens.push((await repos.tokens.issue(userId, 86_400_000, now)).token);
    }
    return { tokens };
  } finally {
    await opened.db.close();
  }
}

/**
 * `count` passed checks of the built-in slider from the server at `url` (single use, valid 5 minutes): each
 * challenge answered on its target with a drag of five points, 50 at a time.
 */
export async function solveSliders(url: string, count: number): Promise<CaptchaPass[]> {
  const solve = async (): Promise<CaptchaPass> => {
    const challenge = (await (await fetch(`${url}${API_PATHS.captchaChallenge}`)).json()) as {
      data: { sessionId: string; targetX: number };
    };
    const { sessionId, targetX: x } = challenge.data;
    const trail = [0, 0.25, 0.5, 0.75, 1].map((share, k) => [k * 70, Math.round(x * share)]);
    const answer = await fetch(`${url}${API_PATHS.captchaVerify}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId, x, trail }),
    });
    const pass = (await answer.json()) as { code: number; data: CaptchaPass };
    if (pass.code !== 0) throw new Error('the bench could not pass the built-in slider');
    return pass.data;
  };
  const passes: CaptchaPass[] = [];
  while (passes.length < count) {
    passes.push(...(await Promise.all(Array.from({ length: Math.min(50, count - passes.length) }, solve))));
  }
  return passes;
}

function submitBody(i: number, itemCode: string, captcha: CaptchaPass): string {
  return JSON.stringify({
    raceId: SIGNUP_RACE,
    itemCode,
    channel: 'public',
    participants: [{ item: itemCode, ...runner(i) }],
    idempotencyKey: `bench-${i}-${itemCode}`,
    captcha,
  });
}

export interface SignupMeasured {
  acceptedPerSecond: number;
  accepted: number;
  refused: number;
  p99Ms: number;
  errors: number;
  seconds: number;
}

/**
 * Sends runners [from, from + count) once each, spread over the URLs' connections; counts answers with code
 * 0 as accepted. autocannon's `amount` ends the run once every request is answered.
 */
export async function submitAll(
  urls: string[],
  prepared: SignupPrepared,
  from: number,
  count: number,
  itemCode: string,
): Promise<SignupMeasured> {
  // Got before the clock starts: a browser solves the slider before it submits.
  const passes = await solveSliders(urls[0]!, count);
  const total = Math.min(Number(process.env.BENCH_LOAD_CONNECTIONS ?? 50), count);
  let accepted = 0;
  let refused = 0;
  const started = performance.now();
  const runOne = (url: string, connections: number, share: number[]) => {
    let dealt = 0;
    const requestOf = (i: number) => ({
      method: 'POST' as const,
      headers: { 'content-type': 'application/json', token: prepared.tokens[i]!, 'accept-encoding': 'identity' },
      body: submitBody(i, itemCode, passes[i - from]!),
      onResponse: (status: number, body: string) => {
        if (status === 200 && body.startsWith('{"code":0')) accepted++;
        else refused++;
      },
    });
    return autocannon({
      url: `${url}${API_PATHS.entrySubmit}`,
      connections,
      pipelining: 1,
      amount: share.length,
      timeout: 30,
      requests: [requestOf(share[0]!)],
      setupClient: (client) => {
        const mine = dealt++ % connections;
        client.setRequests(share.filter((_, k) => k % connections === mine).map(requestOf));
      },
    });
  };
  const ids = Array.from({ length: count }, (_, k) => from + k);
  const results = await Promise.all(
    urls.map((url, u) => {
      const share = ids.filter((_, k) => k % urls.length === u);
      return runOne(url, Math.max(1, Math.floor(total / urls.length)), share);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    acceptedPerSecond: Math.round(accepted / seconds),
    accepted,
    refused,
    p99Ms: Math.max(...results.map((r) => r.latency.p99)),
    errors: results.reduce((acc, r) => acc + r.errors + r.timeouts, 0),
    seconds,
  };
}

export interface OversoldCheck {
  capacity: number;
  taken: number;
  holding: number;
  oversold: number;
}

export async function placesOf(opened: OpenedDatabase, itemCode: string): Promise<OversoldCheck> {
  const place = await opened.db.get<{ capacity: number; taken: number }>(sql`
    SELECT capacity, taken FROM entry_places WHERE race_id = ${SIGNUP_RACE} AND item_code = ${itemCode} AND pool = 'main'`);
  const holding = await opened.db.get<{ n: number }>(sql`
    SELECT count(*) AS n FROM entries WHERE race_id = ${SIGNUP_RACE} AND item_code = ${itemCode} AND holds_place = 1`);
  const capacity = Number(place?.capacity ?? 0);
  const taken = Number(place?.taken ?? 0);
  const n = Number(holding?.n ?? 0);
  return { capacity, taken, holding: n, oversold: Math.max(0, n - capacity, taken - capacity) };
}

export interface SignupRun {
  opening: SignupMeasured & OversoldCheck;
  /** Entry numbers of the drawn ballot (the "am I in?" pool). */
  ballotBodies: string[];
}

/**
 * Registration opening against running servers, then the ballot entries (not measured) and the draw, in the
 * database of `env`. The "am I in?" lookups are measured by the caller on the returned bodies.
 */
export async function runSignup(
  urls: string[],
  env: NodeJS.ProcessEnv,
  prepared: SignupPrepared,
  options: SignupBenchOptions,
): Promise<SignupRun> {
  const opening = await submitAll(urls, prepared, 0, options.submissions, FIRST_COME);
  const ballot = await submitAll(urls, prepared, options.submissions, options.ballotEntries, BALLOT);
  if (ballot.accepted < options.ballotEntries) {
    throw new Error(`only ${ballot.accepted} of ${options.ballotEntries} ballot entries were accepted`);
  }
  const opened = await openDatabase({
    dataDir: env.DATA_DIR!,
    seedDir,
    now: Date.now(),
    env: { ...process.env, ...env },
    seed: false,
  });
  try {
    const places = await placesOf(opened, FIRST_COME);
    const race = await opened.repos.races.findById(SIGNUP_RACE);
    const afterWindow = (parseRaceTime(race?.signUpEndTime) ?? Date.now()) + 60_000;
    const drawn = await drawRound(opened.repos, { raceId: SIGNUP_RACE, itemCode: BALLOT, now: afterWindow });
    if (!drawn.ok) throw new Error(drawn.problem);
    const numbers = await opened.db.all<{ entry_no: string }>(sql`
      SELECT entry_no FROM entries WHERE race_id = ${SIGNUP_RACE} AND item_code = ${BALLOT} ORDER BY entry_no`);
    return {
      opening: { ...opening, ...places },
      ballotBodies: numbers.map((row) => JSON.stringify({ raceId: SIGNUP_RACE, entryNo: row.entry_no })),
    };
  } finally {
    await opened.db.close();
  }
}

/** A fresh data folder for a sign-up run on SQLite (removed by the returned function). */
export function signupDataDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'race-site-signup-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
