/**
 * Reconciliation (issue 31 §3): one provider's bill of one day (China time; lib/payment/bill-day.ts) compared
 * with our payments and refunds of that provider, so that every fen is accounted for. The bill comes from the
 * provider (fetchBill: the daily job after 10:00 China time for the day before, or a finance member's "run
 * now") or from a file downloaded from the provider's merchant portal (parseBill: a file it cannot read is
 * refused with its line, nothing written).
 *
 * Differences (contract/reconciliation.ts kinds): paid there but not here, or here still unpaid; paid here but
 * not there; amounts that differ; refunds likewise. A payment the provider counts on the other side of midnight
 * from us is matched against the bill of that other day (its lines are kept). Each run is recorded (when, who
 * or what ran it, counts, status); re-running a day replaces its open differences and keeps the handled ones
 * with their notes. Finance staff mark a difference handled with a note, kept with who and when. Every run and
 * handling by a person is in the audit log. Amounts are integer fen.
 */
import { CONSOLE_MESSAGES, type ConsoleMessageCode } from '#contract/console-messages';
import { fillMessage } from '#contract/messages';
import {
  isReconciliationKind,
  RECONCILIATION_NOTE_MAX,
  type ReconcileAnswer,
  type ReconciliationAnswer,
  type ReconciliationDifferenceView,
  type ReconciliationKind,
  type ReconciliationRunView,
} from '#contract/reconciliation';
import type {
  DifferenceInput,
  DifferenceRecord,
  OurPayment,
  OurRefund,
  RunCounts,
  RunRecord,
  RunSource,
} from '../../db/reconciliation-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { redactLogText } from '../../lib/log-redaction.ts';
import { chinaDayOf, chinaDayRange } from '../../lib/payment/bill-day.ts';
import { BillFormatError, BillNotReadyError, type BillLine, type PaymentProvider } from '../../lib/payment/provider.ts';
import type { PaymentProviders } from '../../lib/payment/registry.ts';
import { appendAudit, cliActorName, type AuditActor } from '../staff/audit.ts';

export interface ReconciliationDeps {
  repos: Repositories;
  /** The providers (lib/payment/registry.ts): one enabled or one that took payments before. */
  providers: PaymentProviders;
  now: () => number;
}

/** Who ran something: a person (audited) or the daily job. */
export type ReconciliationActor = AuditActor | 'job';

export type ReconciliationRefusal = {
  ok: false;
  status: number;
  code: ConsoleMessageCode;
  params?: Record<string, string>;
};
export type ReconciliationOutcome<T> = { ok: true; value: T } | ReconciliationRefusal;

const refuse = (status: number, code: ConsoleMessageCode, params?: Record<string, string>): ReconciliationRefusal => ({
  ok: false,
  status,
  code,
  params,
});

/** A refusal in English, for the command line (the console shows CONSOLE_MESSAGES in its language). */
export const refusalText = (refusal: ReconciliationRefusal): string =>
  fillMessage(CONSOLE_MESSAGES[refusal.code].en, refusal.params);

/** The name an actor is kept under on a run or a handling (as the audit log names it). */
function actorName(actor: ReconciliationActor): string {
  if (actor === 'job') return 'job';
  return actor.kind === 'staff' ? `staff:${actor.staffId}` : cliActorName();
}

// ---------------------------------------------------------------------------------------------------------
// Our books as a bill (the sandbox's bill)
// ---------------------------------------------------------------------------------------------------------

/** Our record of a provider's money in [from, to) as bill lines: payments recorded paid, refunds confirmed. */
export async function ledgerOf(repos: Repositories, provider: string, from: number, to: number): Promise<BillLine[]> {
  const payments = await repos.reconciliation.paidBetween(provider, from, to);
  const refunds = await repos.reconciliation.refundedBetween(provider, from, to);
  const trades = new Map(
    (await repos.reconciliation.paymentsByIds(refunds.flatMap((r) => (r.paymentId ? [r.paymentId] : [])))).map((p) => [
      p.paymentId,
      p.tradeNo ?? '',
    ]),
  );
  return [
    ...payments.map((p): BillLine => ({
      kind: 'payment',
      paymentId: p.paymentId,
      tradeNo: p.tradeNo ?? '',
      refundNo: null,
      amountFen: p.amountFen,
      at: p.at,
    })),
    ...refunds.map((r): BillLine => ({
      kind: 'refund',
      paymentId: r.paymentId ?? '',
      tradeNo: trades.get(r.paymentId ?? '') ?? '',
      refundNo: r.refundNo,
      amountFen: r.amountFen,
      at: r.at ?? from,
    })),
  ];
}

// ---------------------------------------------------------------------------------------------------------
// The comparison
// ---------------------------------------------------------------------------------------------------------

const oursOfPayment = (p: OurPayment) => ({
  provider: p.provider,
  status: p.status,
  tradeNo: p.tradeNo,
  amountFen: p.amountFen,
  at: p.at,
});
const oursOfRefund = (r: OurRefund) => ({
  provider: r.provider,
  status: r.status,
  paymentId: r.paymentId,
  amountFen: r.amountFen,
  at: r.at,
});
const theirsOf = (l: BillLine) => ({ tradeNo: l.tradeNo, refundNo: l.refundNo, amountFen: l.amountFen, at: l.at });

/** Bill lines of one kind by key, amounts of repeated lines summed (a provider lists each once). */
function byKey(lines: readonly BillLine[], key: (l: BillLine) => string): Map<string, BillLine> {
  const out = new Map<string, BillLine>();
  for (const line of lines) {
    const k = key(line);
    const seen = out.get(k);
    out.set(k, seen ? { ...seen, amountFen: seen.amountFen + line.amountFen } : line);
  }
  return out;
}

/** A bill's refund line's key: our refund number, or (a refund made by hand at the provider) its trade and time. */
const refundKey = (l: BillLine) => l.refundNo ?? `${l.tradeNo}@${l.at}`;

/** The differences of a provider's bill of a day with our books, and the counts of both sides. */
async function compare(
  repos: Repositories,
  provider: string,
  day: string,
  range: { from: number; to: number },
  lines: readonly BillLine[],
): Promise<{ found: DifferenceInput[]; counts: RunCounts }> {
  const found: DifferenceInput[] = [];
  const add = (kind: ReconciliationKind, key: string, d: Omit<DifferenceInput, 'key' | 'kind'>) =>
    found.push({ key: `${kind}:${key}`, kind, ...d });

  // Payments.
  const billPayments = byKey(
    lines.filter((l) => l.kind === 'payment'),
    (l) => l.paymentId,
  );
  const ourPaid = await repos.reconciliation.paidBetween(provider, range.from, range.to);
  const known = new Map(
    (await repos.reconciliation.paymentsByIds([...billPayments.keys()])).map((p) => [p.paymentId, p]),
  );
  for (const [paymentId, line] of billPayments) {
    const our = known.get(paymentId);
    const common = {
      paymentId,
      refundNo: null,
      orderNo: our?.orderNo ?? null,
      raceId: our?.raceId ?? null,
      oursFen: our?.amountFen ?? null,
      theirsFen: line.amountFen,
      ours: our ? oursOfPayment(our) : null,
      theirs: theirsOf(line),
    };
    if (!our || our.provider !== provider || our.status !== 'paid') add('paymentMissingHere', paymentId, common);
    else if (our.amountFen !== line.amountFen) add('paymentAmount', paymentId, common);
  }
  const notInBill = ourPaid.filter((p) => !billPayments.has(p.paymentId));
  const elsewhere = await repos.reconciliation.onOtherDays(
    provider,
    day,
    'payment',
    notInBill.map((p) => p.paymentId),
  );
  for (const our of notInBill) {
    if (elsewhere.has(our.paymentId)) continue;
    add('paymentMissingThere', our.paymentId, {
      paymentId: our.paymentId,
      refundNo: null,
      orderNo: our.orderNo,
      raceId: our.raceId,
      oursFen: our.amountFen,
      theirsFen: null,
      ours: oursOfPayment(our),
      theirs: null,
    });
  }

  // Refunds.
  const billRefunds = byKey(
    lines.filter((l) => l.kind === 'refund'),
    refundKey,
  );
  const ourRefunded = await repos.reconciliation.refundedBetween(provider, range.from, range.to);
  const numbered = [...billRefunds.values()].flatMap((l) => (l.refundNo ? [l.refundNo] : []));
  const knownRefunds = new Map((await repos.reconciliation.refundsByNos(numbered)).map((r) => [r.refundNo, r]));
  for (const [key, line] of billRefunds) {
    const our = line.refundNo ? knownRefunds.get(line.refundNo) : undefined;
    const common = {
      paymentId: line.paymentId,
      refundNo: line.refundNo,
      orderNo: our?.orderNo ?? null,
      raceId: our?.raceId ?? null,
      oursFen: our?.amountFen ?? null,
      theirsFen: line.amountFen,
      ours: our ? oursOfRefund(our) : null,
      theirs: theirsOf(line),
    };
    if (!our || our.provider !== provider || our.status !== 'done') add('refundMissingHere', key, common);
    else if (our.amountFen !== line.amountFen) add('refundAmount', key, common);
  }
  const refundsNotInBill = ourRefunded.filter((r) => !billRefunds.has(r.refundNo));
  const refundsElsewhere = await repos.reconciliation.onOtherDays(
    provider,
    day,
    'refund',
    refundsNotInBill.map((r) => r.refundNo),
  );
  for (const our of refundsNotInBill) {
    if (refundsElsewhere.has(our.refundNo)) continue;
    add('refundMissingThere', our.refundNo, {
      paymentId: our.paymentId,
      refundNo: our.refundNo,
      orderNo: our.orderNo,
      raceId: our.raceId,
      oursFen: our.amountFen,
      theirsFen: null,
      ours: oursOfRefund(our),
      theirs: null,
    });
  }

  const sum = (items: readonly { amountFen: number }[]) => items.reduce((total, item) => total + item.amountFen, 0);
  return {
    found,
    counts: {
      billPayments: billPayments.size,
      billPaidFen: sum([...billPayments.values()]),
      billRefunds: billRefunds.size,
      billRefundFen: sum([...billRefunds.values()]),
      ourPayments: ourPaid.length,
      ourPaidFen: sum(ourPaid),
      ourRefunds: ourRefunded.length,
      ourRefundFen: sum(ourRefunded),
      differences: found.length,
    },
  };
}

const ZERO_COUNTS: RunCounts = {
  billPayments: 0,
  billPaidFen: 0,
  billRefunds: 0,
  billRefundFen: 0,
  ourPayments: 0,
  ourPaidFen: 0,
  ourRefunds: 0,
  ourRefundFen: 0,
  differences: 0,
};

// ---------------------------------------------------------------------------------------------------------
// Runs
// ---------------------------------------------------------------------------------------------------------

/** A day a bill can be asked for: a real date before today (China time). */
function checkDay(day: string, now: number): ReconciliationOutcome<{ from: number; to: number }> {
  const range = chinaDayRange(day);
  if (!range) return refuse(400, 'reconcileDayInvalid', { day });
  if (day >= chinaDayOf(now)) return refuse(400, 'reconcileDayNotOver', { day });
  return { ok: true, value: range };
}

/** A provider of the registry that can be reconciled by `how`. */
function providerFor(
  providers: PaymentProviders,
  name: string,
  how: 'fetch' | 'file',
): ReconciliationOutcome<PaymentProvider> {
  const found = providers.forPayment(name);
  if (!found.ok) return refuse(400, 'reconcileProviderUnknown', { provider: name });
  const can = how === 'fetch' ? found.provider.fetchBill : found.provider.parseBill;
  if (!can) return refuse(400, how === 'fetch' ? 'reconcileNoFetch' : 'reconcileNoImport', { provider: name });
  return { ok: true, value: found.provider };
}

/**
 * Compares a bill (its lines) with our books and keeps the outcome: the run, the day's lines and its
 * differences, in one transaction; audited when a person ran it.
 */
export async function recordRun(
  deps: Omit<ReconciliationDeps, 'providers'>,
  input: { provider: string; day: string; source: RunSource; actor: ReconciliationActor; lines: readonly BillLine[] },
): Promise<ReconcileAnswer> {
  const range = chinaDayRange(input.day);
  if (!range) throw new Error(`${input.day} is not a day`);
  const at = deps.now();
  const actor = actorName(input.actor);
  const run = await deps.repos.transaction(async (tx) => {
    await tx.db.lock(`reconcile:${input.provider}:${input.day}`);
    // The bill's lines first: the comparison of this day looks for payments on other days' bills only.
    await tx.reconciliation.replaceLines(input.provider, input.day, input.lines);
    const { found, counts } = await compare(tx, input.provider, input.day, range, input.lines);
    const made = await tx.reconciliation.addRun({
      provider: input.provider,
      day: input.day,
      source: input.source,
      actor,
      status: found.length === 0 ? 'matched' : 'differences',
      ...counts,
      error: null,
      ranAt: at,
    });
    await tx.reconciliation.replaceDifferences({ id: made.id, provider: input.provider, day: input.day, at }, found);
    if (input.actor !== 'job') {
      await appendAudit(
        tx,
        input.actor,
        {
          action: input.source === 'file' ? 'reconciliation.import' : 'reconciliation.run',
          target: `${input.provider}:${input.day}`,
          after: { run: made.id, status: made.status, differences: made.differences },
        },
        at,
      );
    }
    return made;
  });
  return runAnswer(deps.repos, run);
}

/** A run that could not read its bill, kept (and audited when a person ran it). */
async function recordFailure(
  deps: Omit<ReconciliationDeps, 'providers'>,
  input: { provider: string; day: string; source: RunSource; actor: ReconciliationActor; error: string },
): Promise<RunRecord> {
  const at = deps.now();
  return deps.repos.transaction(async (tx) => {
    const run = await tx.reconciliation.addRun({
      provider: input.provider,
      day: input.day,
      source: input.source,
      actor: actorName(input.actor),
      status: 'failed',
      ...ZERO_COUNTS,
      error: input.error,
      ranAt: at,
    });
    if (input.actor !== 'job') {
      await appendAudit(
        tx,
        input.actor,
        {
          action: 'reconciliation.run',
          target: `${input.provider}:${input.day}`,
          after: { run: run.id, status: 'failed', error: input.error },
        },
        at,
      );
    }
    return run;
  });
}

/** What a failed call to the provider left: masked and short. */
const problemOf = (error: unknown) =>
  redactLogText(error instanceof Error ? error.message || error.name : String(error)).slice(0, 300);

/**
 * Fetches the provider's bill of `day` and reconciles it (run now: console, CLI). A bill not out yet or a
 * provider that fails is refused with why, and kept as a failed run.
 */
export async function reconcileFetched(
  deps: ReconciliationDeps,
  input: { provider: string; day: string; actor: AuditActor },
): Promise<ReconciliationOutcome<ReconcileAnswer>> {
  const range = checkDay(input.day, deps.now());
  if (!range.ok) return range;
  const provider = providerFor(deps.providers, input.provider, 'fetch');
  if (!provider.ok) return provider;
  let lines: BillLine[];
  try {
    lines = await provider.value.fetchBill!(input.day);
  } catch (error) {
    const notReady = error instanceof BillNotReadyError;
    const problem = problemOf(error);
    await recordFailure(deps, { ...input, source: 'fetch', error: problem });
    return notReady
      ? refuse(409, 'reconcileBillNotReady', { provider: input.provider, day: input.day })
      : refuse(502, 'reconcileFetchFailed', { provider: input.provider, problem });
  }
  return { ok: true, value: await recordRun(deps, { ...input, source: 'fetch', lines }) };
}

/**
 * Reads a bill file of the provider (downloaded from its merchant portal) and reconciles it. A file it cannot
 * read is refused with its line, and nothing is written.
 */
export async function reconcileFile(
  deps: ReconciliationDeps,
  input: { provider: string; day: string; content: Buffer; actor: AuditActor },
): Promise<ReconciliationOutcome<ReconcileAnswer>> {
  const range = checkDay(input.day, deps.now());
  if (!range.ok) return range;
  const provider = providerFor(deps.providers, input.provider, 'file');
  if (!provider.ok) return provider;
  if (input.content.length === 0)
    return refuse(400, 'reconcileBillFormat', { line: '0', problem: 'the file is empty' });
  let lines: BillLine[];
  try {
    lines = provider.value.parseBill!(input.content);
  } catch (error) {
    if (error instanceof BillFormatError) {
      return refuse(400, 'reconcileBillFormat', { line: String(error.line), problem: problemOf(error) });
    }
    return refuse(400, 'reconcileBillFormat', { line: '0', problem: problemOf(error) });
  }
  // A line of another day: the file is not that day's bill.
  const stray = lines.find((l) => l.at < range.value.from || l.at >= range.value.to);
  if (stray) {
    return refuse(400, 'reconcileBillOtherDay', { day: input.day, other: chinaDayOf(stray.at) });
  }
  return {
    ok: true,
    value: await recordRun(deps, { ...input, source: 'file', lines }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The daily job
// ---------------------------------------------------------------------------------------------------------

/** Before this hour (China time) the daily job does not ask for the day before: both providers publish by 10:00. */
export const BILL_READY_HOUR = 10;

/**
 * The days the daily job should fetch now: for each enabled provider that publishes a bill (fetchBill), the day
 * before today (China time) once it is past 10:00 there, unless a run already read it.
 */
export async function dueBillDays(
  deps: ReconciliationDeps,
  chinaHour: number,
  yesterday: string,
): Promise<{ provider: string; day: string }[]> {
  if (chinaHour < BILL_READY_HOUR) return [];
  const due: { provider: string; day: string }[] = [];
  for (const provider of deps.providers.enabled) {
    if (!provider.fetchBill) continue;
    if (!(await deps.repos.reconciliation.hasRead(provider.name, yesterday))) {
      due.push({ provider: provider.name, day: yesterday });
    }
  }
  return due;
}

/**
 * One try of the daily job for a provider's day: the bill fetched and reconciled. Throws (for the job runner's
 * retry with backoff) while the bill is not out or the provider fails, unless this is the last try, which keeps
 * a failed run saying why.
 */
export async function dailyReconcile(
  deps: ReconciliationDeps,
  input: { provider: string; day: string; lastTry: boolean },
): Promise<void> {
  if (await deps.repos.reconciliation.hasRead(input.provider, input.day)) return;
  const provider = providerFor(deps.providers, input.provider, 'fetch');
  if (!provider.ok) return;
  let lines: BillLine[];
  try {
    lines = await provider.value.fetchBill!(input.day);
  } catch (error) {
    if (!input.lastTry && !(error instanceof BillFormatError)) throw error;
    await recordFailure(deps, {
      provider: input.provider,
      day: input.day,
      source: 'fetch',
      actor: 'job',
      error: problemOf(error),
    });
    return;
  }
  await recordRun(deps, { provider: input.provider, day: input.day, source: 'fetch', actor: 'job', lines });
}

// ---------------------------------------------------------------------------------------------------------
// The finance staff's view and handling
// ---------------------------------------------------------------------------------------------------------

const staffIdOf = (actor: string | null) => {
  const match = /^staff:(\d+)$/.exec(actor ?? '');
  return match ? Number(match[1]) : undefined;
};

/** Names of the staff members among these actors. */
async function staffNames(repos: Repositories, actors: readonly (string | null)[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const actor of new Set(actors)) {
    const id = staffIdOf(actor);
    if (id === undefined || actor === null) continue;
    const staff = await repos.staff.findById(id);
    if (staff) names.set(actor, staff.name || staff.email);
  }
  return names;
}

const runView = (run: RunRecord, names: Map<string, string>): ReconciliationRunView => ({
  ...run,
  staffName: names.get(run.actor) ?? null,
});

const differenceView = (d: DifferenceRecord, names: Map<string, string>): ReconciliationDifferenceView => ({
  id: d.id,
  provider: d.provider,
  day: d.day,
  kind: isReconciliationKind(d.kind) ? d.kind : 'paymentMissingHere',
  paymentId: d.paymentId,
  refundNo: d.refundNo,
  orderNo: d.orderNo,
  raceId: d.raceId,
  oursFen: d.oursFen,
  theirsFen: d.theirsFen,
  ourStatus: typeof d.ours?.status === 'string' ? d.ours.status : null,
  foundAt: d.foundAt,
  stillFound: d.stillFound,
  handledAt: d.handledAt,
  handledBy: d.handledBy,
  handledByName: d.handledBy === null ? null : (names.get(d.handledBy) ?? null),
  note: d.note,
});

async function runAnswer(repos: Repositories, run: RunRecord): Promise<ReconcileAnswer> {
  const differences = await repos.reconciliation.differences({
    provider: run.provider,
    from: run.day,
    to: run.day,
    limit: 1000,
  });
  const names = await staffNames(repos, [run.actor, ...differences.map((d) => d.handledBy)]);
  return { run: runView(run, names), differences: differences.map((d) => differenceView(d, names)) };
}

/** At most this many runs and differences in one answer. */
export const RECONCILIATION_PAGE = 200;

export interface ReconciliationQuery {
  provider?: string;
  from?: string;
  to?: string;
  state?: string;
  kind?: string;
}

/** The filters of a query, checked: which field is wrong otherwise. */
function filterOf(query: ReconciliationQuery): ReconciliationOutcome<{
  provider?: string;
  from?: string;
  to?: string;
  state?: 'open' | 'handled';
  kind?: ReconciliationKind;
}> {
  const empty = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);
  const from = empty(query.from);
  const to = empty(query.to);
  const state = empty(query.state);
  const kind = empty(query.kind);
  if (from !== undefined && !chinaDayRange(from)) return refuse(400, 'reconcileDayInvalid', { day: from });
  if (to !== undefined && !chinaDayRange(to)) return refuse(400, 'reconcileDayInvalid', { day: to });
  if (state !== undefined && state !== 'open' && state !== 'handled')
    return refuse(400, 'staffBadQuery', { field: 'state' });
  if (kind !== undefined && !isReconciliationKind(kind)) return refuse(400, 'staffBadQuery', { field: 'kind' });
  return { ok: true, value: { provider: empty(query.provider), from, to, state, kind } };
}

/** Runs and differences (newest days first), filtered, with the providers that can be reconciled. */
export async function reconciliationView(
  deps: ReconciliationDeps,
  query: ReconciliationQuery,
): Promise<ReconciliationOutcome<ReconciliationAnswer>> {
  const filter = filterOf(query);
  if (!filter.ok) return filter;
  const { state, kind, ...days } = filter.value;
  const runs = await deps.repos.reconciliation.runs({ ...days, limit: RECONCILIATION_PAGE });
  const differences = await deps.repos.reconciliation.differences({
    ...days,
    state,
    kind,
    limit: RECONCILIATION_PAGE,
  });
  const names = await staffNames(deps.repos, [...runs.map((r) => r.actor), ...differences.map((d) => d.handledBy)]);
  return {
    ok: true,
    value: {
      providers: deps.providers.enabled.map((p) => ({
        name: p.name,
        enabled: true,
        fetch: p.fetchBill !== undefined,
        file: p.parseBill !== undefined,
      })),
      runs: runs.map((r) => runView(r, names)),
      differences: differences.map((d) => differenceView(d, names)),
    },
  };
}

/** Marks a difference handled with a note (who and when kept; audited). Once: a second time is refused. */
export async function handleDifference(
  deps: Omit<ReconciliationDeps, 'providers'>,
  input: { id: number; note: unknown; actor: AuditActor },
): Promise<ReconciliationOutcome<ReconciliationDifferenceView>> {
  const note = typeof input.note === 'string' ? input.note.trim() : '';
  if (note === '' || note.length > RECONCILIATION_NOTE_MAX) {
    return refuse(400, 'reconcileNoteInvalid', { max: String(RECONCILIATION_NOTE_MAX) });
  }
  const at = deps.now();
  const by = actorName(input.actor);
  const outcome = await deps.repos.transaction(async (tx): Promise<ReconciliationOutcome<DifferenceRecord>> => {
    const difference = await tx.reconciliation.findDifference(input.id);
    if (!difference) return refuse(404, 'reconcileDifferenceMissing', { id: String(input.id) });
    if (!(await tx.reconciliation.handle(input.id, by, note, at))) {
      return refuse(409, 'reconcileHandledAlready', { id: String(input.id) });
    }
    await appendAudit(
      tx,
      input.actor,
      {
        action: 'reconciliation.handle',
        raceId: difference.raceId,
        target: `${difference.provider}:${difference.day}:${difference.kind}:${difference.refundNo ?? difference.paymentId ?? ''}`,
        before: { handled: false },
        after: { handled: true, note },
      },
      at,
    );
    return { ok: true, value: (await tx.reconciliation.findDifference(input.id)) ?? difference };
  });
  if (!outcome.ok) return outcome;
  const names = await staffNames(deps.repos, [outcome.value.handledBy]);
  return { ok: true, value: differenceView(outcome.value, names) };
}
