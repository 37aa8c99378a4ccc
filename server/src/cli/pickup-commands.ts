/**
 * The organiser's pack pick-up commands (issue 15 §2; docs/after-entry.md), run by site.ts: issue and revoke
 * the check-in staff's keys (a key is printed once; only its sha256 is kept), check a pass in from the command
 * line (the same rule as the staff screen), and list or export the bookings per slot.
 */
import path from 'node:path';
import { normalizePassCode } from '#contract/after-entry';
import { STAFF_KEY_LABEL_MAX } from '#contract/console-pickup';
import { CONSOLE_MESSAGES, isConsoleMessageCode } from '#contract/console-messages';
import { fillMessage, messageText } from '#contract/messages';
import { formatRaceTime } from '#contract/race-clock';
import { raceTimeZone } from '#contract/time-zone';
import type { Repositories } from '../db/repositories.ts';
import {
  checkInPass,
  issueStaffKey,
  pickupExportTable,
  pickupSlotFigures,
  revokeStaffKey,
} from '../services/after-entry/pickup.ts';
import { raceById } from '../services/races.ts';
import { formatTable } from './entry-commands.ts';
import type { CommandOutcome } from './registration-screens-commands.ts';
import { parseCliOptions } from './cli-options.ts';
import { writeTableFile } from './output-file.ts';

export const PICKUP_USAGE = `  staff-key-issue --race <raceId> --label <text>
      a new key for the pick-up check-in screen (/#/pickup-check-in) of the race, printed ONCE
      (only its hash is kept); the label names the desk or person (1-40 characters, one active
      key per label)
  staff-key-revoke --race <raceId> --label <text>
      the label's key stops working at once
  pickup-checkin --race <raceId> --pass <code>
      marks the pass's race pack collected, once (as the staff screen does): prints the holder
      (name, masked certificate, item, bib, slot), or when it was already collected; a pass
      outside its booked day and slot is handed over too (you typed it), and the line says so
  pickup-list --race <raceId>
      per pick-up slot: capacity, booked (not yet collected), collected, places left
  pickup-export --race <raceId> --out <file.xlsx|file.csv>
      every live booking: slot, status, pass code, entry number, name, item, bib, times; created
      readable by you only`;

const COMMANDS = {
  'staff-key-issue': ['--race', '--label'],
  'staff-key-revoke': ['--race', '--label'],
  'pickup-checkin': ['--race', '--pass'],
  'pickup-list': ['--race'],
  'pickup-export': ['--race', '--out'],
} as const satisfies Record<string, readonly string[]>;
type PickupCommand = keyof typeof COMMANDS;

export const isPickupCommand = (command: string): command is PickupCommand => Object.hasOwn(COMMANDS, command);

export interface PickupCommandIo {
  now: number;
  cwd: string;
  /** Runs work on the database (opened and closed around it). */
  withDatabase: <T>(work: (opened: { repos: Repositories }) => Promise<T>) => Promise<T>;
}

export type PickupCommandOutcome = CommandOutcome | { ok: false; usage: true; lines: string[] };

const done = (...lines: string[]): CommandOutcome => ({ ok: true, lines });
const refused = (...lines: string[]): CommandOutcome => ({ ok: false, lines });
const usage = (line: string): PickupCommandOutcome => ({ ok: false, usage: true, lines: [line] });

const LABEL_MAX = STAFF_KEY_LABEL_MAX;
/** The command line in the audit log (these commands record their own records, as the console does). */
const CLI = { kind: 'cli' } as const;

/** Runs a pick-up command with its arguments (after the command name). */
export async function runPickupCommand(
  command: PickupCommand,
  argv: readonly string[],
  io: PickupCommandIo,
): Promise<PickupCommandOutcome> {
  const parsed = parseCliOptions(command, argv, COMMANDS[command], COMMANDS[command]);
  if (!parsed.ok) return usage(parsed.problem);
  const { options } = parsed;
  const raceId = options['--race']!;
  const label = options['--label'];
  if (label !== undefined && label.length > LABEL_MAX) return usage(`--label is 1-${LABEL_MAX} characters.`);

  return io.withDatabase(async ({ repos }) => {
    const race = await raceById(repos, raceId);
    if (!race) return refused(`No race ${raceId}.`);
    const zone = raceTimeZone(race);
    const time = (ms: number | null) => (ms === null ? '' : formatRaceTime(ms, 'YYYY-MM-DD HH:mm:ss', zone));
    switch (command) {
      case 'staff-key-issue': {
        const key = await issueStaffKey(repos, raceId, label!, io.now, CLI);
        if (key === undefined) {
          return refused(`${raceId} already has an active staff key labelled "${label}": revoke it first.`);
        }
        return done(
          `Staff key "${label}" of ${raceId} (shown once, keep it private; revoke with staff-key-revoke):`,
          key,
        );
      }
      case 'staff-key-revoke': {
        if (!(await revokeStaffKey(repos, raceId, label!, io.now, CLI)))
          return refused(`${raceId} has no active staff key labelled "${label}".`);
        return done(`revoked the staff key "${label}" of ${raceId}`);
      }
      case 'pickup-checkin': {
        const outcome = await checkInPass(repos, {
          raceId,
          passCode: normalizePassCode(options['--pass']!),
          by: 'cli',
          now: io.now,
          outsideSlotConfirmed: true,
          actor: CLI,
        });
        if (!outcome.ok) {
          const { code, params } = outcome.refusal;
          return refused(
            isConsoleMessageCode(code) ? fillMessage(CONSOLE_MESSAGES[code].en, params) : messageText(code, params),
          );
        }
        const a = outcome.value;
        const slot = a.slot ? `${a.slot.date} ${a.slot.start}-${a.slot.end}` : a.slotId;
        return done(
          `collected: ${a.name} (${a.certificateNumber}), ${a.itemName.zh} / ${a.itemName.en}, bib ${a.bib ?? '-'}, ` +
            `slot ${slot}${a.outsideSlot ? ' (outside the booked slot)' : ''}, entry ${a.entryNo}, at ${time(a.collectedAt)}`,
        );
      }
      case 'pickup-list': {
        const table = (await pickupSlotFigures(repos, race)).map((slot) => [
          `${slot.slotId}-${slot.end}`,
          String(slot.capacity),
          String(slot.booked),
          String(slot.collected),
          String(slot.left),
        ]);
        if (table.length === 0) return done(`${raceId} has no pick-up slots (race.json packPickup).`);
        const state = race.packPickup?.enabled ? `deadline ${race.packPickup.deadline}` : 'disabled';
        return done(
          `pick-up of ${raceId} (${state}):`,
          ...formatTable(['slot', 'capacity', 'booked', 'collected', 'left'], table),
        );
      }
      case 'pickup-export': {
        const out = options['--out']!;
        const csv = /\.csv$/i.test(out);
        if (!csv && !/\.xlsx$/i.test(out)) return refused('--out must name a .xlsx or .csv file.');
        const table = await pickupExportTable(repos, race, csv ? 'csv' : 'xlsx', CLI, io.now);
        const file = path.resolve(io.cwd, out);
        const problem = writeTableFile(file, table, `${raceId} pick-up`, io.now);
        if (problem) return refused(problem);
        return done(`wrote ${table.length - 1} booking(s) of ${raceId} to ${file}`);
      }
    }
  });
}
