/**
 * One entry from the command line (issue 30 §5), the same services as the console's entry page
 * (services/console/entry-detail.ts, entry-actions.ts), run by site.ts: entry-show, entry-personal (whole
 * numbers, recorded in the audit log) and the actions, each with --reason: entry-edit, entry-transfer,
 * entry-cancel, entry-pay-offline, entry-refund, entry-bib. Each action records itself in the audit log as the
 * command line's (cli:<user>@<host>, values before and after, personal numbers masked) and on the entry's
 * timeline, and the runner is told as the console's action tells them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CONSOLE_MESSAGES } from '#contract/console-messages';
import { OFFLINE_PAYMENT_METHODS } from '#contract/console-entry';
import { formatFen } from '#contract/entry';
import { REGISTRATION_STATUS_KEYS } from '#contract/enums';
import { fillMessage } from '#contract/messages';
import { formatRaceTime } from '#contract/race-clock';
import { raceTimeZone } from '#contract/time-zone';
import type { OpenedDatabase } from '../db/database.ts';
import type { Env } from '../lib/env.ts';
import { entryDetail, entryPersonal } from '../services/console/entry-detail.ts';
import {
  cancelEntry,
  editEntryAnswers,
  recordOfflinePayment,
  refundByOrganiser,
  setEntryBib,
  transferEntry,
  type EntryActionDeps,
  type EntryActionOutcome,
} from '../services/console/entry-actions.ts';
import { raceById } from '../services/races.ts';
import { cliPaymentProvider } from './ballot-commands.ts';
import { parseCliOptions } from './cli-options.ts';
import type { CommandOutcome } from './registration-screens-commands.ts';

export const ENTRY_ONE_USAGE = `  entry-show --race <raceId> --entry <entryNo>
      one entry: person (numbers masked), the form's answers, orders, payments, refunds, timeline
      with who took each step, letter, pick-up, mailing, requests
  entry-personal --race <raceId> --entry <entryNo>
      the entry's whole certificate number and phone (the reading is recorded in the audit log)
  entry-edit --race <raceId> --entry <entryNo> --values <answers.json> --reason "<text>"
      replace the form's answers (a JSON object, as the public form sends them), checked by the
      race's published form like a sign-up; the runner is told
  entry-transfer --race <raceId> --entry <entryNo> --values <answers.json> --reason "<text>"
      give a registered entry to another person (only when race.json entry.allowTransfer is true)
  entry-cancel --race <raceId> --entry <entryNo> --reason "<text>" [--refund yes]
      cancel a submitted or registered entry: its place goes back (a ballot item's wait list moves),
      an unpaid order is cancelled with it; --refund yes also refunds what its paid order holds for
      it (as entry-refund does, once per order)
  entry-pay-offline --race <raceId> --entry <entryNo> --fen <amount> --method <${OFFLINE_PAYMENT_METHODS.join('|')}>
      --reference <receipt no> --reason "<text>"
      record money received offline for the entry's order awaiting payment (its whole amount, in
      fen): the order is paid as a provider's notification pays it
  entry-refund --race <raceId> --entry <entryNo> [--fen <amount>] --reason "<text>"
      refund the entry's paid order through the payment provider, whole (default) or --fen of it,
      once per order; retried by the server until the provider confirms it (refunds-owed). An order
      paid offline is given back by hand and recorded as refunded at once
  entry-bib --race <raceId> --entry <entryNo> --bib <bib> --reason "<text>"
      give a registered entry its bib or another one (unique in the race)
      Every action needs --reason (1-500 characters) and is recorded in the audit log.`;

const COMMANDS = {
  'entry-show': { options: ['--race', '--entry'], optional: [] },
  'entry-personal': { options: ['--race', '--entry'], optional: [] },
  'entry-edit': { options: ['--race', '--entry', '--values', '--reason'], optional: [] },
  'entry-transfer': { options: ['--race', '--entry', '--values', '--reason'], optional: [] },
  'entry-cancel': { options: ['--race', '--entry', '--reason', '--refund'], optional: ['--refund'] },
  'entry-pay-offline': {
    options: ['--race', '--entry', '--fen', '--method', '--reference', '--reason'],
    optional: [],
  },
  'entry-refund': { options: ['--race', '--entry', '--fen', '--reason'], optional: ['--fen'] },
  'entry-bib': { options: ['--race', '--entry', '--bib', '--reason'], optional: [] },
} as const satisfies Record<string, { options: readonly string[]; optional: readonly string[] }>;
export type EntryOneCommand = keyof typeof COMMANDS;
export const isEntryOneCommand = (command: string): command is EntryOneCommand => Object.hasOwn(COMMANDS, command);

interface EntryOneIo {
  now: number;
  cwd: string;
  env: Env;
  withDatabase: <T>(work: (opened: OpenedDatabase) => Promise<T>) => Promise<T>;
}
type Outcome = CommandOutcome | { ok: false; usage: true; lines: string[] };

const cli = { kind: 'cli' } as const;

/** A refusal as the console's English message. */
function refusalLines(outcome: Extract<EntryActionOutcome<unknown>, { ok: false }>): string[] {
  const lines = [`Refused: ${fillMessage(CONSOLE_MESSAGES[outcome.code].en, outcome.params)}.`];
  for (const [key, refusal] of Object.entries(outcome.fields ?? {})) {
    lines.push(`  ${key}: ${refusal.code}${refusal.params ? ` ${JSON.stringify(refusal.params)}` : ''}`);
  }
  return lines;
}

/** A whole number of fen from its text; undefined when it is not one. */
const fenOf = (text: string | undefined) => (text !== undefined && /^\d{1,12}$/.test(text) ? Number(text) : undefined);

export async function runEntryOneCommand(
  command: EntryOneCommand,
  argv: readonly string[],
  io: EntryOneIo,
): Promise<Outcome> {
  const spec = COMMANDS[command];
  const required = spec.options.filter((o) => !(spec.optional as readonly string[]).includes(o));
  const parsed = parseCliOptions(command, argv, spec.options, required);
  if (!parsed.ok) return { ok: false, usage: true, lines: [parsed.problem] } satisfies Outcome;
  const o = parsed.options;
  const raceId = o['--race']!;
  const entryNo = o['--entry']!;
  const reason = o['--reason'];
  let values: unknown;
  if (o['--values'] !== undefined) {
    try {
      values = JSON.parse(readFileSync(path.resolve(io.cwd, o['--values']), 'utf8')) as unknown;
    } catch (error) {
      return {
        ok: false,
        lines: [`Cannot read ${o['--values']} as JSON: ${error instanceof Error ? error.message : String(error)}`],
      } satisfies Outcome;
    }
  }
  for (const name of ['--fen'] as const) {
    if (o[name] !== undefined && fenOf(o[name]) === undefined) {
      return { ok: false, usage: true, lines: [`${name} is a whole number of fen (1 yuan = 100 fen).`] } as const;
    }
  }
  if (o['--refund'] !== undefined && o['--refund'] !== 'yes' && o['--refund'] !== 'no') {
    return { ok: false, usage: true, lines: ['--refund is yes or no.'] } as const;
  }
  const fen = fenOf(o['--fen']);
  return io.withDatabase(async ({ repos, files, secrets }): Promise<Outcome> => {
    const deps: EntryActionDeps = {
      repos,
      files,
      provider: cliPaymentProvider({ env: io.env, now: io.now }, secrets),
      now: () => io.now,
    };
    const finish = <T>(outcome: EntryActionOutcome<T>, lines: (value: T) => string[]): Outcome =>
      outcome.ok ? { ok: true, lines: lines(outcome.value) } : { ok: false, lines: refusalLines(outcome) };
    switch (command) {
      case 'entry-show': {
        const detail = await entryDetail(repos, raceId, entryNo);
        if (!detail) return { ok: false, lines: [`No entry ${entryNo} in race ${raceId}.`] };
        const race = await raceById(repos, raceId);
        const zone = race ? raceTimeZone(race) : undefined;
        const time = (at: number | null) => (at === null ? '' : formatRaceTime(at, undefined, zone));
        const who = (s: (typeof detail.timeline)[number]) =>
          s.actor.kind === 'staff'
            ? `staff ${s.actor.name}`
            : s.actor.kind === 'cli'
              ? `cli ${s.actor.name}`
              : s.actor.kind;
        return {
          ok: true,
          lines: [
            `${detail.entryNo}  ${detail.itemCode} (${detail.itemName.en})  ${detail.channel}  status ${detail.status} (${REGISTRATION_STATUS_KEYS[detail.status] ?? ''})${detail.bib ? `  bib ${detail.bib}` : ''}`,
            `  ${detail.person.name}  ${detail.person.birthday}  certificate ${detail.person.certMasked}  phone ${detail.person.phoneMasked}`,
            ...(detail.answers ?? []).map((a) => `  ${a.label.en || a.label.zh}: ${JSON.stringify(a.value)}`),
            ...detail.orders.map(
              (order) =>
                `  order ${order.orderNo} status ${order.status}: ${formatFen(order.amountFen)} yuan, paid ${formatFen(order.paidFen)}, refunded ${formatFen(order.refundedFen)}`,
            ),
            'timeline:',
            ...detail.timeline.map((s) => `  ${time(s.at)}  ${s.step}  ${who(s)}${s.note ? `  ${s.note}` : ''}`),
            `letter: ${detail.letter.signed ? `signed ${time(detail.letter.signedAt)} by ${detail.letter.signerName}${detail.letter.current ? '' : ' (older version)'}` : 'not signed'}`,
            `pick-up: ${detail.pickup ? `${detail.pickup.slotId} ${detail.pickup.status}` : 'not booked'}`,
            `mailing: ${detail.mailing ? detail.mailing.method : 'none chosen'}`,
          ],
        };
      }
      case 'entry-personal': {
        const whole = await entryPersonal(repos, raceId, entryNo, cli, io.now);
        if (!whole) return { ok: false, lines: [`No entry ${entryNo} in race ${raceId}.`] };
        return { ok: true, lines: [`certificate ${whole.certNumber}`, `phone ${whole.phone}`] };
      }
      case 'entry-edit':
        return finish(await editEntryAnswers(deps, raceId, entryNo, { values, reason }, cli), () => [
          `Changed the answers of ${entryNo}; the runner is told.`,
        ]);
      case 'entry-transfer':
        return finish(await transferEntry(deps, raceId, entryNo, { values, reason }, cli), () => [
          `Transferred ${entryNo} to the new person; the runner is told.`,
        ]);
      case 'entry-cancel':
        return finish(
          await cancelEntry(deps, raceId, entryNo, { reason, refund: o['--refund'] === 'yes' }, cli),
          (r) => [
            `Cancelled ${entryNo}${r.placeGiven ? '; its place is given back' : ''}${r.orderCancelled ? '; its unpaid order is cancelled' : ''}.`,
            ...(r.refund
              ? [
                  r.refund.offline
                    ? `  Refund of ${formatFen(r.refund.amountFen)} yuan recorded: it was paid offline, give it back by hand.`
                    : r.refund.refundedFen > 0
                      ? `  Refunded ${formatFen(r.refund.refundedFen)} yuan: confirmed by the payment provider now.`
                      : `  Refund of ${formatFen(r.refund.amountFen)} yuan recorded, not confirmed by the provider yet: the server retries it (refunds-owed --race ${raceId}).`,
                ]
              : r.paidFen > 0
                ? [
                    `  Its order was paid ${formatFen(r.paidFen)} yuan: refund it with entry-refund (or cancel with --refund yes) if the money goes back.`,
                  ]
                : []),
          ],
        );
      case 'entry-pay-offline':
        return finish(
          await recordOfflinePayment(
            deps,
            raceId,
            entryNo,
            { amountFen: fen, method: o['--method'], reference: o['--reference'], reason },
            cli,
          ),
          (r) => [`Recorded ${formatFen(r.amountFen)} yuan received offline: order ${r.orderNo} is paid.`],
        );
      case 'entry-refund':
        return finish(await refundByOrganiser(deps, raceId, entryNo, { amountFen: fen, reason }, cli), (r) => [
          `Refund of ${formatFen(r.amountFen)} yuan of order ${r.orderNo} recorded${r.whole ? '; the entry gave its place back' : ''}.`,
          r.offline
            ? '  The order was paid offline: give the money back by hand; it is recorded as refunded.'
            : r.refundedFen > 0
              ? '  Confirmed by the payment provider now.'
              : `  Not confirmed by the provider yet: the server retries it until it is (refunds-owed --race ${raceId}).`,
        ]);
      case 'entry-bib':
        return finish(await setEntryBib(deps, raceId, entryNo, { bib: o['--bib'], reason }, cli), (r) => [
          r.changed ? `Bib ${r.bib} given to ${entryNo}.` : `${entryNo} already has bib ${r.bib}: nothing changed.`,
        ]);
    }
  });
}
