/**
 * The organiser's commitment-letter commands (issue 15 §1), run by site.ts:
 * - `letters-export --race <id> --out <file.xlsx|.csv>`: every won entry with its item, name, certificate
 *   (masked), whether it signed the current version, an older one or not at all, when, and its co-signers.
 * - `letters-status --race <id>`: the letter's state and the counts, in total and per item.
 */
import path from 'node:path';
import type { Repositories } from '../db/repositories.ts';
import { exportLetters, letterRoster, letterState, type LetterStanding } from '../services/after-entry/letter.ts';
import { raceById } from '../services/races.ts';
import type { CommandOutcome } from './registration-screens-commands.ts';
import { parseCliOptions } from './cli-options.ts';
import { writeOutputFile } from './output-file.ts';

const done = (...lines: string[]): CommandOutcome => ({ ok: true, lines });
const refused = (...lines: string[]): CommandOutcome => ({ ok: false, lines });
const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/** The commands, their positional argument counts and the options they take (site.ts parses them). */
export const LETTER_COMMANDS = {
  'letters-export': { arity: 0, options: ['--race', '--out'] },
  'letters-status': { arity: 0, options: ['--race'] },
} as const satisfies Record<string, { arity: number; options: readonly string[] }>;
export type LetterCommand = keyof typeof LETTER_COMMANDS;
export const isLetterCommand = (command: string): command is LetterCommand => Object.hasOwn(LETTER_COMMANDS, command);

export const LETTER_USAGE = `  letters-export --race <raceId> --out <file.xlsx|file.csv>
      the commitment letter per registered entry (status 1): number, item, name, certificate
      (masked), signed the current version / an older version / not signed, signed at, the name
      signed, guardian and relative (name and relation)
  letters-status --race <raceId>
      the letter's state (open, ended, closed) and how many registered entries signed the current
      version, an older one or not at all, in total and per item`;

export interface LetterCommandContext {
  now: number;
  /** Where relative file names are written. */
  cwd: string;
}

export interface LetterCommandIo extends LetterCommandContext {
  /** Runs work on the database (opened and closed around it). */
  withDatabase: <T>(work: (opened: { repos: Repositories }) => Promise<T>) => Promise<T>;
}

export type LetterCommandOutcome = CommandOutcome | { ok: false; usage: true; lines: string[] };

/** Runs a letter command with its arguments (after the command name): options parsed here, then the database. */
export async function runLetterCommand(
  command: LetterCommand,
  argv: readonly string[],
  io: LetterCommandIo,
): Promise<LetterCommandOutcome> {
  const parsed = parseCliOptions(command, argv, LETTER_COMMANDS[command].options);
  if (!parsed.ok) return { ok: false, usage: true, lines: [parsed.problem] };
  return io.withDatabase(({ repos }) => letterCommand(repos, command, parsed.options, { now: io.now, cwd: io.cwd }));
}

const countsLine = (counts: Record<LetterStanding, number>) =>
  `${counts.current} signed the current version, ${counts.older} an older version, ${counts.unsigned} not signed`;

export async function letterCommand(
  repos: Repositories,
  command: LetterCommand,
  options: Record<string, string | undefined>,
  context: LetterCommandContext,
): Promise<CommandOutcome> {
  const raceId = options['--race'];
  if (!raceId) return refused(`${command} needs --race <raceId>.`);
  const race = await raceById(repos, raceId);
  if (!race) return refused(`No race "${raceId}".`);

  if (command === 'letters-export') {
    const out = options['--out'];
    if (!out || !/\.(xlsx|csv)$/i.test(out)) return refused('letters-export needs --out <file.xlsx> or <file.csv>.');
    const file = path.resolve(context.cwd, out);
    const format = /\.csv$/i.test(out) ? 'csv' : 'xlsx';
    const made = await exportLetters(repos, race, { format }, { kind: 'cli' }, context.now);
    if (!made.ok) return refused(`letters-export: bad ${made.field}.`);
    // Names and co-signers: owner-only.
    const problem = writeOutputFile(file, made.bytes);
    if (problem) return refused(problem);
    return done(
      `wrote ${plural(made.rows, 'registered entry', 'registered entries')} of ${raceId} to ${file}: ${countsLine(made.counts)}`,
    );
  }

  const roster = await letterRoster(repos, race);
  const state = letterState(race, context.now);
  const lines = [
    `${raceId}: commitment letter ${state}${roster.hash ? ` (version ${roster.hash.slice(0, 12)})` : ''}`,
    `  ${plural(roster.rows.length, 'registered entry', 'registered entries')}: ${countsLine(roster.counts)}`,
  ];
  const items = [...new Set(roster.rows.map((r) => r.itemCode))];
  for (const item of items) {
    const counts: Record<LetterStanding, number> = { current: 0, older: 0, unsigned: 0 };
    for (const row of roster.rows) if (row.itemCode === item) counts[row.standing] += 1;
    lines.push(`  ${item}: ${countsLine(counts)}`);
  }
  return done(...lines);
}
