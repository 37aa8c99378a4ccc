/**
 * The console's refunds and deferrals and an entry's payments at the provider (issue 32; routes/admin/refunds.ts,
 * services/console/refunds.ts): who may, the queue with the race's rules, two staff approving one request at
 * once giving one refund at the provider, a rejection's reason on the runner's own refund page, a refund the
 * provider refused shown owed and retried (two retries at once asking once), a payment the provider took
 * without its notification queried and recorded once as that notification would, and each change in the audit
 * log under the CLI's action names. A provider in front of the sandbox (fakes/provider-wrapper.ts) counts and
 * refuses refunds and answers queries. Both engines.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RefundAnswer } from '#contract/after-entry';
import { API_PATHS } from '#contract/api';
import type {
  ConsoleDeferralsIssued,
  ConsoleOwedRefund,
  ConsolePaymentQuery,
  ConsoleRefundQueue,
} from '#contract/console-refunds';
import { STAFF_ROLES, type StaffRole } from '#contract/staff';
import { ADMIN_PREFIX, CSRF_HEADER } from '../src/routes/admin/index.ts';
import {
  afterEntryClock,
  DEMO_RACE_ID,
  demoRace,
  newRunner,
  saveDemoRace,
  unpaidEntry,
  wonPaidEntry,
  type TestEntry,
  type TestRunner,
} from './after-entry-helpers.ts';
import { providerWrapper } from './fakes/provider-wrapper.ts';
import { buildTestApp, removeTempDirs, siteCli, tempDir } from './helpers.ts';
import { memberSession } from './console-helpers.ts';

const clock = afterEntryClock();
const dataDir = tempDir();
const provider = providerWrapper();
let app: FastifyInstance;
const sessions = new Map<string, { cookie: string; csrf: string; id: number }>();

const member = (email: string, role: StaffRole, races: string[] | null = null) =>
  memberSession(app, { email, role, races, now: clock.now });

/** A console call of the demo race as `who` (a role, or another member's key). */
const call = (who: string, method: 'GET' | 'POST', url: string, payload?: object) => {
  const session = sessions.get(who)!;
  return app.inject({
    method,
    url: `${ADMIN_PREFIX}/races/${DEMO_RACE_ID}${url}`,
    headers: { cookie: session.cookie, [CSRF_HEADER]: session.csrf },
    ...(payload ? { payload } : {}),
  });
};
const data = async <T>(who: string, method: 'GET' | 'POST', url: string, payload?: object) => {
  const res = await call(who, method, url, payload);
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as T;
};

const ask = (who: TestRunner, entryNo: string, kind: 'refund' | 'deferral' = 'refund') =>
  app.inject({
    method: 'POST',
    url: API_PATHS.refundRequest,
    headers: { token: who.token },
    payload: { raceId: DEMO_RACE_ID, entryNo, kind, reason: '临时出差，无法参赛' },
  });
const requested = async () => {
  const runner = await newRunner(app, clock.now());
  const entry = await wonPaidEntry(app, runner, clock.now());
  expect((await ask(runner, entry.entryNo)).json().code).toBe(0);
  return { runner, entry };
};
const runnerView = async (who: TestRunner) => {
  const res = await app.inject({
    method: 'GET',
    url: `${API_PATHS.refundGet}?raceId=${DEMO_RACE_ID}`,
    headers: { token: who.token },
  });
  return res.json().data as RefundAnswer;
};
const orderOf = async (e: TestEntry) => (await app.repos.orders.findByNo(e.orderNo))!;
const statusOf = async (e: TestEntry) => (await app.repos.entries.findById(e.entryId))!.status;
const audits = (action: string) => app.repos.audit.find({ action, limit: 50 });

beforeAll(async () => {
  app = await buildTestApp({
    dataDir,
    env: { RATE_LIMITS: 'off', JOBS: 'off' },
    now: clock.now,
    paymentProviders: provider.factories,
  });
  await saveDemoRace(app, clock.now());
  for (const role of STAFF_ROLES) sessions.set(role, await member(`${role}@example.org`, role));
  sessions.set('finance2', await member('finance2@example.org', 'finance'));
  sessions.set('elsewhere', await member('elsewhere@example.org', 'finance', ['fixture-race-2025']));
});

beforeEach(() => {
  provider.refuseRefunds = null;
  provider.throwOnRefund = null;
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

describe('who may', () => {
  it.each([...STAFF_ROLES, 'elsewhere'])('every call of the page: %s', async (who) => {
    const { entry } = await requested();
    const order = await orderOf(entry);
    const [payment] = await app.repos.payments.ofOrder(order.id);
    const calls: ['GET' | 'POST', string, object?][] = [
      ['GET', '/refunds'],
      ['GET', '/refunds-owed'],
      ['POST', `/refunds/${entry.entryNo}/reject`, { reason: ' ' }],
      ['POST', '/refunds-owed/R000/retry'],
      ['POST', '/deferrals/issue', { toRaceId: 'no-such-race' }],
      ['GET', `/entries/${entry.entryNo}/payments/${payment!.paymentId}/query`],
      ['POST', `/entries/${entry.entryNo}/payments/NOPAYMENT/record`],
    ];
    for (const [method, url, payload] of calls) {
      const res = await call(who, method, url, payload);
      expect(res.headers['cache-control']).toBe('no-store');
      if (who === 'elsewhere') expect(res.json(), url).toMatchObject({ code: 403, msgCode: 'staffRaceForbidden' });
      else if (who !== 'owner' && who !== 'finance') {
        expect(res.json(), url).toMatchObject({ code: 403, msgCode: 'staffForbidden' });
      } else expect(String(res.json().msgCode ?? ''), url).not.toMatch(/^staff(Forbidden|RaceForbidden)$/);
    }
    // Refused means nothing changed: the request is still under review.
    expect(await statusOf(entry)).toBe(4);
  });
});

describe('the queue', () => {
  it('lists the requests with the race’s rules and the share each gets back, names masked', async () => {
    const { entry } = await requested();
    const queue = await data<ConsoleRefundQueue>('finance', 'GET', '/refunds?status=review');
    expect(queue.rules.refunds).toMatchObject({ allowed: true, state: 'open' });
    const share = queue.rules.refunds.sharePercent;
    const mine = queue.requests.find((r) => r.entryNo === entry.entryNo)!;
    expect(mine).toMatchObject({
      kind: 'refund',
      status: 'review',
      paidFen: entry.feeFen,
      amountFen: Math.floor((entry.feeFen * share) / 100),
      reason: '临时出差，无法参赛',
      refund: null,
    });
    expect(mine.nameMasked).not.toBe(entry.name);
    expect(queue.requests.every((r) => r.status === 'review')).toBe(true);
    expect(queue.counts.review).toBeGreaterThanOrEqual(1);
    const bad = await call('finance', 'GET', '/refunds?status=maybe');
    expect(bad.json()).toMatchObject({ code: 400, msgCode: 'staffBadQuery', msgParams: { field: 'status' } });
  });
});

describe('approve', () => {
  it('two staff approving at once give one refund at the provider, the entry refunded, one audit record', async () => {
    const { runner, entry } = await requested();
    const before = provider.refunds.length;
    const [a, b] = await Promise.all([
      call('owner', 'POST', `/refunds/${entry.entryNo}/approve`),
      call('finance2', 'POST', `/refunds/${entry.entryNo}/approve`),
    ]);
    const answers = [a.json(), b.json()];
    for (const answer of answers) expect(answer.code, JSON.stringify(answer)).toBe(0);
    expect(answers.filter((x) => x.data.fresh)).toHaveLength(1);
    const asked = provider.refunds.slice(before);
    expect(asked).toHaveLength(1);
    const order = await orderOf(entry);
    expect(await app.repos.payments.refundsOf(order.id)).toHaveLength(1);
    expect(order.refundedFen).toBe(asked[0]!.amountFen);
    expect(await statusOf(entry)).toBe(5);
    // A third click later changes nothing and asks nothing.
    expect((await data<{ fresh: boolean }>('finance', 'POST', `/refunds/${entry.entryNo}/approve`)).fresh).toBe(false);
    expect(provider.refunds.length - before).toBe(1);
    const records = (await audits('refund.approve')).filter((r) => r.target === entry.entryNo);
    expect(records).toHaveLength(1);
    expect(records[0]!.staffId).not.toBeNull();
    const view = await runnerView(runner);
    expect(view.entries.find((e) => e.entryNo === entry.entryNo)).toMatchObject({
      status: 5,
      requests: [{ status: 'approved' }],
    });
    const queue = await data<ConsoleRefundQueue>('finance', 'GET', '/refunds?status=approved');
    expect(queue.requests.find((r) => r.entryNo === entry.entryNo)?.refund).toMatchObject({ status: 'done' });
  });

  it('refuses an entry without a request under review, and an unknown entry', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await wonPaidEntry(app, runner, clock.now());
    const none = await call('finance', 'POST', `/refunds/${entry.entryNo}/approve`);
    expect(none.json()).toMatchObject({ code: 400, msgCode: 'refundNoRequest' });
    const unknown = await call('finance', 'POST', '/refunds/E99999999/approve');
    expect(unknown.json()).toMatchObject({ code: 404, msgCode: 'entryNotFound' });
    expect(await statusOf(entry)).toBe(1);
  });
});

describe('reject', () => {
  it('needs a reason; the reason reaches the runner’s refund page, the entry registered again', async () => {
    const { runner, entry } = await requested();
    for (const reason of ['', '   ', 'x'.repeat(201)]) {
      const res = await call('finance', 'POST', `/refunds/${entry.entryNo}/reject`, { reason });
      expect(res.json()).toMatchObject({ code: 400, msgCode: 'refundRejectReason', msgParams: { max: 200 } });
    }
    expect(await statusOf(entry)).toBe(4);
    const reason = '比赛临近，按规程不再受理退款 / Too close to race day';
    expect(
      (await data<{ fresh: boolean }>('finance', 'POST', `/refunds/${entry.entryNo}/reject`, { reason })).fresh,
    ).toBe(true);
    expect(await statusOf(entry)).toBe(1);
    const view = await runnerView(runner);
    expect(view.entries.find((e) => e.entryNo === entry.entryNo)?.requests[0]).toMatchObject({
      status: 'rejected',
      rejectReason: reason,
    });
    const [record] = (await audits('refund.reject')).filter((r) => r.target === entry.entryNo);
    expect(JSON.parse(record!.after!)).toMatchObject({ status: 'rejected', reason });
    expect(provider.refunds.some((r) => r.paymentId === undefined)).toBe(false);
  });

  it('the CLI records its decision under the same action name', async () => {
    const { entry } = await requested();
    const cli = siteCli(dataDir, clock.now);
    const res = await cli('refund-reject', '--race', DEMO_RACE_ID, '--entry', entry.entryNo, '--reason', '名额已满');
    expect(res.code, res.err).toBe(0);
    const records = (await audits('refund.reject')).filter((r) => r.target === entry.entryNo);
    expect(records).toHaveLength(1);
    expect(records[0]!.actor).toMatch(/^cli:/);
    expect((await app.repos.audit.find({ action: 'cli.refund-reject', limit: 5 })).length).toBe(0);
  });
});

describe('refunds owed', () => {
  it('shows a refund the provider refused as failing and retries it; two retries at once ask once', async () => {
    const { entry } = await requested();
    provider.refuseRefunds = 'ACCOUNT_BALANCE_NOT_ENOUGH';
    const approved = await data<{ refundedFen: number; pending: number }>(
      'finance',
      'POST',
      `/refunds/${entry.entryNo}/approve`,
    );
    expect(approved).toMatchObject({ refundedFen: 0, pending: 1 });
    expect(await statusOf(entry)).toBe(4);
    const owed = await data<ConsoleOwedRefund[]>('finance', 'GET', '/refunds-owed');
    const mine = owed.find((r) => r.entryNo === entry.entryNo)!;
    expect(mine).toMatchObject({ cause: 'request', state: 'failing', attempts: 1 });
    expect(mine.lastError).toContain('ACCOUNT_BALANCE_NOT_ENOUGH');
    expect(mine.nextAt).toBeGreaterThan(clock.now());

    // Still refused: counted again, still owed.
    const again = await data<{ result: string; attempts: number }>(
      'finance',
      'POST',
      `/refunds-owed/${mine.refundNo}/retry`,
    );
    expect(again).toMatchObject({ result: 'pending', attempts: 2 });

    provider.refuseRefunds = null;
    const before = provider.refunds.length;
    const [a, b] = await Promise.all([
      call('owner', 'POST', `/refunds-owed/${mine.refundNo}/retry`),
      call('finance2', 'POST', `/refunds-owed/${mine.refundNo}/retry`),
    ]);
    const results = [a.json(), b.json()];
    expect(results.filter((r) => r.code === 0 && r.data.result === 'done')).toHaveLength(1);
    expect(provider.refunds.length - before).toBe(1);
    expect(await statusOf(entry)).toBe(5);
    expect(
      (await data<ConsoleOwedRefund[]>('finance', 'GET', '/refunds-owed')).some((r) => r.refundNo === mine.refundNo),
    ).toBe(false);
    const settled = await call('finance', 'POST', `/refunds-owed/${mine.refundNo}/retry`);
    expect(settled.json()).toMatchObject({ code: 400, msgCode: 'refundNotOwed' });
    const records = (await audits('refund.retry')).filter((r) => r.target === mine.refundNo);
    expect(records.length).toBeGreaterThanOrEqual(2);
    expect(records.some((r) => JSON.parse(r.after!).result === 'done')).toBe(true);
  });

  it('a refund of another race or none at all is not found', async () => {
    const res = await call('finance', 'POST', '/refunds-owed/RNOSUCH/retry');
    expect(res.json()).toMatchObject({ code: 404, msgCode: 'refundMissing', msgParams: { refundNo: 'RNOSUCH' } });
  });
});

describe('an entry’s payment at the provider', () => {
  it('shows the provider’s state beside ours and records a "paid" whose notification never came, once', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await unpaidEntry(app, runner, clock.now());
    const paid = await app.inject({
      method: 'POST',
      url: API_PATHS.orderPay,
      payload: { orderNo: entry.orderNo },
      headers: { token: runner.token },
    });
    const { paymentId } = paid.json().data as { paymentId: string };
    const url = `/entries/${entry.entryNo}/payments/${paymentId}`;

    // The runner has not paid: nothing to record.
    const open = await data<ConsolePaymentQuery>('finance', 'GET', `${url}/query`);
    expect(open).toMatchObject({ paymentId, provider: 'sandbox', ours: { status: 'created' }, canRecord: false });
    expect((await call('finance', 'POST', `${url}/record`)).json()).toMatchObject({
      code: 400,
      msgCode: 'paymentNotPaidThere',
    });

    // The bank took the money; its notification was lost.
    provider.states.set(paymentId, {
      status: 'paid',
      tradeNo: 'SBTLOST0001',
      amountFen: entry.feeFen,
      paidAt: clock.now(),
    });
    const asked = await data<ConsolePaymentQuery>('finance', 'GET', `${url}/query`);
    expect(asked).toMatchObject({
      ours: { status: 'created', amountFen: entry.feeFen },
      theirs: { status: 'paid', tradeNo: 'SBTLOST0001', amountFen: entry.feeFen },
      canRecord: true,
    });
    const [first, second] = await Promise.all([
      call('owner', 'POST', `${url}/record`),
      call('finance', 'POST', `${url}/record`),
    ]);
    const answers = [first.json(), second.json()];
    for (const answer of answers) expect(answer.code, JSON.stringify(answer)).toBe(0);
    expect(answers.filter((x) => x.data.fresh)).toHaveLength(1);
    expect(answers.find((x) => x.data.fresh).data.outcome).toBe('paid');
    expect(await orderOf(entry)).toMatchObject({ status: 3, paidFen: entry.feeFen });
    expect(await statusOf(entry)).toBe(1);
    expect(await app.repos.payments.findByPaymentId(paymentId)).toMatchObject({
      status: 'paid',
      tradeNo: 'SBTLOST0001',
    });
    expect((await audits('payment.record')).filter((r) => r.target === entry.entryNo)).toHaveLength(1);
    expect((await data<ConsolePaymentQuery>('finance', 'GET', `${url}/query`)).canRecord).toBe(false);
    // The runner is told once, as a notification tells them.
    const told = (await app.repos.outbox.latest(50)).filter((m) => m.body.includes(entry.orderNo));
    expect(told.length).toBeLessThanOrEqual(1);
  });

  it('refuses a provider amount that differs, and a payment of another entry', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await unpaidEntry(app, runner, clock.now());
    const other = await wonPaidEntry(app, await newRunner(app, clock.now()), clock.now());
    const paid = await app.inject({
      method: 'POST',
      url: API_PATHS.orderPay,
      payload: { orderNo: entry.orderNo },
      headers: { token: runner.token },
    });
    const { paymentId } = paid.json().data as { paymentId: string };
    provider.states.set(paymentId, {
      status: 'paid',
      tradeNo: 'SBTODD',
      amountFen: entry.feeFen + 1,
      paidAt: clock.now(),
    });
    const odd = await call('finance', 'POST', `/entries/${entry.entryNo}/payments/${paymentId}/record`);
    expect(odd.json()).toMatchObject({ code: 400, msgCode: 'paymentAmountDiffers' });
    expect((await orderOf(entry)).status).toBe(1);
    const wrong = await call('finance', 'GET', `/entries/${other.entryNo}/payments/${paymentId}/query`);
    expect(wrong.json()).toMatchObject({ code: 404, msgCode: 'paymentMissing' });
  });
});

describe('leftovers of the entry page', () => {
  it('refunds an order paid offline from the console: recorded as given back by hand, the entry refunded', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await unpaidEntry(app, runner, clock.now());
    const paidOffline = await call('finance', 'POST', `/entries/${entry.entryNo}/offline-payment`, {
      amountFen: entry.feeFen,
      method: 'cash',
      reference: 'R-OFF-1',
      reason: '现场现金缴费',
    });
    expect(paidOffline.json().code, paidOffline.body).toBe(0);
    const before = provider.refunds.length;
    const res = await call('finance', 'POST', `/entries/${entry.entryNo}/refund`, { reason: '现金退回' });
    expect(res.json(), res.body).toMatchObject({
      code: 0,
      data: { amountFen: entry.feeFen, whole: true, offline: true, refundedFen: entry.feeFen, pending: 0 },
    });
    expect(provider.refunds.length).toBe(before);
    const order = await orderOf(entry);
    expect(order.refundedFen).toBe(entry.feeFen);
    expect(await app.repos.payments.refundsOf(order.id)).toMatchObject([{ status: 'done', reason: 'organiser' }]);
    expect(await statusOf(entry)).toBe(5);
    expect(
      (await data<ConsoleOwedRefund[]>('finance', 'GET', '/refunds-owed')).some((r) => r.orderNo === entry.orderNo),
    ).toBe(false);
    const [record] = (await audits('entry.refund')).filter((r) => r.target === entry.entryNo);
    expect(JSON.parse(record!.after!)).toMatchObject({ offline: true });
  });

  it('cancelling a paid entry offers its refund: recorded with the cancellation, through the provider, once', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await wonPaidEntry(app, runner, clock.now());
    const url = `/entries/${entry.entryNo}/cancel`;
    // Service may cancel but not move money.
    const refused = await call('service', 'POST', url, { reason: '重复报名', refund: true });
    expect(refused.json()).toMatchObject({ code: 403, msgCode: 'staffForbidden' });
    expect(await statusOf(entry)).toBe(1);
    const before = provider.refunds.length;
    const res = await call('owner', 'POST', url, { reason: '重复报名', refund: true });
    expect(res.json(), res.body).toMatchObject({
      code: 0,
      data: { placeGiven: true, refund: { amountFen: entry.feeFen, refundedFen: entry.feeFen, pending: 0 } },
    });
    expect(provider.refunds.length - before).toBe(1);
    const order = await orderOf(entry);
    expect(order.refundedFen).toBe(entry.feeFen);
    expect(await app.repos.payments.refundsOf(order.id)).toMatchObject([{ status: 'done', reason: 'organiser' }]);
    const steps = ((await app.repos.entries.events([entry.entryId])).get(entry.entryId) ?? []).map((e) => e.step);
    expect(steps).toEqual(expect.arrayContaining(['cancelled', 'organiserRefund', 'refunded']));
    const [record] = (await audits('entry.cancel')).filter((r) => r.target === entry.entryNo);
    expect(JSON.parse(record!.after!)).toMatchObject({ refundFen: entry.feeFen });
    // The order is refunded whole: nothing is left to refund a second time.
    const again = await call('owner', 'POST', `/entries/${entry.entryNo}/refund`, { reason: '再退' });
    expect(again.json()).toMatchObject({ code: 400, msgCode: 'entryNoPaidOrder' });
    expect(provider.refunds.length - before).toBe(1);
  });

  it('cancelling without the refund keeps the money, as before', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await wonPaidEntry(app, runner, clock.now());
    const res = await call('service', 'POST', `/entries/${entry.entryNo}/cancel`, { reason: '本人要求' });
    expect(res.json(), res.body).toMatchObject({ code: 0, data: { paidFen: entry.feeFen, refund: null } });
    expect(await app.repos.payments.refundsOf((await orderOf(entry)).id)).toEqual([]);
  });

  it('the CLI cancels with the refund too (entry-cancel --refund yes)', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await wonPaidEntry(app, runner, clock.now());
    const cli = siteCli(dataDir, clock.now);
    const bad = await cli(
      'entry-cancel',
      '--race',
      DEMO_RACE_ID,
      '--entry',
      entry.entryNo,
      '--reason',
      'x',
      '--refund',
      'maybe',
    );
    expect(bad.code).toBe(2);
    const res = await cli(
      'entry-cancel',
      '--race',
      DEMO_RACE_ID,
      '--entry',
      entry.entryNo,
      '--reason',
      '重复报名',
      '--refund',
      'yes',
    );
    expect(res.code, res.err).toBe(0);
    expect(res.out).toContain('Refunded 80.00 yuan');
    const order = await orderOf(entry);
    expect(await app.repos.payments.refundsOf(order.id)).toMatchObject([{ status: 'done', reason: 'organiser' }]);
    expect(order.refundedFen).toBe(entry.feeFen);
  });
});

describe('deferrals', () => {
  const NEXT = 'qc-marathon-2028';
  beforeAll(async () => {
    const race = await saveDemoRace(app, clock.now(), {
      entry: {
        ...demoRace().entry!,
        refunds: {
          allowed: true,
          until: '2027-03-01 18:00:00',
          sharePercent: 80,
          deferral: { allowed: true, until: '2027-03-01 18:00:00' },
        },
      },
    });
    const next = { ...race, raceId: NEXT, raceName: '2028 青川运河马拉松' };
    await app.repos.races.save(next, clock.now());
    expect(await app.repos.entries.syncPlaces(NEXT, next.entry)).toEqual({ ok: true });
  });

  it('approves a deferral and issues the next race’s code once, refusals with their own message', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await wonPaidEntry(app, runner, clock.now());
    expect((await ask(runner, entry.entryNo, 'deferral')).json().code).toBe(0);
    const approved = await data<{ kind: string; fresh: boolean }>(
      'finance',
      'POST',
      `/refunds/${entry.entryNo}/approve`,
    );
    expect(approved).toMatchObject({ kind: 'deferral', fresh: true });
    expect(await statusOf(entry)).toBe(3);
    expect((await data<ConsoleRefundQueue>('finance', 'GET', '/refunds')).deferralsToIssue).toBe(1);

    const url = '/deferrals/issue';
    expect((await call('service', 'POST', url, { toRaceId: NEXT })).json()).toMatchObject({
      msgCode: 'staffForbidden',
    });
    expect((await call('finance', 'POST', url, { toRaceId: DEMO_RACE_ID })).json()).toMatchObject({
      code: 400,
      msgCode: 'deferralSameRace',
    });
    expect((await call('finance', 'POST', url, { toRaceId: NEXT, expires: 'next spring' })).json()).toMatchObject({
      code: 400,
      msgCode: 'deferralExpiryInvalid',
      msgParams: { text: 'next spring' },
    });
    expect(
      (await call('finance', 'POST', url, { toRaceId: NEXT, expires: '2020-01-01 00:00:00' })).json(),
    ).toMatchObject({
      msgCode: 'deferralExpiryPast',
    });
    const issued = await data<ConsoleDeferralsIssued>('finance', 'POST', url, { toRaceId: NEXT });
    expect(issued.issued).toHaveLength(1);
    expect(issued.issued[0]).toMatchObject({ entryNo: entry.entryNo, itemCode: '10K' });
    const code = await app.repos.entries.findCode(NEXT, issued.issued[0]!.code);
    expect(code).toMatchObject({ kind: 'named', maxUses: 1, namedName: entry.name });
    expect((await data<ConsoleDeferralsIssued>('finance', 'POST', url, { toRaceId: NEXT })).issued).toEqual([]);
    expect((await data<ConsoleRefundQueue>('finance', 'GET', '/refunds')).deferralsToIssue).toBe(0);
    const records = (await audits('deferrals.issue')).filter((r) => r.target === entry.entryNo);
    expect(records).toHaveLength(1);
    expect(JSON.parse(records[0]!.after!)).toMatchObject({ toRaceId: NEXT });
    expect(records[0]!.after).not.toContain(issued.issued[0]!.code);
  });
});
