/**
 * The organiser's refund and deferral commands (issue 15 §4; docs/after-entry.md), run by site.ts:
 * refunds-list, refund-approve (refund through the payment provider, idempotent; or a deferral approved),
 * refund-reject (with the reason the runner reads), deferrals-issue (named codes of the next race), and the
 * refunds still owed: refunds-owed (every refund the provider has not confirmed: a draw's losers, late and
 * double payments, approved requests) and refund-retry (one of them now). The rules live in
 * services/after-entry/refunds.ts and services/entry/refunds-owed.ts.
 */
import { REFUND_REJECT_REASON_MAX, REFUND_REQUEST_STATUSES, type RefundRequestStatus } from '#contract/after-entry';
import { formatFen } from '#contract/entry';
import { formatRaceTime } from '#contract/race-clock';
import type { Repositories } from '../db/repositories.ts';
import type { Env } from '../lib/env.ts';
import { maskName } from '../lib/race-center.ts';
import type { ServerSecrets } from '../lib/secrets.ts';
import { approveRequest, issueDeferrals, refundRequestsOf, rejectRequest } from '../services/after-entry/refunds.ts';
import { raceById } from '../services/races.ts';
import { refundsOwed, retryRefund } from '../services/entry/refunds-owed.ts';
import { cliPaymentProvider } from './ballot-commands.ts';
import { formatTable, newInvitationCode } from './entry-commands.ts';
import type { CommandOutcome } from './registration-screens-commands.ts';
import { parseCliOptions } from './cli-options.ts';

export const REFUND_USAGE = `  refunds-list --race <raceId> [--status review|approved|rejected]
      the race's refund and deferral requests: id, entry, masked name, item, kind, status, amount
      to refund (yuan), reason, requested time, decision
  refund-approve --race <raceId> --entry <entryNo>
      approve the entry's request under review. A refund: the race's share is refunded through the
      payment provider (once, however often it is run), the place given back, the entry 'refunded'.
      A deferral: the entry is cancelled ('deferred'), its place given back; see deferrals-issue
  refund-reject --race <raceId> --entry <entryNo> --reason "<text>"
      reject it with a reason the runner reads (a refund's entry is registered again)
  refunds-owed [--race <raceId>]
      every refund not confirmed by the payment provider yet (a pay-first draw's losers, a payment
      after the deadline or the draw, a double payment's second charge, an approved request):
      refund no, order, entry, amount (yuan), reason, attempts, last error, age, next try. The
      server retries each with backoff until the provider confirms it
  refund-retry --refund <refundNo>
      ask the provider for that refund now (PAYMENT_PROVIDER built in; otherwise the server's
      job tries it within a minute)
  deferrals-issue --from <raceId> --to <raceId> [--expires "YYYY-MM-DD HH:mm:ss"]
      for each approved deferral of --from without a code: a named single-use invitation code of
      --to's same item (for that person only), sent to the runner; a second run issues nothing new.
      The codes expire at --expires (--to's race clock), by default at --to's sign-up end`;

const COMMANDS = {
  'refunds-list': ['--race', '--status'],
  'refund-approve': ['--race', '--entry'],
  'refund-reject': ['--race', '--entry', '--reason'],
  'deferrals-issue': ['--from', '--to', '--expires'],
  'refunds-owed': ['--race'],
  'refund-retry': ['--refund'],
} as const;
/** Options a command may leave out. */
const OPTIONAL: readonly string[] = ['--status', '--expires'];
/** Commands whose options are all optional. */
const ALL_OPTIONAL: readonly string[] = ['refunds-owed'];
type RefundCommand = keyof typeof COMMANDS;

export const isRefundCommand = (command: string): command is RefundCommand => Object.hasOwn(COMMANDS, command);

export interface RefundCommandIo {
  now: number;
  env: Env;
  /** Runs work on the database (opened and closed around it). */
  withDatabase: <T>(work: (opened: { repos: Repositories; secrets: ServerSecrets }) => Promise<T>) => Promise<T>;
}

export type RefundCommandOutcome = CommandOutcome | { ok: false; usage: true; lines: string[] };

/**
 * Who acts: the command line. refund-approve, refund-reject, refund-retry and deferrals-issue write their own
 * audit records (refund.approve, refund.reject, refund.retry, deferrals.issue: the console's names too), in the
 * transaction of the change.
 */
const CLI_ACTOR = { kind: 'cli' } as const;

const done = (...lines: string[]): CommandOutcome => ({ ok: true, lines });
const refused = (...lines: string[]): CommandOutcome => ({ ok: false, lines });
const usage = (line: string): RefundCommandOutcome => ({ ok: false, usage: true, lines: [line] });

/** Runs a refund command with its arguments (after the command name). */
export async function runRefundCommand(
  command: RefundCommand,
  argv: readonly string[],
  io: RefundCommandIo,
): Promise<RefundCommandOutcome> {
  const required = ALL_OPTIONAL.includes(command) ? [] : COMMANDS[command].filter((name) => !OPTIONAL.includes(name));
  const parsed = parseCliOptions(command, argv, COMMANDS[command], required);
  if (!parsed.ok) return usage(parsed.problem);
  const { options } = parsed;
  const race = options['--race'] ?? '';
  const entry = options['--entry'] ?? '';

  switch (command) {
    case 'refunds-list': {
      const status = options['--status'];
      if (status !== undefined && !(REFUND_REQUEST_STATUSES as readonly string[]).includes(status)) {
        return usage('--status must be review, approved or rejected.');
      }
      return io.withDatabase(({ repos }) => refundsList(repos, race, status as RefundRequestStatus | undefined));
    }
    case 'refund-approve':
      return io.withDatabase(async ({ repos, secrets }) => {
        // Only the built-in providers are known here: with another one the server's job carries the refund out.
        const provider = cliPaymentProvider(io, secrets);
        const outcome = await approveRequest({ repos, provider, now: () => io.now, actor: CLI_ACTOR }, race, entry);
        if (!outcome.ok) return refused(outcome.problem);
        const r = outcome.value;
        const head = r.fresh
          ? `Approved the ${r.kind} request ${r.requestId} of entry ${entry}.`
          : `The ${r.kind} request ${r.requestId} of entry ${entry} was already approved: nothing changed.`;
        if (r.kind === 'deferral') {
          return done(head, `  Run deferrals-issue --from ${race} --to <next race> to send the runner a code.`);
        }
        return done(
          head,
          r.refundedFen > 0
            ? `  refunded now: ${formatFen(r.refundedFen)} yuan (of ${formatFen(r.amountFen)})`
            : r.pending > 0
              ? `  the refund of ${formatFen(r.amountFen)} yuan is recorded, not confirmed by the provider yet: the server retries it until it is (see refunds-owed --race ${race})`
              : `  refund of ${formatFen(r.amountFen)} yuan: done before`,
        );
      });
    case 'refund-reject': {
      const reason = (options['--reason'] ?? '').trim();
      if ([...reason].length > REFUND_REJECT_REASON_MAX) {
        return usage(`--reason is 1-${REFUND_REJECT_REASON_MAX} characters: the runner reads it.`);
      }
      return io.withDatabase(async ({ repos }) => {
        const outcome = await rejectRequest(repos, race, entry, reason, io.now, CLI_ACTOR);
        if (!outcome.ok) return refused(outcome.problem);
        const r = outcome.value;
        return done(
          r.fresh
            ? `Rejected the ${r.kind} request ${r.requestId} of entry ${entry}; the runner is told the reason.`
            : `The ${r.kind} request ${r.requestId} of entry ${entry} was already rejected: nothing changed.`,
        );
      });
    }
    case 'refunds-owed':
      return io.withDatabase(({ repos }) => refundsOwedList(repos, options['--race'], io.now));
    case 'refund-retry':
      return io.withDatabase(async ({ repos, secrets }) => {
        const refundNo = options['--refund'] ?? '';
        const provider = cliPaymentProvider(io, secrets);
        const outcome = await retryRefund({ repos, provider, now: () => io.now, actor: CLI_ACTOR }, refundNo);
        if (!outcome.ok) return refused(outcome.problem);
        const amount = `${formatFen(outcome.refund.amountFen)} yuan`;
        if (outcome.result === 'done') return done(`Refund ${refundNo} of ${amount}: confirmed by the provider now.`);
        if (!provider) {
          return done(
            `Refund ${refundNo} of ${amount}: PAYMENT_PROVIDER is not built in, so the server's job asks the provider for it within a minute.`,
          );
        }
        return refused(
          `Refund ${refundNo} of ${amount}: not confirmed (${outcome.refund.lastError ?? 'no answer'}); attempt ${outcome.refund.attempts}, the server tries again at ${formatRaceTime(outcome.refund.nextAt)}.`,
        );
      });
    case 'deferrals-issue':
      return io.withDatabase(async ({ repos }) => {
        const outcome = await issueDeferrals(repos, {
          fromRaceId: options['--from'] ?? '',
          toRaceId: options['--to'] ?? '',
          now: io.now,
          newCode: newInvitationCode,
          ...(options['--expires'] === undefined ? {} : { expires: options['--expires'] }),
          actor: CLI_ACTOR,
        });
        if (!outcome.ok) return refused(outcome.problem);
        const { issued, skipped, expiresAt, zone } = outcome.value;
        const expires = formatRaceTime(expiresAt, undefined, zone);
        return done(
          `Issued ${issued.length} deferral code${issued.length === 1 ? '' : 's'} of ${options['--to']} (named, single use, expire ${expires} race clock; sent to each runner):`,
          ...issued.map((i) => `  ${i.entryNo}  ${maskName(i.name)}  ${i.itemCode}  ${i.code}`),
          ...skipped.map((s) => `  skipped ${s.entryNo}: ${options['--to']} has no item ${s.itemCode}`),
        );
      });
  }
}

async function refundsList(
  repos: Repositories,
  raceId: string,
  status: RefundRequestStatus | undefined,
): Promise<CommandOutcome> {
  if (!(await raceById(repos, raceId))) return refused(`No race "${raceId}".`);
  const list = await refundRequestsOf(repos, raceId, status);
  if (list.length === 0) return done(`No ${status ?? ''}${status ? ' ' : ''}request in ${raceId}.`);
  return done(
    ...formatTable(
      ['id', 'entry', 'name', 'item', 'kind', 'status', 'amount', 'reason', 'requested', 'decision'],
      list.map((r) => [
        String(r.id),
        r.entryNo,
        maskName(r.name),
        r.itemCode,
        r.kind,
        r.status,
        formatFen(r.amountFen),
        r.reason.replace(/\s+/g, ' '),
        formatRaceTime(r.createdAt),
        r.decidedAt === null ? '-' : `${formatRaceTime(r.decidedAt)}${r.rejectReason ? `: ${r.rejectReason}` : ''}`,
      ]),
    ),
  );
}

/** How long ago `at` was, in the largest whole unit (minutes, hours, days). */
function age(at: number, now: number): string {
  const minutes = Math.max(0, Math.floor((now - at) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h`;
  return `${Math.floor(minutes / (24 * 60))} d`;
}

async function refundsOwedList(repos: Repositories, raceId: string | undefined, now: number): Promise<CommandOutcome> {
  if (raceId !== undefined && !(await raceById(repos, raceId))) return refused(`No race "${raceId}".`);
  const owed = await refundsOwed(repos, raceId);
  const where = raceId === undefined ? '' : ` in ${raceId}`;
  if (owed.length === 0) return done(`No refund owed${where}: every refund is confirmed by the provider.`);
  const failing = owed.filter((r) => r.lastError !== null).length;
  const total = owed.reduce((sum, r) => sum + r.amountFen, 0);
  return done(
    `${owed.length} refund${owed.length === 1 ? '' : 's'} owed${where} (${formatFen(total)} yuan), ${failing} of them failing so far:`,
    ...formatTable(
      ['refund', 'order', 'entry', 'amount', 'reason', 'attempts', 'last error', 'age', 'next try'],
      owed.map((r) => [
        r.refundNo,
        r.orderNo,
        r.entryNo ?? '-',
        formatFen(r.amountFen),
        r.reason,
        String(r.attempts),
        r.lastError ?? '-',
        age(r.createdAt, now),
        r.nextAt <= now ? 'now' : formatRaceTime(r.nextAt),
      ]),
    ),
    'Retry one now: refund-retry --refund <refund>.',
  );
}
