/**
 * The organiser's race-pack mailing commands (issue 15 §5), run by site.ts:
 * - `mailing-export --race <id> --out <file.xlsx|.csv>`: every runner who chose mailing, keyed by account id,
 *   with WHOLE phone numbers for the courier (the one place they are written whole; the file is created
 *   readable by its owner only).
 * - `mailing-import --race <id> --file <tracking.csv>`: columns key,carrier,trackingNo; marks each parcel
 *   shipped and messages its runner; refused rows are reported by line without stopping the good ones.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Repositories } from '../db/repositories.ts';
import { exportMailing, importTracking } from '../services/after-entry/mailing.ts';
import { raceById } from '../services/races.ts';
import type { CommandOutcome } from './registration-screens-commands.ts';
import { writeOutputFile } from './output-file.ts';

const done = (...lines: string[]): CommandOutcome => ({ ok: true, lines });
const refused = (...lines: string[]): CommandOutcome => ({ ok: false, lines });
const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/** The commands, their positional argument counts and the options they take (site.ts parses them). */
export const MAILING_COMMANDS = {
  'mailing-export': { arity: 0, options: ['--race', '--out'] },
  'mailing-import': { arity: 0, options: ['--race', '--file'] },
} as const satisfies Record<string, { arity: number; options: readonly string[] }>;
export type MailingCommand = keyof typeof MAILING_COMMANDS;
export const isMailingCommand = (command: string): command is MailingCommand =>
  Object.hasOwn(MAILING_COMMANDS, command);

export const MAILING_USAGE = `  mailing-export --race <raceId> --out <file.xlsx|file.csv>
      the runners who chose race-pack mailing: key (the account id), name, phone, province, city,
      district, address, their entries (number, item, bib), carrier, tracking number, shipped time.
      The file holds WHOLE phone numbers for the courier (nowhere else are they shown): it is
      created readable by you only; keep it private and delete it when the packs are sent.
  mailing-import --race <raceId> --file <tracking.csv>
      tracking numbers, columns key,carrier,trackingNo (key as exported): marks each parcel shipped
      and messages its runner (SMS or e-mail, Chinese and English) with the carrier and number; a
      bad row (unknown key, a pick-up runner, empty carrier or number) is reported by its line and
      skipped, the good rows are imported; the same file again changes nothing.`;

export interface MailingCommandContext {
  now: number;
  /** Where relative file names are read and written. */
  cwd: string;
}

export async function mailingCommand(
  repos: Repositories,
  command: MailingCommand,
  options: Record<string, string | undefined>,
  context: MailingCommandContext,
): Promise<CommandOutcome> {
  const raceId = options['--race'];
  if (!raceId) return refused(`${command} needs --race <raceId>.`);
  const race = await raceById(repos, raceId);
  if (!race) return refused(`No race "${raceId}".`);

  if (command === 'mailing-export') {
    const out = options['--out'];
    if (!out || !/\.(xlsx|csv)$/i.test(out)) return refused('mailing-export needs --out <file.xlsx> or <file.csv>.');
    const file = path.resolve(context.cwd, out);
    const format = /\.csv$/i.test(out) ? 'csv' : 'xlsx';
    // Whole phones: the courier's copy, written readable by its owner only; the export is in the audit log.
    const made = await exportMailing(repos, race, { format, wholePhones: true }, { kind: 'cli' }, context.now);
    const problem = writeOutputFile(file, made.bytes);
    if (problem) return refused(problem);
    return done(
      `wrote ${plural(made.rows, 'runner')} who chose mailing for ${raceId} to ${file} (${made.counts.shipped} shipped; ${plural(made.counts.pickups, 'runner')} collect on site)`,
      'the file holds WHOLE phone numbers for the courier: keep it private and delete it when the packs are sent',
    );
  }

  const fileText = options['--file'];
  if (!fileText) return refused('mailing-import needs --file <tracking.csv>.');
  let text: string;
  try {
    text = readFileSync(path.resolve(context.cwd, fileText), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return refused(`Cannot read ${fileText}: ${code === 'ENOENT' ? 'no such file' : String(code ?? error)}`);
  }
  const outcome = await importTracking(repos, race, text, { kind: 'cli' }, context.now);
  if (outcome.fileProblem) return refused(`Nothing imported from ${fileText}: ${outcome.fileProblem}`);
  const summary = `${raceId}: ${plural(outcome.shipped, 'parcel')} marked shipped (runners messaged), ${outcome.unchanged} unchanged`;
  if (outcome.problems.length === 0) return done(summary);
  // The good rows are in; the refused ones are listed and the command ends with exit 1 so a script notices.
  return refused(
    summary,
    `${plural(outcome.problems.length, 'row')} refused:`,
    ...outcome.problems.map((problem) => `  ${problem.text}`),
  );
}
