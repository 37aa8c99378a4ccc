/**
 * Reconciliation (issue 31 §3): a provider's bill of a day against our payments and refunds of that provider.
 * The sandbox's own bill (its fetchBill from our books, its CSV file) makes the whole flow run; a bill file with
 * a planted difference of each kind finds each; handled differences keep their notes across re-runs; a bad file
 * is refused with its line and writes nothing; a payment counted across midnight is not a difference; the daily
 * job fetches yesterday's bill after 10:00 China time, retried while it is not out; the console's calls (finance
 * only, audited) and the CLI. A second fake provider ("billpay", a bill of its own that is late once) is given to
 * buildApp through the interface. Runs on both engines.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import type { EntrySettings, OrderPayAnswer } from '#contract/entry';
import type { ReconcileAnswer, ReconciliationAnswer } from '#contract/reconciliation';
import type { StaffRole } from '#contract/staff';
import { poolOf } from '../src/db/entries-repository.ts';
import { chinaDayRange } from '../src/lib/payment/bill-day.ts';
import { BillNotReadyError, type BillLine, type PaymentProviderFactory } from '../src/lib/payment/provider.ts';
import { createSandboxProvider, sandboxBillCsv, sandboxNotification } from '../src/lib/payment/sandbox.ts';
import { ADMIN_PREFIX } from '../src/routes/admin/index.ts';
import { RECONCILE_CHECK_EVERY_MS, reconcileRetryMs } from '../src/routes/entry/payment.ts';
import { refundEntries } from '../src/services/entry/order-transitions.ts';
import {
  handleDifference,
  ledgerOf,
  reconcileFetched,
  reconcileFile,
  type ReconciliationDeps,
} from '../src/services/entry/reconciliation.ts';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, removeTempDirs, siteCli, tempDir } from './helpers.ts';
import { memberSession, sessionHeaders } from './console-helpers.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;
/** 2025-06-16 10:00 China time. */
const T0 = Date.UTC(2025, 5, 16, 2, 0, 0);
const DAY = '2025-06-16';
const FEE = 12_800;
const ENTRY: EntrySettings = {
  allowMultiple: true,
  items: [{ code: 'FC', name: { zh: '全程', en: 'Marathon' }, capacity: 80, feeFen: FEE, model: 'firstCome' }],
};

/** A provider with a bill of its own (empty), late the first time it is asked for each day. */
const billpayAsked: string[] = [];
const billpay: PaymentProviderFactory = (context) => ({
  ...createSandboxProvider(context),
  name: 'billpay',
  parseBill: undefined,
  async fetchBill(day: string): Promise<BillLine[]> {
    billpayAsked.push(day);
    if (billpayAsked.filter((d) => d === day).length === 1) throw new BillNotReadyError(`no bill of ${day} yet`);
    return [];
  },
});

const clock = fakeClock(T0);
const setClock = (at: number) => clock.advance(at - clock.now());
const dataDir = tempDir();
let app: FastifyInstance;
let people = 0;
let deps: ReconciliationDeps;
const cli = { kind: 'cli' } as const;

/** A runner's order awaiting payment. */
async function makeOrder() {
  people += 1;
  const userId = await app.repos.users.create({ phone: `1350000${String(people).padStart(4, '0')}` }, clock.now());
  const { token } = await app.repos.tokens.issue(userId, 30 * 24 * HOUR, clock.now());
  const made = await app.repos.transaction(async (tx) => {
    expect(await tx.entries.takePlace(FIXTURE_RACE_ID, 'FC', poolOf('public'), 1)).toBe(true);
    const entry = await tx.entries.insertEntry({
      raceId: FIXTURE_RACE_ID,
      itemCode: 'FC',
      channel: 'public',
      userId,
      status: 0,
      holdsPlace: true,
      name: `跑者${people}`,
      gender: 1,
      birthday: '1990-01-01',
      certType: 1,
      certHash: `reconcile-hash-${people}`,
      certNumber: `11010119900101${String(4000 + people)}`,
      phone: '13811112222',
      values: {},
      feeFen: FEE,
      now: clock.now(),
    });
    const order = await tx.orders.create({
      raceId: FIXTURE_RACE_ID,
      userId,
      amountFen: FEE,
      deadlineAt: clock.now() + 3 * 24 * HOUR,
      createdAt: clock.now(),
      lines: [{ entryId: entry.id, amountFen: FEE }],
    });
    return { entryId: entry.id, orderId: order.id, orderNo: order.orderNo };
  });
  const res = await app.inject({
    method: 'POST',
    url: API_PATHS.orderPay,
    payload: { orderNo: made.orderNo },
    headers: { token },
  });
  return { ...made, paymentId: (res.json().data as OrderPayAnswer).paymentId };
}

/** The sandbox's signed "paid" of a payment, delivered now. */
async function paid(paymentId: string, paidAt = clock.now()) {
  const n = sandboxNotification(app.secrets.payment, { paymentId, status: 'paid', amountFen: FEE, paidAt });
  const res = await app.inject({
    method: 'POST',
    url: `${API_PATHS.payNotifyPrefix}sandbox`,
    payload: n.rawBody,
    headers: n.headers,
  });
  expect(res.json().code).toBe(0);
}

const refund = async (made: { orderId: number; entryId: number }) =>
  refundEntries(app.repos, app.payments, {
    orderId: made.orderId,
    entryIds: [made.entryId],
    reason: 'organiser',
    now: clock.now,
  });

/** Our books of the sandbox's day as bill lines (its own bill). */
const ledger = (day: string) => {
  const range = chinaDayRange(day)!;
  return ledgerOf(app.repos, 'sandbox', range.from, range.to);
};
const file = (lines: readonly BillLine[]) => Buffer.from(sandboxBillCsv(lines));
const kinds = (answer: ReconcileAnswer) =>
  answer.differences
    .filter((d) => d.handledAt === null)
    .map((d) => `${d.kind}:${d.paymentId}`)
    .sort();

const orders: Awaited<ReturnType<typeof makeOrder>>[] = [];

beforeAll(async () => {
  app = await buildTestApp({
    dataDir,
    env: { RATE_LIMITS: 'off', JOBS: 'off', PAYMENT_PROVIDER: 'sandbox,billpay' },
    now: clock.now,
    paymentProviders: { billpay },
  });
  const race = (await app.repos.races.findById(FIXTURE_RACE_ID))!;
  await app.repos.races.save({ ...race, entry: ENTRY }, clock.now());
  await app.repos.entries.ensurePlaces(FIXTURE_RACE_ID, ENTRY);
  deps = { repos: app.repos, providers: app.payments, now: clock.now };
  // The day: five orders paid (A-E), one left unpaid (F); A and B refunded in the afternoon.
  for (let i = 0; i < 6; i += 1) orders.push(await makeOrder());
  for (const made of orders.slice(0, 5)) await paid(made.paymentId);
  clock.advance(4 * HOUR);
  expect(await refund(orders[0]!)).toEqual({ refundedFen: FEE, pending: 0 });
  expect(await refund(orders[1]!)).toEqual({ refundedFen: FEE, pending: 0 });
  // The morning after, 11:00 China time.
  setClock(T0 + 25 * HOUR);
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

describe('reconciling a day', () => {
  it("matches the sandbox's own bill (fetched), with both sides' counts", async () => {
    const outcome = await reconcileFetched(deps, { provider: 'sandbox', day: DAY, actor: cli });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.value.run).toMatchObject({
      status: 'matched',
      source: 'fetch',
      billPayments: 5,
      billPaidFen: 5 * FEE,
      billRefunds: 2,
      billRefundFen: 2 * FEE,
      ourPayments: 5,
      ourPaidFen: 5 * FEE,
      ourRefunds: 2,
      ourRefundFen: 2 * FEE,
      differences: 0,
    });
    expect(outcome.value.run.actor).toMatch(/^cli:/);
    expect(await app.repos.audit.find({ action: 'reconciliation.run', limit: 5 })).toHaveLength(1);
  });

  it('finds a planted difference of each kind', async () => {
    const [a, b, c, d, , f] = orders as [
      (typeof orders)[0],
      (typeof orders)[0],
      (typeof orders)[0],
      (typeof orders)[0],
      unknown,
      (typeof orders)[0],
    ];
    const lines = await ledger(DAY);
    const at = T0 + HOUR;
    const planted: BillLine[] = [
      // C's payment is missing from the bill; D's amount differs; A's refund is missing; B's refund differs.
      ...lines
        .filter((l) => !(l.kind === 'payment' && l.paymentId === c.paymentId))
        .filter((l) => !(l.kind === 'refund' && l.paymentId === a.paymentId))
        .map((l) => (l.kind === 'payment' && l.paymentId === d.paymentId ? { ...l, amountFen: FEE + 1 } : l))
        .map((l) => (l.kind === 'refund' && l.paymentId === b.paymentId ? { ...l, amountFen: FEE - 100 } : l)),
      // F paid there, still unpaid here; a payment and a refund we never made.
      { kind: 'payment', paymentId: f.paymentId, tradeNo: 'SBTF', refundNo: null, amountFen: FEE, at },
      { kind: 'payment', paymentId: 'PAYUNKNOWN1', tradeNo: 'SBTX', refundNo: null, amountFen: 500, at },
      { kind: 'refund', paymentId: d.paymentId, tradeNo: 'SBTD', refundNo: 'RFUNKNOWN1', amountFen: 300, at },
    ];
    const outcome = await reconcileFile(deps, { provider: 'sandbox', day: DAY, content: file(planted), actor: cli });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.value.run).toMatchObject({ status: 'differences', source: 'file', differences: 7 });
    expect(kinds(outcome.value)).toEqual(
      [
        `paymentAmount:${d.paymentId}`,
        `paymentMissingHere:${f.paymentId}`,
        'paymentMissingHere:PAYUNKNOWN1',
        `paymentMissingThere:${c.paymentId}`,
        `refundAmount:${b.paymentId}`,
        `refundMissingHere:${d.paymentId}`,
        `refundMissingThere:${a.paymentId}`,
      ].sort(),
    );
    const unpaid = outcome.value.differences.find((x) => x.paymentId === f.paymentId)!;
    expect(unpaid).toMatchObject({ oursFen: FEE, theirsFen: FEE, ourStatus: 'created', orderNo: f.orderNo });
    const amount = outcome.value.differences.find((x) => x.kind === 'paymentAmount')!;
    expect(amount).toMatchObject({ oursFen: FEE, theirsFen: FEE + 1 });
  });

  it('keeps a handled difference with its note, who and when across re-runs; replaces the open ones', async () => {
    const c = orders[2]!;
    const list = await app.repos.reconciliation.differences({ provider: 'sandbox', from: DAY, to: DAY, limit: 50 });
    const missing = list.find((x) => x.kind === 'paymentMissingThere' && x.paymentId === c.paymentId)!;
    expect((await handleDifference(deps, { id: missing.id, note: '  ', actor: cli })).ok).toBe(false);
    const handled = await handleDifference(deps, { id: missing.id, note: 'refunded by hand', actor: cli });
    expect(handled).toMatchObject({ ok: true, value: { note: 'refunded by hand', stillFound: true } });
    const again = await handleDifference(deps, { id: missing.id, note: 'twice', actor: cli });
    expect(again).toMatchObject({ ok: false, status: 409, code: 'reconcileHandledAlready' });

    // The correct bill now: every open difference goes; the handled one stays, no longer found.
    const rerun = await reconcileFile(deps, {
      provider: 'sandbox',
      day: DAY,
      content: file(await ledger(DAY)),
      actor: cli,
    });
    expect(rerun.ok && rerun.value.run).toMatchObject({ status: 'matched', differences: 0 });
    const after = await app.repos.reconciliation.differences({ provider: 'sandbox', from: DAY, to: DAY, limit: 50 });
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: missing.id, note: 'refunded by hand', stillFound: false });
    expect(after[0]!.handledBy).toMatch(/^cli:/);
    expect(after[0]!.handledAt).toBe(clock.now());
    expect(await app.repos.audit.find({ action: 'reconciliation.handle', limit: 5 })).toHaveLength(1);
  });

  it('refuses a file it cannot read with its line, a bill of another day, a day not over; writes nothing', async () => {
    const runs = (await app.repos.reconciliation.runs({ limit: 100 })).length;
    const good = sandboxBillCsv(await ledger(DAY))
      .trimEnd()
      .split('\n');
    const bad = Buffer.from(
      [...good.slice(0, 2), 'payment,PAY1,SBT1,,-5,2025-06-16T10:00:00+08:00', ...good.slice(2)].join('\n'),
    );
    const refused = await reconcileFile(deps, { provider: 'sandbox', day: DAY, content: bad, actor: cli });
    expect(refused).toMatchObject({ ok: false, code: 'reconcileBillFormat', params: { line: '3' } });
    const header = await reconcileFile(deps, {
      provider: 'sandbox',
      day: DAY,
      content: Buffer.from('a,b\n'),
      actor: cli,
    });
    expect(header).toMatchObject({ ok: false, code: 'reconcileBillFormat', params: { line: '1' } });
    const other = await reconcileFile(deps, {
      provider: 'sandbox',
      day: '2025-06-15',
      content: file(await ledger(DAY)),
      actor: cli,
    });
    expect(other).toMatchObject({ ok: false, code: 'reconcileBillOtherDay', params: { other: DAY } });
    const today = await reconcileFetched(deps, { provider: 'sandbox', day: '2025-06-17', actor: cli });
    expect(today).toMatchObject({ ok: false, code: 'reconcileDayNotOver' });
    expect((await reconcileFetched(deps, { provider: 'sandbox', day: '2025-02-30', actor: cli })).ok).toBe(false);
    expect(await reconcileFile(deps, { provider: 'billpay', day: DAY, content: bad, actor: cli })).toMatchObject({
      code: 'reconcileNoImport',
    });
    expect((await app.repos.reconciliation.runs({ limit: 100 })).length).toBe(runs);
  });

  it('does not count a payment the provider puts on the day before ours (across midnight) as a difference', async () => {
    // Paid at the provider at 23:59:58 on the 17th, its notification recorded at 00:00:05 on the 18th here.
    const late = await makeOrder();
    const providerAt = Date.UTC(2025, 5, 17, 15, 59, 58);
    setClock(Date.UTC(2025, 5, 17, 16, 0, 5));
    await paid(late.paymentId, providerAt);
    setClock(Date.UTC(2025, 5, 19, 3, 0, 0));
    const line: BillLine = {
      kind: 'payment',
      paymentId: late.paymentId,
      tradeNo: 'SBTLATE',
      refundNo: null,
      amountFen: FEE,
      at: providerAt,
    };
    const day17 = await reconcileFile(deps, {
      provider: 'sandbox',
      day: '2025-06-17',
      content: file([line]),
      actor: cli,
    });
    expect(day17.ok && day17.value.run).toMatchObject({ status: 'matched', ourPayments: 0, billPayments: 1 });
    const day18 = await reconcileFile(deps, { provider: 'sandbox', day: '2025-06-18', content: file([]), actor: cli });
    expect(day18.ok && day18.value.run).toMatchObject({ status: 'matched', ourPayments: 1, billPayments: 0 });
  });
});

describe('the daily job', () => {
  it("fetches yesterday's bill of each provider after 10:00 China time, retried with backoff while it is not out", async () => {
    // 2025-06-20 09:00 China time: too early.
    setClock(Date.UTC(2025, 5, 20, 1, 0, 0));
    await app.jobs.runDue();
    const day = '2025-06-19';
    expect(await app.repos.reconciliation.runs({ from: day, to: day, limit: 10 })).toHaveLength(0);
    clock.advance(75 * MINUTE + RECONCILE_CHECK_EVERY_MS);
    await app.jobs.runDue();
    await app.jobs.runDue();
    // The sandbox's bill is read at once; billpay's is not out the first time.
    const first = await app.repos.reconciliation.runs({ from: day, to: day, limit: 10 });
    expect(first.map((r) => [r.provider, r.actor, r.status])).toEqual([['sandbox', 'job', 'matched']]);
    expect(billpayAsked).toEqual([day]);
    clock.advance(reconcileRetryMs(1));
    await app.jobs.runDue();
    const second = await app.repos.reconciliation.runs({ provider: 'billpay', from: day, to: day, limit: 10 });
    expect(second.map((r) => [r.actor, r.status])).toEqual([['job', 'matched']]);
    // Once read, later checks of the day ask no more.
    clock.advance(RECONCILE_CHECK_EVERY_MS);
    await app.jobs.runDue();
    await app.jobs.runDue();
    expect(billpayAsked).toEqual([day, day]);
  });
});

describe('the console and the command line', () => {
  async function member(role: StaffRole, races: string[] | null = null) {
    const email = `${role}-${randomUUID().slice(0, 8)}@example.org`;
    const session = await memberSession(app, { email, role, races, now: clock.now });
    return (method: 'GET' | 'POST', url: string, payload?: object, query?: Record<string, string>) =>
      app.inject({
        method,
        url: `${ADMIN_PREFIX}/reconciliation${url}`,
        headers: sessionHeaders(session),
        ...(payload ? { payload } : {}),
        ...(query ? { query } : {}),
      });
  }

  it('lets finance list, import, run and handle (audited); refuses other roles and race-limited members', async () => {
    const finance = await member('finance');
    const listed = (await finance('GET', '', undefined, { provider: 'sandbox', from: DAY, to: DAY })).json();
    expect(listed.code).toBe(0);
    const answer = listed.data as ReconciliationAnswer;
    expect(answer.providers).toEqual([
      { name: 'sandbox', enabled: true, fetch: true, file: true },
      { name: 'billpay', enabled: true, fetch: true, file: false },
    ]);
    expect(answer.runs.length).toBeGreaterThanOrEqual(3);
    expect(answer.differences.map((d) => d.note)).toEqual(['refunded by hand']);

    const content = Buffer.from(sandboxBillCsv((await ledger(DAY)).slice(1))).toString('base64');
    const imported = (await finance('POST', '/import', { provider: 'sandbox', day: DAY, content })).json();
    expect(imported.code, JSON.stringify(imported)).toBe(0);
    const run = (imported.data as ReconcileAnswer).run;
    expect(run).toMatchObject({ status: 'differences', differences: 1, source: 'file', staffName: 'finance 员工' });
    const open = (imported.data as ReconcileAnswer).differences.find((d) => d.handledAt === null)!;
    const handled = (
      await finance('POST', `/differences/${open.id}/handle`, { note: "provider's late notification, now paid" })
    ).json();
    expect(handled).toMatchObject({ code: 0, data: { handledByName: 'finance 员工' } });
    const badFile = (
      await finance('POST', '/import', { provider: 'sandbox', day: DAY, content: Buffer.from('x').toString('base64') })
    ).json();
    expect(badFile).toMatchObject({ code: 400, msgCode: 'reconcileBillFormat' });
    const ranNow = (await finance('POST', '/run', { provider: 'sandbox', day: '2025-06-19' })).json();
    expect(ranNow).toMatchObject({ code: 0, data: { run: { status: 'matched' } } });
    const filtered = (await finance('GET', '', undefined, { state: 'handled', kind: 'paymentMissingThere' })).json();
    expect(
      (filtered.data as ReconciliationAnswer).differences.every(
        (d) => d.kind === 'paymentMissingThere' && d.handledAt !== null,
      ),
    ).toBe(true);
    expect((await finance('GET', '', undefined, { kind: 'nonsense' })).json()).toMatchObject({ code: 400 });

    const audit = await app.repos.audit.find({ limit: 200 });
    const actions = audit
      .filter((r) => r.action.startsWith('reconciliation.') && r.staffId !== null)
      .map((r) => r.action);
    expect(actions.sort()).toEqual(['reconciliation.handle', 'reconciliation.import', 'reconciliation.run']);

    const service = await member('service');
    expect((await service('GET', '')).json()).toMatchObject({ code: 403, msgCode: 'staffForbidden' });
    const limited = await member('finance', [FIXTURE_RACE_ID]);
    expect((await limited('GET', '')).json()).toMatchObject({ code: 403, msgCode: 'staffRaceForbidden' });
  });

  it('reconcile, reconciliation-list and reconciliation-handle on the command line', async () => {
    const run = siteCli(dataDir, clock.now);
    const fetched = await run('reconcile', '--provider', 'sandbox', '--day', DAY);
    expect(fetched.code, fetched.err).toBe(0);
    expect(fetched.out).toContain(`Reconciled sandbox ${DAY} (fetched bill): matched.`);
    const billFile = path.join(dataDir, 'bill.csv');
    writeFileSync(billFile, sandboxBillCsv((await ledger(DAY)).slice(2)));
    const imported = await run('reconcile', '--provider', 'sandbox', '--day', DAY, '--file', billFile);
    expect(imported.code, imported.err).toBe(0);
    expect(imported.out).toContain('differences found: 2');
    const open = await app.repos.reconciliation.differences({ state: 'open', limit: 10 });
    expect(open.length).toBeGreaterThan(0);
    const handled = await run('reconciliation-handle', '--id', String(open[0]!.id), '--note', 'refunded by hand');
    expect(handled.code, handled.err).toBe(0);
    const listed = await run('reconciliation-list', '--provider', 'sandbox', '--state', 'handled');
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toContain('refunded by hand');
    const refused = await run('reconcile', '--provider', 'sandbox', '--day', 'yesterday');
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain('yesterday is not a date');
  });
});
