/**
 * The organiser's ballot commands (issue 14 §3; docs/ballot.md), run by site.ts: ballot-commit (before the
 * sign-up window closes: publish the commitment, optionally naming a public beacon), ballot-draw (once entry
 * is closed: draw, move winners and losers, orders, wait list, messages, refunds recorded), ballot-reveal
 * (publish the seed), ballot-waitlist (an item's wait list in order, with who was promoted, when and why) and
 * ballot-verify (anyone: re-run a published draw from its JSON file or URL; exit 1 when it does not match).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { recheckDraw, type DrawEntry } from '#contract/ballot';
import { BEACON_MAX } from '#contract/console-ballot';
import { formatRaceTime } from '#contract/race-clock';
import enCommon from '../../../src/locales/en/common.json' with { type: 'json' };
import type { Repositories } from '../db/repositories.ts';
import type { Env } from '../lib/env.ts';
import type { PaymentProviderContext } from '../lib/payment/provider.ts';
import { makePaymentProviders, paymentProviderNames, type PaymentProviders } from '../lib/payment/registry.ts';
import { parseServerEnv } from '../lib/env.ts';
import type { ServerSecrets } from '../lib/secrets.ts';
import { BUILTIN_PAYMENT_PROVIDERS } from '../lib/payment/providers.ts';
import { commitBallot, drawRound, revealBallot, waitListOf } from '../services/entry/ballot.ts';
import { formatTable } from './entry-commands.ts';
import type { CommandOutcome } from './registration-screens-commands.ts';

export const BALLOT_USAGE = `  ballot-commit <raceId> <itemCode> [--beacon "<public value to come>"]
      before the sign-up window closes: a new secret seed (kept encrypted) and its commitment
      (SHA-256) for the item's next round; prints the commitment to publish. --beacon names a
      public value nobody knows yet (e.g. "China Welfare Lottery 3D draw of 2026-12-01"); its
      value is then required by ballot-draw and mixed into the draw.
  ballot-draw <raceId> <itemCode> [--round <n>] [--beacon-value "<value>"]
      once entry is closed (signUpEndTime passed, or entry-close): draws the round (default: the
      latest committed); winners get a place (ballot: an order to pay; pay-first: kept), losers
      the wait list (ballot) or a refund (pay-first: recorded with the draw, carried out and
      retried until confirmed; see refunds-owed), unpaid pay-first orders are closed; every
      runner gets the outcome by SMS/e-mail. Round 2+ (after a new ballot-commit) draws over the
      entries that did not win, for the places left.
  ballot-reveal <raceId> <itemCode> [--round <n>]
      publishes the seed of a drawn round (checked against its commitment)
  ballot-waitlist <raceId> <itemCode>
      the item's wait list in order: position, entry, masked name, status now, and for each
      entry promoted the time and why (whose place, freed how)
  ballot-verify <file.json | http(s) URL>
      re-runs a published draw (the ballot page's JSON, GET ${'/race-center/api/ballot'}) and
      prints whether the seed matches the commitment and the winners are identical (exit 1 if not)`;

const COMMANDS = ['ballot-commit', 'ballot-draw', 'ballot-reveal', 'ballot-waitlist', 'ballot-verify'] as const;
type BallotCommand = (typeof COMMANDS)[number];

export const isBallotCommand = (command: string): command is BallotCommand =>
  (COMMANDS as readonly string[]).includes(command);

export interface BallotCommandIo {
  now: number;
  cwd: string;
  env: Env;
  /** Runs work on the database (opened and closed around it). */
  withDatabase: <T>(work: (opened: { repos: Repositories; secrets: ServerSecrets }) => Promise<T>) => Promise<T>;
  /** Reads a URL (default: fetch). */
  fetchText?: (url: string) => Promise<string>;
}

/**
 * The payment providers PAYMENT_PROVIDER names that are built in (the command line knows no other), or
 * undefined when none is: each refund and close goes to the provider that took or made the payment
 * (lib/payment/registry.ts), built-in ones switched off since included.
 */
export function cliPaymentProvider(
  io: Pick<BallotCommandIo, 'env' | 'now'>,
  secrets: ServerSecrets,
  /** Our books as bill lines (the sandbox's bill: reconciliation), when the command has the database at hand. */
  ledger?: PaymentProviderContext['ledger'],
): PaymentProviders | undefined {
  const { PAYMENT_PROVIDER } = parseServerEnv(io.env, ['PAYMENT_PROVIDER']);
  const builtIn = paymentProviderNames(PAYMENT_PROVIDER).filter((name) =>
    Object.hasOwn(BUILTIN_PAYMENT_PROVIDERS, name),
  );
  if (builtIn.length === 0) return undefined;
  return makePaymentProviders(builtIn.join(','), BUILTIN_PAYMENT_PROVIDERS, {
    env: io.env,
    secret: secrets.payment,
    now: () => io.now,
    state: async () => ({ status: 'unknown', tradeNo: null, amountFen: null, paidAt: null }),
    ledger,
  });
}

export type BallotCommandOutcome = CommandOutcome | { ok: false; usage: true; lines: string[] };

const done = (...lines: string[]): CommandOutcome => ({ ok: true, lines });
const refused = (...lines: string[]): CommandOutcome => ({ ok: false, lines });
const usage = (line: string): BallotCommandOutcome => ({ ok: false, usage: true, lines: [line] });

function takeOption(args: string[], name: string): string | undefined | Error {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  if (value === undefined || value.startsWith('--')) return new Error(`${name} needs a value.`);
  args.splice(at, 2);
  return value;
}

/** Runs a ballot command with its arguments (after the command name). */
export async function runBallotCommand(
  command: BallotCommand,
  argv: readonly string[],
  io: BallotCommandIo,
): Promise<BallotCommandOutcome> {
  const args = [...argv];
  const beacon = command === 'ballot-commit' ? takeOption(args, '--beacon') : undefined;
  const beaconValue = command === 'ballot-draw' ? takeOption(args, '--beacon-value') : undefined;
  const roundText = command === 'ballot-draw' || command === 'ballot-reveal' ? takeOption(args, '--round') : undefined;
  for (const option of [beacon, beaconValue, roundText]) if (option instanceof Error) return usage(option.message);
  if ([beacon, beaconValue].some((v) => typeof v === 'string' && (v.trim() === '' || v.length > BEACON_MAX))) {
    return usage(`A beacon name or value is 1-${BEACON_MAX} characters.`);
  }
  const round =
    typeof roundText === 'string' ? (/^[1-9]\d{0,2}$/.test(roundText) ? Number(roundText) : NaN) : undefined;
  if (Number.isNaN(round)) return usage('--round must be a round number (1, 2, …).');
  const arity = command === 'ballot-verify' ? 1 : 2;
  if (args.length !== arity) {
    return usage(`"${command}" takes ${arity} argument${arity === 1 ? '' : 's'}, got ${args.length}.`);
  }
  const [raceId = '', itemCode = ''] = args;
  switch (command) {
    case 'ballot-commit':
      return io.withDatabase(async ({ repos }) => {
        const outcome = await commitBallot(repos, {
          raceId,
          itemCode,
          beacon: typeof beacon === 'string' ? beacon : undefined,
          now: io.now,
          actor: { kind: 'cli' },
        });
        if (!outcome.ok) return refused(outcome.problem);
        const { round: committed, commitment, beacon: named } = outcome.value;
        return done(
          `Committed round ${committed} of ${raceId} ${itemCode}. Publish this commitment now:`,
          `  commitment (SHA-256 of the seed): ${commitment}`,
          ...(named ? [`  beacon: ${named} (give its value to ballot-draw with --beacon-value)`] : []),
          'The seed stays encrypted in the database until ballot-reveal.',
        );
      });
    case 'ballot-draw':
      return io.withDatabase(async ({ repos, secrets }) => {
        const outcome = await drawRound(
          repos,
          {
            raceId,
            itemCode,
            round,
            beaconValue: typeof beaconValue === 'string' ? beaconValue : undefined,
            now: io.now,
            actor: { kind: 'cli' },
          },
          // From the command line only the built-in providers are known: with another one the refunds
          // recorded by the draw are carried out by the server's job runner.
          cliPaymentProvider(io, secrets),
        );
        if (!outcome.ok) return refused(outcome.problem);
        const d = outcome.value;
        const owed = d.refundsOwed - d.refunded;
        return done(
          `Drew round ${d.round} of ${raceId} ${itemCode} at ${formatRaceTime(io.now)}: ${d.entries} entries, ${d.places} places.`,
          `  winners: ${d.winners.length}${d.orders > 0 ? ` (${d.orders} orders to pay)` : ''}`,
          `  not drawn: ${d.waitList.length}${d.refundsOwed > 0 ? ` (${d.refundsOwed} refunds recorded: ${d.refunded} refunded now)` : ''}`,
          ...(owed > 0
            ? [
                `  ${owed} refund${owed === 1 ? '' : 's'} still owed: the server carries them out and retries until the provider confirms (see refunds-owed --race ${raceId})`,
              ]
            : []),
          ...(d.closed > 0 ? [`  unpaid orders closed (not drawn, cannot be paid any more): ${d.closed}`] : []),
          `  messages sent: ${d.messages}`,
          `Now run ballot-reveal ${raceId} ${itemCode} to publish the seed.`,
        );
      });
    case 'ballot-reveal':
      return io.withDatabase(async ({ repos }) => {
        const outcome = await revealBallot(repos, { raceId, itemCode, round, now: io.now, actor: { kind: 'cli' } });
        if (!outcome.ok) return refused(outcome.problem);
        return done(
          `Revealed round ${outcome.value.round} of ${raceId} ${itemCode}:`,
          `  seed: ${outcome.value.seed}`,
          'Anyone can now check the draw: npm run site -- ballot-verify <the ballot page URL or its JSON>.',
        );
      });
    case 'ballot-waitlist':
      return io.withDatabase(async ({ repos }) => {
        const outcome = await waitListOf(repos, raceId, itemCode);
        if (!outcome.ok) return refused(outcome.problem);
        if (outcome.value.length === 0)
          return done(`${raceId} ${itemCode} has no wait list (not drawn yet, or every entry won).`);
        const statuses = enCommon.enums.registrationStatuses as Record<string, string>;
        return done(
          `Wait list of ${raceId} ${itemCode}, in order (race clock):`,
          ...formatTable(
            ['position', 'entry', 'name', 'status', 'listed', 'promoted', 'why'],
            outcome.value.map((row) => [
              String(row.position),
              row.entryNo,
              row.maskedName,
              statuses[String(row.status)] ?? String(row.status),
              formatRaceTime(row.listedAt),
              row.promotedAt === null ? '-' : formatRaceTime(row.promotedAt),
              row.promotedAt === null ? (row.status === 2 ? 'waiting' : '-') : row.why || '-',
            ]),
          ),
        );
      });
    case 'ballot-verify':
      return verifyBallot(raceId, io);
  }
}

/** What a published record must hold for the draw to be re-run. */
interface PublishedDraw {
  round?: number;
  raceId?: string;
  itemCode?: string;
  commitment: string;
  beacon: string;
  seed: string | null;
  places: number;
  entries: DrawEntry[];
  winners: string[];
  waitList: string[];
}

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

/** The published record of a JSON text: an envelope's data or the record itself; undefined when malformed. */
export function parsePublished(text: string): PublishedDraw | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const envelope = json as { code?: unknown; data?: unknown };
  const data = (
    envelope && typeof envelope === 'object' && 'data' in envelope && 'code' in envelope ? envelope.data : json
  ) as Record<string, unknown> | null;
  if (!data || typeof data !== 'object') return undefined;
  const { commitment, beacon, seed, places, entries, winners, waitList } = data;
  if (typeof commitment !== 'string' || (seed !== null && seed !== undefined && typeof seed !== 'string')) {
    return undefined;
  }
  if (typeof places !== 'number' || !Number.isInteger(places) || places < 0) return undefined;
  if (!isStringArray(winners) || !isStringArray(waitList) || !Array.isArray(entries)) return undefined;
  const list: DrawEntry[] = [];
  for (const entry of entries as unknown[]) {
    const e = entry as { entryNo?: unknown; unit?: unknown } | null;
    if (
      !e ||
      typeof e.entryNo !== 'string' ||
      (e.unit !== null && e.unit !== undefined && typeof e.unit !== 'string')
    ) {
      return undefined;
    }
    list.push({ entryNo: e.entryNo, unit: e.unit ?? null });
  }
  return {
    round: typeof data.round === 'number' ? data.round : undefined,
    raceId: typeof data.raceId === 'string' ? data.raceId : undefined,
    itemCode: typeof data.itemCode === 'string' ? data.itemCode : undefined,
    commitment,
    beacon: typeof beacon === 'string' ? beacon : '',
    seed: typeof seed === 'string' ? seed : null,
    places,
    entries: list,
    winners,
    waitList,
  };
}

/** Re-runs a published draw: the seed against the commitment, the winners and the wait list. */
export async function verifyBallot(
  source: string,
  io: Pick<BallotCommandIo, 'cwd' | 'fetchText'>,
): Promise<CommandOutcome> {
  let text: string;
  try {
    if (/^https?:\/\//i.test(source)) {
      const fetchText =
        io.fetchText ??
        (async (url: string) => {
          const response = await fetch(url, { headers: { accept: 'application/json' } });
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          return response.text();
        });
      text = await fetchText(source);
    } else {
      text = readFileSync(path.resolve(io.cwd, source), 'utf8');
    }
  } catch (error) {
    return refused(`Cannot read ${source}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const published = parsePublished(text);
  if (!published) {
    return refused(
      `${source} is not a published ballot (commitment, beacon, seed, places, entries, winners, waitList).`,
    );
  }
  const head = `Ballot${published.raceId ? ` ${published.raceId}` : ''}${published.itemCode ? ` ${published.itemCode}` : ''}${
    published.round ? ` round ${published.round}` : ''
  }: ${published.entries.length} entries, ${published.places} places.`;
  if (published.seed === null) {
    return refused(
      head,
      'Commitment matches seed: no (the seed is not revealed yet)',
      'Winners identical: not checked',
    );
  }
  const check = recheckDraw({ ...published, seed: published.seed });
  const lines = [
    head,
    `Commitment matches seed: ${check.seedMatches ? 'yes' : 'no'}`,
    `Winners identical: ${check.winnersIdentical ? 'yes' : 'no'} (${check.redrawn} re-drawn, ${check.published} published)`,
    `Wait list identical: ${check.waitListIdentical ? 'yes' : 'no'}`,
  ];
  return check.seedMatches && check.winnersIdentical && check.waitListIdentical ? done(...lines) : refused(...lines);
}
