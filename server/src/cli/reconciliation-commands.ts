/**
 * Reconciliation from the command line (issue 31 §3; docs/payment-providers.md): reconcile (a provider's bill of
 * a day, fetched from the provider or read from a file, compared with our payments and refunds),
 * reconciliation-list (runs and differences) and reconciliation-handle (a difference marked handled with a
 * note). Through services/entry/reconciliation.ts, as the console does; runs and handlings are audited there.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { formatFen } from '#contract/entry';
import { formatRaceTime } from '#contract/race-clock';
import type { ReconcileAnswer, ReconciliationDifferenceView } from '#contract/reconciliation';
import type { Repositories } from '../db/repositories.ts';
import type { Env } from '../lib/env.ts';
import type { ServerSecrets } from '../lib/secrets.ts';
import {
  handleDifference,
  ledgerOf,
  reconcileFetched,
  reconcileFile,
  reconciliationView,
  refusalText,
  type ReconciliationDeps,
} from '../services/entry/reconciliation.ts';
import { cliPaymentProvider } from './ballot-commands.ts';
import { parseCliOptions } from './cli-options.ts';
import { formatTable } from './entry-commands.ts';
import type { CommandOutcome } from './registration-screens-commands.ts';

export const RECONCILIATION_USAGE = `  reconcile --provider <name> --day <YYYY-MM-DD> [--file <bill file>]
      compares the provider's bill of that day (China time) with our payments and refunds of that
      provider: fetched from the provider, or read from a bill file downloaded from its merchant
      portal (a file it cannot read is refused with its line; nothing is written). Prints the
      counts and each difference; re-running a day replaces its open differences and keeps the
      handled ones with their notes. The server also does it every day after 10:00 for the day before.
  reconciliation-list [--provider <name>] [--from <day>] [--to <day>] [--state open|handled] [--kind <kind>]
      the runs and the differences found (newest days first), with how each was handled
  reconciliation-handle --id <difference> --note "<what was done>"
      marks a difference handled, with a note ("refunded by hand", "late notification, now paid")`;

const COMMANDS = {
  reconcile: ['--provider', '--day', '--file'],
  'reconciliation-list': ['--provider', '--from', '--to', '--state', '--kind'],
  'reconciliation-handle': ['--id', '--note'],
} as const;
type ReconciliationCommand = keyof typeof COMMANDS;
const REQUIRED: Record<ReconciliationCommand, readonly string[]> = {
  reconcile: ['--provider', '--day'],
  'reconciliation-list': [],
  'reconciliation-handle': ['--id', '--note'],
};

export const isReconciliationCommand = (command: string): command is ReconciliationCommand =>
  Object.hasOwn(COMMANDS, command);

export interface ReconciliationCommandIo {
  now: number;
  cwd: string;
  env: Env;
  withDatabase: <T>(work: (opened: { repos: Repositories; secrets: ServerSecrets }) => Promise<T>) => Promise<T>;
}

type Outcome = CommandOutcome | { ok: false; usage: true; lines: string[] };

const yuan = (fen: number | null) => (fen === null ? '-' : formatFen(fen));

function differenceRows(differences: readonly ReconciliationDifferenceView[]): string[] {
  if (differences.length === 0) return ['  no differences'];
  return formatTable(
    ['id', 'day', 'provider', 'kind', 'payment', 'refund', 'order', 'ours', 'theirs', 'handled'],
    differences.map((d) => [
      String(d.id),
      d.day,
      d.provider,
      d.kind,
      d.paymentId ?? '-',
      d.refundNo ?? '-',
      d.orderNo ?? '-',
      d.oursFen === null
        ? '-'
        : `${yuan(d.oursFen)}${d.ourStatus && d.ourStatus !== 'paid' && d.ourStatus !== 'done' ? ` (${d.ourStatus})` : ''}`,
      yuan(d.theirsFen),
      d.handledAt === null
        ? 'open'
        : `${formatRaceTime(d.handledAt)} ${d.handledByName ?? d.handledBy ?? ''}: ${d.note ?? ''}${d.stillFound ? '' : ' (no longer found)'}`,
    ]),
  );
}

function runLines(answer: ReconcileAnswer): string[] {
  const { run } = answer;
  return [
    `Reconciled ${run.provider} ${run.day} (${run.source === 'file' ? 'bill file' : 'fetched bill'}): ${run.status}.`,
    `  bill: ${run.billPayments} payments ${yuan(run.billPaidFen)} yuan, ${run.billRefunds} refunds ${yuan(run.billRefundFen)} yuan`,
    `  ours: ${run.ourPayments} payments ${yuan(run.ourPaidFen)} yuan, ${run.ourRefunds} refunds ${yuan(run.ourRefundFen)} yuan`,
    `  differences found: ${run.differences}`,
    ...differenceRows(answer.differences),
  ];
}

export async function runReconciliationCommand(
  command: ReconciliationCommand,
  argv: readonly string[],
  io: ReconciliationCommandIo,
): Promise<Outcome> {
  const parsed = parseCliOptions(command, argv, COMMANDS[command], REQUIRED[command]);
  if (!parsed.ok) return { ok: false, usage: true, lines: [parsed.problem] };
  const { options } = parsed;
  const now = () => io.now;
  return io.withDatabase(async ({ repos, secrets }): Promise<Outcome> => {
    // The providers the command line knows (the built-in ones), the sandbox's bill read from this database.
    const providers = cliPaymentProvider(io, secrets, (name, from, to) => ledgerOf(repos, name, from, to));
    if (command === 'reconciliation-handle') {
      const id = Number(options['--id']);
      if (!Number.isSafeInteger(id) || id < 1)
        return { ok: false, usage: true, lines: ['--id is a difference number.'] };
      const outcome = await handleDifference({ repos, now }, { id, note: options['--note'], actor: { kind: 'cli' } });
      if (!outcome.ok) return { ok: false, lines: [refusalText(outcome)] };
      return { ok: true, lines: [`Difference ${id} marked handled: ${outcome.value.note ?? ''}`] };
    }
    if (!providers) {
      return { ok: false, lines: ['PAYMENT_PROVIDER names no built-in provider: the command line knows no other.'] };
    }
    const deps: ReconciliationDeps = { repos, providers, now };
    if (command === 'reconciliation-list') {
      const outcome = await reconciliationView(deps, {
        provider: options['--provider'],
        from: options['--from'],
        to: options['--to'],
        state: options['--state'],
        kind: options['--kind'],
      });
      if (!outcome.ok) return { ok: false, lines: [refusalText(outcome)] };
      const { runs, differences } = outcome.value;
      const runRows =
        runs.length === 0
          ? ['  no runs']
          : formatTable(
              ['run', 'day', 'provider', 'source', 'by', 'at', 'status', 'bill', 'ours', 'differences'],
              runs.map((r) => [
                String(r.id),
                r.day,
                r.provider,
                r.source,
                r.staffName ?? r.actor,
                formatRaceTime(r.ranAt),
                r.status === 'failed' ? `failed: ${r.error ?? ''}` : r.status,
                `${r.billPayments}/${yuan(r.billPaidFen)} − ${r.billRefunds}/${yuan(r.billRefundFen)}`,
                `${r.ourPayments}/${yuan(r.ourPaidFen)} − ${r.ourRefunds}/${yuan(r.ourRefundFen)}`,
                String(r.differences),
              ]),
            );
      return { ok: true, lines: ['Runs:', ...runRows, 'Differences:', ...differenceRows(differences)] };
    }
    const provider = options['--provider'] ?? '';
    const day = options['--day'] ?? '';
    const file = options['--file'];
    let content: Buffer | undefined;
    if (file !== undefined) {
      try {
        content = readFileSync(path.resolve(io.cwd, file));
      } catch {
        return { ok: false, lines: [`Cannot read ${file}.`] };
      }
    }
    const actor = { kind: 'cli' } as const;
    const outcome =
      content === undefined
        ? await reconcileFetched(deps, { provider, day, actor })
        : await reconcileFile(deps, { provider, day, content, actor });
    if (!outcome.ok) return { ok: false, lines: [refusalText(outcome)] };
    return { ok: true, lines: runLines(outcome.value) };
  });
}
