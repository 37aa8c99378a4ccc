/**
 * Refunds and the optional deferral (issue 15 §4; services/after-entry/refunds.ts, routes/after-entry/refund.ts,
 * cli/refund-commands.ts): the refusals, the share in fen, request → approve → 'refunded' with one refund at
 * the sandbox provider however often it is approved, rejection back to 1 with the reason, the place given
 * back, and the deferral: approved → cancelled 'deferred', a named single-use code of the next race issued
 * once and usable by that person only. Runs on both engines.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RefundAnswer, RefundRequestView } from '#contract/after-entry';
import { API_PATHS } from '#contract/api';
import { formatRaceTime, parseRaceTime } from '#contract/race-clock';
import type { RaceInfo } from '#contract/site-config/race-types';
import { raceTimeZone } from '#contract/time-zone';
import { sql } from '../src/db/engine.ts';
import { publishRegistrationForm } from '../src/db/registration-form-publisher.ts';
import { approveRequest } from '../src/services/after-entry/refunds.ts';
import {
  afterEntryClock,
  DEMO_RACE_ID,
  demoRace,
  demoRaceApp,
  newRunner,
  saveDemoRace,
  unpaidEntry,
  wonPaidEntry,
  type TestEntry,
  type TestRunner,
} from './after-entry-helpers.ts';
import { passedSlider, removeTempDirs, siteCli, tempDir } from './helpers.ts';

const NEXT_RACE_ID = 'qc-marathon-2028';
const clock = afterEntryClock();
const dataDir = tempDir();
let app: FastifyInstance;

/** The organiser CLI on this file's data folder, at the test clock's time. */
const cli = (...argv: string[]) => siteCli(dataDir, clock.now)(...argv);

const terms = async (who: TestRunner, raceId = DEMO_RACE_ID) =>
  app.inject({ method: 'GET', url: `${API_PATHS.refundGet}?raceId=${raceId}`, headers: { token: who.token } });

async function termsOf(who: TestRunner): Promise<RefundAnswer> {
  const res = await terms(who);
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as RefundAnswer;
}

const ask = (who: TestRunner, entryNo: string, kind: 'refund' | 'deferral' = 'refund', reason = '临时出差，无法参赛') =>
  app.inject({
    method: 'POST',
    url: API_PATHS.refundRequest,
    headers: { token: who.token },
    payload: { raceId: DEMO_RACE_ID, entryNo, kind, reason },
  });

const entryOf = async (e: TestEntry) => (await app.repos.entries.findById(e.entryId))!;
const steps = async (e: TestEntry) =>
  ((await app.repos.entries.events([e.entryId])).get(e.entryId) ?? []).map((s) => s.step);
const taken = async (raceId = DEMO_RACE_ID, itemCode = '10K') =>
  (await app.repos.entries.places(raceId)).find((p) => p.itemCode === itemCode && p.pool === 'main')!.taken;
const orderOf = async (e: TestEntry) => (await app.repos.orders.findByNo(e.orderNo))!;

/** The demo race with its refund settings changed. */
const withRefunds = (refunds: NonNullable<RaceInfo['entry']>['refunds']): Partial<RaceInfo> => ({
  entry: { ...demoRace().entry!, refunds },
});

beforeAll(async () => {
  app = await demoRaceApp(clock, { dataDir });
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

describe('refund requests', () => {
  it('answers the terms and what the entry gets back: 80 % of 80.00 yuan is 6,400 fen', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await wonPaidEntry(app, runner, clock.now());
    const answer = await termsOf(runner);
    expect(answer.refunds).toEqual({ allowed: true, until: '2027-03-01 18:00:00', sharePercent: 80, state: 'open' });
    expect(answer.deferral).toMatchObject({ allowed: false, state: 'closed' });
    expect(answer.entries).toEqual([
      expect.objectContaining({ entryNo: entry.entryNo, status: 1, paidFen: 8000, refundFen: 6400, requests: [] }),
    ]);
  });

  it('refuses what the rules refuse', async () => {
    const runner = await newRunner(app, clock.now());
    const other = await newRunner(app, clock.now());
    const entry = await wonPaidEntry(app, runner, clock.now());
    const unpaid = await unpaidEntry(app, runner, clock.now());

    const anonymous = await app.inject({ method: 'GET', url: `${API_PATHS.refundGet}?raceId=${DEMO_RACE_ID}` });
    expect(anonymous.json()).toMatchObject({ code: 401, msgCode: 'loginExpired' });
    expect((await ask(other, entry.entryNo)).json()).toMatchObject({ code: 404, msgCode: 'registrationMissing' });
    expect((await ask(runner, entry.entryNo, 'refund', ' x ')).json()).toMatchObject({
      code: 400,
      data: { fields: { reason: { code: 'textTooShort', params: { count: 2 } } } },
    });
    expect((await ask(runner, entry.entryNo, 'refund', '长'.repeat(201))).json()).toMatchObject({
      code: 400,
      data: { fields: { reason: { code: 'textTooLong', params: { count: 200 } } } },
    });
    expect((await ask(runner, unpaid.entryNo)).json()).toMatchObject({ code: 400, msgCode: 'refundNotEligible' });
    expect((await ask(runner, entry.entryNo, 'deferral')).json()).toMatchObject({ msgCode: 'deferralClosed' });

    await saveDemoRace(
      app,
      clock.now(),
      withRefunds({ allowed: false, until: '2027-03-01 18:00:00', sharePercent: 80 }),
    );
    expect((await ask(runner, entry.entryNo)).json()).toMatchObject({ code: 400, msgCode: 'refundClosed' });
    await saveDemoRace(
      app,
      clock.now(),
      withRefunds({ allowed: true, until: '2026-11-30 18:00:00', sharePercent: 80 }),
    );
    expect((await ask(runner, entry.entryNo)).json()).toMatchObject({
      code: 400,
      msgCode: 'refundEnded',
      msgParams: { until: '2026-11-30 18:00:00' },
    });
    await saveDemoRace(app, clock.now());

    expect((await ask(runner, entry.entryNo)).json().code).toBe(0);
    expect((await ask(runner, entry.entryNo)).json()).toMatchObject({ code: 400, msgCode: 'refundInReview' });
    expect((await entryOf(entry)).status).toBe(4);
  });

  it('request → approve: one refund of the share at the provider however often it is approved, place given back, refunded', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await wonPaidEntry(app, runner, clock.now());
    const before = await taken();

    const res = await ask(runner, entry.entryNo);
    expect(res.json().code, res.body).toBe(0);
    expect(res.json().data).toMatchObject({ kind: 'refund', status: 'review', amountFen: 6400, rejectReason: null });
    expect((await entryOf(entry)).status).toBe(4);
    expect(await steps(entry)).toEqual(['submitted', 'paid', 'refundRequested']);

    const listed = await cli('refunds-list', '--race', DEMO_RACE_ID, '--status', 'review');
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toContain(entry.entryNo);
    expect(listed.out).toContain('64.00');

    const approved = await cli('refund-approve', '--race', DEMO_RACE_ID, '--entry', entry.entryNo);
    expect(approved.code, approved.err).toBe(0);
    expect(approved.out).toContain('refunded now: 64.00 yuan');
    const again = await cli('refund-approve', '--race', DEMO_RACE_ID, '--entry', entry.entryNo);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain('already approved: nothing changed');

    const order = await orderOf(entry);
    const refunds = await app.repos.payments.refundsOf(order.id);
    expect(refunds).toMatchObject([{ entryId: entry.entryId, amountFen: 6400, status: 'done' }]);
    expect(order).toMatchObject({ paidFen: 8000, refundedFen: 6400 });
    expect((await entryOf(entry)).status).toBe(5);
    expect((await entryOf(entry)).holdsPlace).toBe(false);
    expect(await steps(entry)).toEqual(['submitted', 'paid', 'refundRequested', 'refunded']);
    expect(await taken()).toBe(before - 1);

    const answer = await termsOf(runner);
    expect(answer.entries[0]).toMatchObject({
      status: 5,
      requests: [{ status: 'approved', amountFen: 6400, decidedAt: clock.now() }],
    });
    const outbox = await app.repos.outbox.latest(5);
    expect(outbox.some((m) => m.destination === runner.phone && m.body.includes('64.00'))).toBe(true);
  });

  it('approvals run in parallel refund once', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await wonPaidEntry(app, runner, clock.now());
    expect((await ask(runner, entry.entryNo)).json().code).toBe(0);
    const deps = { repos: app.repos, provider: app.paymentProvider, now: clock.now, actor: { kind: 'cli' } as const };
    const results = await Promise.all([
      approveRequest(deps, DEMO_RACE_ID, entry.entryNo),
      approveRequest(deps, DEMO_RACE_ID, entry.entryNo),
      approveRequest(deps, DEMO_RACE_ID, entry.entryNo),
    ]);
    const fresh = results.filter((r) => r.ok && r.value.fresh);
    expect(fresh).toHaveLength(1);
    const order = await orderOf(entry);
    expect(await app.repos.payments.refundsOf(order.id)).toHaveLength(1);
    expect(order.refundedFen).toBe(6400);
    expect((await entryOf(entry)).status).toBe(5);
  });

  it('reject: back to registered with the reason shown; a new request may follow', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await wonPaidEntry(app, runner, clock.now());
    const before = await taken();
    expect((await ask(runner, entry.entryNo)).json().code).toBe(0);
    const usage = await cli('refund-reject', '--race', DEMO_RACE_ID, '--entry', entry.entryNo);
    expect(usage.code).toBe(2);
    const rejected = await cli(
      'refund-reject',
      '--race',
      DEMO_RACE_ID,
      '--entry',
      entry.entryNo,
      '--reason',
      '已过退款期限',
    );
    expect(rejected.code, rejected.err).toBe(0);
    expect(
      (await cli('refund-reject', '--race', DEMO_RACE_ID, '--entry', entry.entryNo, '--reason', 'x')).out,
    ).toContain('already rejected');
    expect((await entryOf(entry)).status).toBe(1);
    expect(await steps(entry)).toEqual(['submitted', 'paid', 'refundRequested', 'refundRejected']);
    expect(await taken()).toBe(before);
    const answer = await termsOf(runner);
    const requests: RefundRequestView[] = answer.entries[0]!.requests;
    expect(requests).toMatchObject([{ status: 'rejected', rejectReason: '已过退款期限' }]);
    expect(await app.repos.payments.refundsOf((await orderOf(entry)).id)).toEqual([]);
    expect((await ask(runner, entry.entryNo)).json().code).toBe(0);
  });
});

describe('deferral', () => {
  const FORM = {
    version: 1,
    raceId: NEXT_RACE_ID,
    channel: 'public',
    title: { zh: '报名信息', en: 'Entry form' },
    fields: [
      {
        key: 'item',
        type: 'radio',
        label: { zh: '项目', en: 'Item' },
        required: true,
        options: [{ value: '10K', label: { zh: '10公里', en: '10 km' } }],
      },
      { key: 'name', type: 'input', label: { zh: '姓名', en: 'Name' }, required: true },
      { key: 'gender', type: 'gender', label: { zh: '性别', en: 'Gender' }, required: true },
      { key: 'certificateType', type: 'certificateType', label: { zh: '证件类型', en: 'Type' }, required: true },
      {
        key: 'certificateNumber',
        type: 'certificateNumber',
        typeField: 'certificateType',
        label: { zh: '证件号码', en: 'Number' },
        required: true,
      },
      { key: 'birthday', type: 'date', label: { zh: '出生日期', en: 'Birthday' }, required: true },
      { key: 'phone', type: 'phone', label: { zh: '手机', en: 'Phone' }, required: true },
    ],
  };

  beforeAll(async () => {
    await saveDemoRace(
      app,
      clock.now(),
      withRefunds({
        allowed: true,
        until: '2027-03-01 18:00:00',
        sharePercent: 80,
        deferral: { allowed: true, until: '2027-03-01 18:00:00' },
      }),
    );
    const next: RaceInfo = { ...demoRace(), raceId: NEXT_RACE_ID, raceName: '2028 青川运河马拉松' };
    await app.repos.races.save(next, clock.now());
    expect(await app.repos.entries.syncPlaces(NEXT_RACE_ID, next.entry)).toEqual({ ok: true });
    await publishRegistrationForm({
      repos: app.repos,
      raceId: NEXT_RACE_ID,
      channel: 'public',
      bytes: Buffer.from(JSON.stringify(FORM)),
      now: clock.now(),
    });
  });

  const submitNext = async (who: TestRunner, code: string, person: TestEntry) =>
    app.inject({
      method: 'POST',
      url: API_PATHS.entrySubmit,
      headers: { token: who.token },
      payload: {
        raceId: NEXT_RACE_ID,
        itemCode: '10K',
        channel: 'code',
        code,
        idempotencyKey: `deferral-${person.entryNo}-${code}`,
        captcha: await passedSlider(app),
        participants: [
          {
            item: '10K',
            name: person.name,
            gender: 1,
            certificateType: 1,
            certificateNumber: person.certNumber,
            birthday: person.birthday,
            phone: person.phone,
          },
        ],
      },
    });

  it('refuses charity and code places, and a second deferral', async () => {
    const runner = await newRunner(app, clock.now());
    const byCode = await wonPaidEntry(app, runner, clock.now());
    await app.repos.db.run(sql`UPDATE entries SET channel = 'code' WHERE id = ${byCode.entryId}`);
    expect((await ask(runner, byCode.entryNo, 'deferral')).json()).toMatchObject({ msgCode: 'deferralNotEligible' });
    const used = await wonPaidEntry(app, runner, clock.now());
    await app.repos.refunds.insertDeferral({
      raceId: DEMO_RACE_ID,
      entryId: used.entryId,
      certHash: 'x',
      itemCode: '10K',
      now: clock.now(),
    });
    expect((await ask(runner, used.entryNo, 'deferral')).json()).toMatchObject({ msgCode: 'deferralUsed' });
  });

  it('request → approve → deferred; deferrals-issue gives a named code once, usable by that person only', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await wonPaidEntry(app, runner, clock.now(), { name: '延期人' });
    const before = await taken();
    const res = await ask(runner, entry.entryNo, 'deferral', '受伤无法参赛');
    expect(res.json()).toMatchObject({ code: 0, data: { kind: 'deferral', status: 'review', amountFen: 0 } });
    expect((await entryOf(entry)).status).toBe(1);
    expect(await steps(entry)).toEqual(['submitted', 'paid', 'deferralRequested']);

    const approved = await cli('refund-approve', '--race', DEMO_RACE_ID, '--entry', entry.entryNo);
    expect(approved.code, approved.err).toBe(0);
    expect((await entryOf(entry)).status).toBe(3);
    expect(await steps(entry)).toEqual(['submitted', 'paid', 'deferralRequested', 'deferred']);
    expect(await taken()).toBe(before - 1);
    expect(await app.repos.payments.refundsOf((await orderOf(entry)).id)).toEqual([]);

    const issued = await cli('deferrals-issue', '--from', DEMO_RACE_ID, '--to', NEXT_RACE_ID);
    expect(issued.code, issued.err).toBe(0);
    const code = new RegExp(`${entry.entryNo}.*10K\\s+(\\w+)`).exec(issued.out)?.[1];
    expect(code, issued.out).toBeDefined();
    const again = await cli('deferrals-issue', '--from', DEMO_RACE_ID, '--to', NEXT_RACE_ID);
    expect(again.out).toContain('Issued 0 deferral codes');
    const record = (await app.repos.entries.findCode(NEXT_RACE_ID, code!))!;
    expect(record).toMatchObject({ kind: 'named', maxUses: 1, used: 0, namedName: '延期人', itemCode: '10K' });
    // Without --expires the code expires when the next race's sign-up ends.
    const signUpEnd = demoRace().signUpEndTime!;
    expect(record.expiresAt).toBe(parseRaceTime(signUpEnd, raceTimeZone(demoRace())));
    expect(issued.out).toContain(`expire ${signUpEnd}`);
    expect(await app.repos.refunds.deferralOf(entry.entryId)).toMatchObject({
      toRaceId: NEXT_RACE_ID,
      codeId: record.id,
    });
    const outbox = await app.repos.outbox.latest(5);
    expect(outbox.some((m) => m.destination === runner.phone && m.body.includes(code!))).toBe(true);

    // Another person cannot use it; the person can, once.
    const stranger = await newRunner(app, clock.now());
    const strangerEntry = await unpaidEntry(app, stranger, clock.now());
    expect((await submitNext(stranger, code!, strangerEntry)).json()).toMatchObject({ msgCode: 'entryCodeNotYours' });
    const used = await submitNext(runner, code!, entry);
    expect(used.json().code, used.body).toBe(0);
    expect((await app.repos.entries.findCode(NEXT_RACE_ID, code!))!.used).toBe(1);
    // Single use: no use is left for anyone.
    expect(await app.repos.entries.useCode(record.id, 1, clock.now())).toBe(false);
  });

  it('deferrals-issue --expires: refuses a past or garbled time; the code expires then and is refused after', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await wonPaidEntry(app, runner, clock.now(), { name: '过期人' });
    expect((await ask(runner, entry.entryNo, 'deferral', '受伤无法参赛')).json().code).toBe(0);
    expect((await cli('refund-approve', '--race', DEMO_RACE_ID, '--entry', entry.entryNo)).code).toBe(0);

    const issue = (expires: string) =>
      cli('deferrals-issue', '--from', DEMO_RACE_ID, '--to', NEXT_RACE_ID, '--expires', expires);
    const past = await issue('2026-11-30 12:00:00');
    expect(past.code).toBe(1);
    expect(past.err).toContain('already past');
    const garbled = await issue('next week');
    expect(garbled.code).toBe(1);
    expect(garbled.err).toContain('is not a time YYYY-MM-DD HH:mm:ss');
    expect((await app.repos.refunds.deferralOf(entry.entryId))!.codeId).toBeNull();

    // In an hour (a login lasts longer than the two hours the clock moves on below).
    const zone = raceTimeZone(demoRace());
    const inAnHour = formatRaceTime(clock.now() + 3600_000, 'YYYY-MM-DD HH:mm:ss', zone);
    const issued = await issue(inAnHour);
    expect(issued.code, issued.err).toBe(0);
    expect(issued.out).toContain(`expire ${inAnHour}`);
    const code = new RegExp(`${entry.entryNo}.*10K\\s+(\\w+)`).exec(issued.out)?.[1];
    expect(code, issued.out).toBeDefined();
    const record = (await app.repos.entries.findCode(NEXT_RACE_ID, code!))!;
    expect(record.expiresAt).toBe(parseRaceTime(inAnHour, zone));

    const twoHours = 2 * 3600_000;
    clock.advance(twoHours);
    try {
      expect((await submitNext(runner, code!, entry)).json()).toMatchObject({
        code: 400,
        msgCode: 'redemptionCodeMissing',
      });
      expect((await app.repos.entries.findCode(NEXT_RACE_ID, code!))!.used).toBe(0);
    } finally {
      clock.advance(-twoHours);
    }
  });
});
