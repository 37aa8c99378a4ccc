/**
 * The organiser's sign-up commands (issue 14 §6), run by site.ts: open and close sign-up, issue and import
 * invitation codes, assign bibs, list and export entries, and the figures of a race. Each answers the lines to
 * print, or the lines of its refusal (exit 1). The ballot's commands live in ballot-commands.ts.
 *
 * Certificate numbers and phones stay masked in what these commands print; `entries-export` is the one place
 * they are written whole (an .xlsx created readable by its owner only).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  entryStatusLabel,
  formatFen,
  INVITATION_CODE_PATTERN,
  normalizeCode,
  type EntryChannel,
  type EntryModel,
  type EntrySettings,
} from '#contract/entry';
import { isCertificateType, ORDER_STATUS_KEYS, REGISTRATION_STATUS_KEYS } from '#contract/enums';
import { messageText } from '#contract/messages';
import { formatRaceTime, parseRaceTime } from '#contract/race-clock';
import { checkBib, checkCertificateNumber, checkName } from '#contract/rules';
import type { RaceInfo } from '#contract/site-config/race-types';
import { raceTimeZone } from '#contract/time-zone';
import { randomText } from '../db/entries-repository.ts';
import type { NewInvitationCode } from '../db/entry-admin-repository.ts';
import type { Repositories } from '../db/repositories.ts';
import { CsvSyntaxError, formatCsv, parseCsv } from '../lib/csv.ts';
import { maskCertNo, maskMobile, maskName, normalizeCertNo, normalizeName } from '../lib/race-center.ts';
import enCommon from '../../../src/locales/en/common.json' with { type: 'json' };
import zhCommon from '../../../src/locales/zh/common.json' with { type: 'json' };
import type { CommandOutcome } from './registration-screens-commands.ts';
import { writeOutputFile, writeTableFile } from './output-file.ts';

const done = (...lines: string[]): CommandOutcome => ({ ok: true, lines });
const refused = (...lines: string[]): CommandOutcome => ({ ok: false, lines });
const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/** Columns a text takes in a terminal: East Asian wide and full-width characters take two. */
const displayWidth = (text: string) =>
  [...text].reduce(
    (width, char) =>
      width +
      (/[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/u.test(char)
        ? 2
        : 1),
    0,
  );

/** Rows as an aligned table (two spaces between columns, indented by two). */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, i) => Math.max(displayWidth(h), ...rows.map((row) => displayWidth(row[i] ?? ''))));
  const line = (cells: readonly string[]) =>
    `  ${cells.map((cell, i) => (i === cells.length - 1 ? cell : cell + ' '.repeat(widths[i]! - displayWidth(cell)))).join('  ')}`.trimEnd();
  return [line(header), ...rows.map(line)];
}

/** The commands, their positional argument counts and the options they take (site.ts parses them). */
export const ENTRY_COMMANDS = {
  'entry-open': { arity: 1, options: [] },
  'entry-close': { arity: 1, options: [] },
  'codes-issue': { arity: 2, options: ['--count', '--uses', '--expires', '--note', '--out'] },
  'codes-import': { arity: 2, options: [] },
  'codes-list': { arity: 1, options: [] },
  'bibs-assign': { arity: 2, options: ['--prefix', '--from', '--width'] },
  'entries-list': { arity: 1, options: ['--item', '--status'] },
  'entries-export': { arity: 1, options: ['--out'] },
  'race-figures': { arity: 1, options: [] },
} as const satisfies Record<string, { arity: number; options: readonly string[] }>;
export type EntryCommand = keyof typeof ENTRY_COMMANDS;
export const isEntryCommand = (command: string): command is EntryCommand => Object.hasOwn(ENTRY_COMMANDS, command);

export interface EntryCommandContext {
  now: number;
  /** Where relative file names are read and written. */
  cwd: string;
}

/**
 * The status texts of the SPA (contract entryStatusLabel: by the item's model and the entry's channel; enums of
 * src/locales/{en,zh}/common.json): one wording everywhere.
 */
const entryStatusText = (status: number, language: 'en' | 'zh', model?: EntryModel, channel?: string) => {
  const [, group, code] = entryStatusLabel(status, model, channel as EntryChannel).split('.') as [
    'enums',
    'registrationStatuses' | 'registrationStatusesPlaced',
    string,
  ];
  const texts: Record<string, string> = (language === 'en' ? enCommon : zhCommon).enums[group];
  return texts[code] ?? String(status);
};
const orderStatusText = (status: number | null) => {
  const key = status === null ? undefined : ORDER_STATUS_KEYS[status];
  return key ? enCommon.enums.orderStatuses[key] : '';
};
const certificateTypeText = (type: number) =>
  enCommon.enums.certificateTypes[String(type) as keyof typeof enCommon.enums.certificateTypes] ?? String(type);
const genderText = (gender: number) =>
  enCommon.enums.genders[String(gender) as keyof typeof enCommon.enums.genders] ?? String(gender);

/** Short names of the entry statuses for the figures. */
const FIGURE_STATUS_NAMES: Record<(typeof REGISTRATION_STATUS_KEYS)[number], string> = {
  submitted: 'submitted',
  won: 'won',
  notWon: 'not won',
  cancelled: 'cancelled',
  refundReview: 'refund under review',
  refunded: 'refunded',
};

/** Orders as the figures count them (an order is stored awaiting payment, paid, cancelled or refunded). */
const FIGURE_ORDER_STATUSES = [
  [1, 'awaiting payment'],
  [3, 'paid'],
  [4, 'cancelled'],
  [5, 'refunded'],
] as const;

const entrySettings = (race: RaceInfo): EntrySettings | undefined => (race as { entry?: EntrySettings }).entry;

interface RaceContext {
  race: RaceInfo;
  zone: string;
  /** The race's item codes: race.json `entry.items`, and any item that has places. */
  items: string[];
}

async function raceContext(repos: Repositories, raceId: string): Promise<RaceContext | undefined> {
  const race = await repos.races.findById(raceId);
  if (!race) return undefined;
  const items = [
    ...new Set([
      ...(entrySettings(race)?.items.map((i) => i.code) ?? []),
      ...(await repos.entryAdmin.placeItems(raceId)),
    ]),
  ];
  return { race, zone: raceTimeZone(race), items };
}

const noRace = (raceId: string) => refused(`No race "${raceId}". Add it first with: site add-race <race.json>`);

/** The race's item code for `text` (item codes compare without case), or undefined. */
const findItem = (context: RaceContext, text: string) =>
  context.items.find((code) => code === text) ??
  context.items.find((code) => code.toUpperCase() === text.toUpperCase());

const unknownItem = (context: RaceContext, text: string) =>
  refused(
    context.items.length === 0
      ? `Race ${context.race.raceId} has no sign-up items (race.json "entry.items").`
      : `No item "${text}" in race ${context.race.raceId} (items: ${context.items.join(', ')}).`,
  );

/** A whole number within bounds, or undefined. */
function wholeNumber(text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined || !/^\d{1,9}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** An expiry (race clock, YYYY-MM-DD HH:mm:ss) after `now`: its instant, or the problem. */
function expiry(text: string, zone: string, now: number): { at: number } | { problem: string } {
  const at = DATE_TIME.test(text) ? parseRaceTime(text, zone) : null;
  if (at === null) return { problem: `"${text}" is not a time YYYY-MM-DD HH:mm:ss (race clock, ${zone})` };
  if (at <= now) return { problem: `${text} is already past` };
  return { at };
}

/** Invitation codes: 10 letters or digits without look-alikes (0/O, 1/I/L), crypto random (entries' randomText). */
export const CODE_LENGTH = 10;
export const newInvitationCode = () => randomText(CODE_LENGTH);

/** `count` new codes that the race does not have yet. */
async function freshCodes(repos: Repositories, raceId: string, count: number, taken: Set<string> = new Set()) {
  const codes = new Set<string>();
  for (let attempt = 0; codes.size < count && attempt < 5; attempt += 1) {
    const batch = new Set<string>();
    while (batch.size < count - codes.size) {
      const code = newInvitationCode();
      if (!codes.has(code) && !taken.has(code)) batch.add(code);
    }
    const existing = await repos.entryAdmin.existingCodes(raceId, [...batch]);
    for (const code of batch) if (!existing.has(code)) codes.add(code);
  }
  return [...codes];
}

// ---------------------------------------------------------------------------------------------------------

async function setOpen(repos: Repositories, raceId: string, open: boolean, now: number): Promise<CommandOutcome> {
  const race = await repos.races.findById(raceId);
  if (!race) return noRace(raceId);
  const status = open ? 1 : 0;
  const word = open ? 'open' : 'closed';
  const notes: string[] = [];
  if (!entrySettings(race)) notes.push(`note: race ${raceId} has no sign-up items yet (race.json "entry")`);
  if (race.signUpOpenStatus === status)
    return done(`sign-up of ${raceId} is already ${word}; nothing changed`, ...notes);
  await repos.transaction(async (tx) => {
    // Read again inside the transaction: an edit of the race meanwhile (add-race) is kept.
    const current = (await tx.races.findById(raceId)) ?? race;
    await tx.races.save({ ...current, signUpOpenStatus: status }, now);
    // The public answers cached from the race's data are dropped on every instance (race-center data versions).
    await tx.entryAdmin.bumpRaceVersion(raceId);
  });
  const window =
    race.signUpStartTime || race.signUpEndTime
      ? ` (window ${race.signUpStartTime ?? '…'} to ${race.signUpEndTime ?? '…'}, race clock)`
      : '';
  return done(`sign-up of ${raceId} (${race.raceName}) is now ${word}: signUpOpenStatus ${status}${window}`, ...notes);
}

export interface CodesIssueOptions {
  count?: string;
  uses?: string;
  expires?: string;
  note?: string;
  out?: string;
}

export const CODE_NOTE_MAX = 200;
export const CODES_PER_ISSUE_MAX = 10_000;

async function codesIssue(
  repos: Repositories,
  raceId: string,
  itemText: string,
  options: CodesIssueOptions,
  context: EntryCommandContext,
): Promise<CommandOutcome> {
  const count = wholeNumber(options.count, 1, CODES_PER_ISSUE_MAX);
  if (count === undefined) return refused(`codes-issue needs --count N (1-${CODES_PER_ISSUE_MAX}).`);
  const uses = options.uses === undefined ? 1 : wholeNumber(options.uses, 1, 1_000_000);
  if (uses === undefined) return refused('--uses must be a whole number from 1 to 1000000.');
  const note = (options.note ?? '').trim();
  if (note.length > CODE_NOTE_MAX) return refused(`--note may have at most ${CODE_NOTE_MAX} characters.`);
  const race = await raceContext(repos, raceId);
  if (!race) return noRace(raceId);
  const itemCode = findItem(race, itemText);
  if (!itemCode) return unknownItem(race, itemText);
  let expiresAt: number | null = null;
  if (options.expires !== undefined) {
    const parsed = expiry(options.expires.trim(), race.zone, context.now);
    if ('problem' in parsed) return refused(`--expires: ${parsed.problem}.`);
    expiresAt = parsed.at;
  }
  const out = options.out === undefined ? undefined : path.resolve(context.cwd, options.out);
  const codes = await freshCodes(repos, raceId, count);
  if (codes.length < count) return refused('Could not draw enough new codes; nothing issued. Try again.');
  const rows: NewInvitationCode[] = codes.map((code) => ({
    raceId,
    code,
    itemCode,
    kind: 'multi',
    namedName: null,
    namedCertHash: null,
    maxUses: uses,
    expiresAt,
    note,
    createdAt: context.now,
  }));
  const inserted = await repos.transaction((tx) => tx.entryAdmin.insertCodes(rows));
  const expiresText = expiresAt === null ? '' : formatRaceTime(expiresAt, undefined, race.zone);
  const lines = [
    `issued ${plural(inserted, 'code')} for ${raceId} item ${itemCode}: ${uses === 1 ? 'single-use' : `${uses} uses each`}, ${expiresAt === null ? 'no expiry' : `expire ${expiresText} (race clock)`}`,
  ];
  if (out !== undefined) {
    const text = formatCsv([
      ['code', 'itemCode', 'uses', 'expires', 'note'],
      ...codes.map((code) => [code, itemCode, String(uses), expiresText, note]),
    ]);
    const problem = writeOutputFile(out, text);
    if (problem) return refused(`${problem} (the codes ARE issued; list them with: site codes-list ${raceId})`);
    lines.push(`wrote the codes to ${out}`);
  } else {
    lines.push(...codes.map((code) => `  ${code}`));
  }
  return done(...lines);
}

const IMPORT_COLUMNS = {
  required: ['itemCode', 'name', 'certificateType', 'certificateNumber'],
  optional: ['code', 'expires'],
};
const MAX_PROBLEMS = 200;

async function codesImport(
  repos: Repositories,
  raceId: string,
  file: string,
  context: EntryCommandContext,
): Promise<CommandOutcome> {
  let text: string;
  try {
    text = readFileSync(path.resolve(context.cwd, file), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return refused(`Cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : String(code ?? error)}`);
  }
  const race = await raceContext(repos, raceId);
  if (!race) return noRace(raceId);
  const nothing = (...problems: string[]) =>
    refused(`Nothing imported from ${file}:`, ...problems.map((p) => `  ${p}`));
  let records;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) return nothing(error.message);
    throw error;
  }
  const [header, ...rows] = records;
  if (!header) return nothing('the file is empty (expected a header row)');
  const columns = header.fields.map((f) => f.trim());
  const missing = IMPORT_COLUMNS.required.filter((c) => !columns.includes(c));
  if (missing.length > 0) return nothing(`line ${header.line}: missing column(s): ${missing.join(', ')}`);
  const unknown = columns.filter((c) => !IMPORT_COLUMNS.required.includes(c) && !IMPORT_COLUMNS.optional.includes(c));
  if (unknown.length > 0) return nothing(`line ${header.line}: unknown column(s): ${unknown.join(', ')}`);
  if (rows.length === 0) return nothing('the file has no data rows');

  const problems: string[] = [];
  const good: (NewInvitationCode & { line: number })[] = [];
  const codeLines = new Map<string, number>();
  for (const record of rows) {
    const problem = (field: string, message: string) => problems.push(`line ${record.line}: ${field}: ${message}`);
    if (record.fields.length !== columns.length) {
      problems.push(`line ${record.line}: expected ${columns.length} fields, found ${record.fields.length}`);
      continue;
    }
    const get = (name: string) => (columns.includes(name) ? (record.fields[columns.indexOf(name)] ?? '').trim() : '');
    const before = problems.length;
    const code = get('code') === '' ? '' : normalizeCode(get('code'));
    if (code !== '') {
      if (!INVITATION_CODE_PATTERN.test(code)) problem('code', 'must be 6-32 letters or digits');
      else if (codeLines.has(code)) problem('code', `duplicate of line ${codeLines.get(code)}`);
      else codeLines.set(code, record.line);
    }
    const itemCode = findItem(race, get('itemCode'));
    if (!itemCode)
      problem('itemCode', `no item "${get('itemCode')}" in the race (items: ${race.items.join(', ') || 'none'})`);
    const name = normalizeName(get('name'));
    const nameRefusal = checkName(name);
    if (nameRefusal) problem('name', messageText(nameRefusal.code, nameRefusal.params));
    const typeText = get('certificateType');
    const certType = /^[1-4]$/.test(typeText) ? Number(typeText) : NaN;
    const certNo = normalizeCertNo(get('certificateNumber'));
    if (!isCertificateType(certType)) problem('certificateType', 'must be 1 (ID card), 2 (passport), 3 or 4 (permits)');
    else {
      const refusal = checkCertificateNumber(certType, certNo);
      if (refusal) problem('certificateNumber', messageText(refusal.code, refusal.params));
    }
    let expiresAt: number | null = null;
    if (get('expires') !== '') {
      const parsed = expiry(get('expires'), race.zone, context.now);
      if ('problem' in parsed) problem('expires', parsed.problem);
      else expiresAt = parsed.at;
    }
    if (problems.length > before || !itemCode) continue;
    good.push({
      line: record.line,
      raceId,
      code,
      itemCode,
      kind: 'named',
      namedName: name,
      namedCertHash: repos.raceCenter.certHash(certNo),
      maxUses: 1,
      expiresAt,
      note: `imported from ${path.basename(file)}`,
      createdAt: context.now,
    });
  }
  const given = [...codeLines.keys()];
  const existing = await repos.entryAdmin.existingCodes(raceId, given);
  for (const code of existing) problems.push(`line ${codeLines.get(code)}: code: ${code} already exists in ${raceId}`);
  if (problems.length > 0) {
    problems.sort((a, b) => Number(/\d+/.exec(a)?.[0]) - Number(/\d+/.exec(b)?.[0]));
    const shown = problems.slice(0, MAX_PROBLEMS);
    if (problems.length > MAX_PROBLEMS) shown.push(`… and ${problems.length - MAX_PROBLEMS} more problems`);
    return nothing(...shown);
  }
  const generated = await freshCodes(repos, raceId, good.filter((g) => g.code === '').length, new Set(given));
  for (const row of good) if (row.code === '') row.code = generated.pop() ?? '';
  if (good.some((row) => row.code === '')) return nothing('could not draw enough new codes; try again');
  const inserted = await repos.transaction(async (tx) => {
    const n = await tx.entryAdmin.insertCodes(good);
    // A code made between the check and now: nothing of the file is kept.
    if (n !== good.length) throw new Error('a code of the file was created meanwhile');
    return n;
  });
  return done(
    `imported ${plural(inserted, 'named code')} into ${raceId} (single use, each for the person named; certificates kept only as keyed hashes):`,
    ...good.map((row) => `  line ${row.line}: ${row.code}  ${row.itemCode}  ${maskName(row.namedName ?? '')}`),
  );
}

async function codesList(repos: Repositories, raceId: string, now: number): Promise<CommandOutcome> {
  const race = await raceContext(repos, raceId);
  if (!race) return noRace(raceId);
  const codes = await repos.entryAdmin.listCodes(raceId);
  if (codes.length === 0)
    return done(`No invitation code for ${raceId}. Issue some with: site codes-issue ${raceId} <itemCode> --count N`);
  const open = codes.filter((c) => c.used < c.maxUses && (c.expiresAt === null || c.expiresAt > now)).length;
  return done(
    `${plural(codes.length, 'invitation code')} for ${raceId}, ${open} still usable (times: race clock, ${race.zone}):`,
    ...formatTable(
      ['code', 'item', 'kind', 'used/uses', 'left', 'expires', 'named for', 'note'],
      codes.map((c) => {
        const expired = c.expiresAt !== null && c.expiresAt <= now;
        const expires =
          c.expiresAt === null
            ? 'no expiry'
            : `${formatRaceTime(c.expiresAt, undefined, race.zone)}${expired ? ' (expired)' : ''}`;
        const named = c.kind === 'named' ? maskName(c.namedName ?? '') : '-';
        return [
          c.code,
          c.itemCode,
          c.kind === 'named' ? 'named' : 'multi',
          `${c.used}/${c.maxUses}`,
          String(Math.max(0, c.maxUses - c.used)),
          expires,
          named,
          c.note || '-',
        ];
      }),
    ),
  );
}

export interface BibOptions {
  prefix?: string;
  from?: string;
  width?: string;
}

async function bibsAssign(
  repos: Repositories,
  raceId: string,
  itemText: string,
  options: BibOptions,
  now: number,
): Promise<CommandOutcome> {
  const prefix = (options.prefix ?? '').trim().toUpperCase();
  if (options.prefix === undefined || !/^[A-Z0-9]{0,10}$/.test(prefix)) {
    return refused('bibs-assign needs --prefix <letters or digits> (at most 10; --prefix "" for numbers only).');
  }
  const from = options.from === undefined ? 1 : wholeNumber(options.from, 1, 999_999_999);
  if (from === undefined) return refused('--from must be a whole number of at least 1.');
  const width = options.width === undefined ? 5 : wholeNumber(options.width, 1, 10);
  if (width === undefined) return refused('--width must be a whole number from 1 to 10.');
  const race = await raceContext(repos, raceId);
  if (!race) return noRace(raceId);
  const itemCode = findItem(race, itemText);
  if (!itemCode) return unknownItem(race, itemText);
  const bibOf = (n: number) => `${prefix}${String(n).padStart(width, '0')}`;

  type Outcome = { ok: true; given: { entryNo: string; bib: string }[] } | { ok: false; lines: string[] };
  let outcome: Outcome;
  try {
    outcome = await repos.transaction(async (tx): Promise<Outcome> => {
      await tx.db.lock(`entry-bibs:${raceId}`);
      const waiting = await tx.entryAdmin.entriesAwaitingBib(raceId, itemCode);
      const held = await tx.entryAdmin.bibs(raceId);
      const plan: { id: number; entryNo: string; bib: string }[] = [];
      let n = from;
      for (const entry of waiting) {
        // Bibs of this item's series already given (an earlier run) are skipped; another item's bib is a clash.
        while (held.get(bibOf(n)) === itemCode) n += 1;
        const bib = bibOf(n);
        const other = held.get(bib);
        if (other !== undefined) {
          return {
            ok: false,
            lines: [
              `Bib ${bib} is already given to an entry of item ${other}; no bib assigned.`,
              `Choose another --prefix or --from for item ${itemCode}.`,
            ],
          };
        }
        if (String(n).length > width || checkBib(bib)) {
          return {
            ok: false,
            lines: [`Bib ${bib} does not fit --width ${width} (or is not a valid bib); no bib assigned.`],
          };
        }
        plan.push({ ...entry, bib });
        n += 1;
      }
      const given: { entryNo: string; bib: string }[] = [];
      for (const entry of plan) {
        if (await tx.entryAdmin.assignBib(entry.id, entry.bib, now)) given.push(entry);
      }
      return { ok: true, given };
    });
  } catch (error) {
    // The unique index entries_bib: another run gave one of these bibs meanwhile.
    return refused(`No bib assigned: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!outcome.ok) return refused(...outcome.lines);
  if (outcome.given.length === 0) {
    return done(
      `No entry of ${raceId} item ${itemCode} awaits a bib (won or registered, paid or free, without a bib).`,
    );
  }
  const first = outcome.given[0]!.bib;
  const last = outcome.given[outcome.given.length - 1]!.bib;
  return done(
    `assigned ${plural(outcome.given.length, 'bib')} to ${raceId} item ${itemCode}: ${first}${first === last ? '' : ` to ${last}`}`,
    ...outcome.given.map((g) => `  ${g.entryNo}  ${g.bib}`),
  );
}

export interface EntriesListOptions {
  item?: string;
  status?: string;
}

async function entriesList(repos: Repositories, raceId: string, options: EntriesListOptions): Promise<CommandOutcome> {
  const race = await raceContext(repos, raceId);
  if (!race) return noRace(raceId);
  let itemCode: string | undefined;
  if (options.item !== undefined) {
    itemCode = findItem(race, options.item);
    if (!itemCode) return unknownItem(race, options.item);
  }
  const status = options.status === undefined ? undefined : wholeNumber(options.status, 0, 5);
  if (options.status !== undefined && status === undefined) return refused('--status must be 0, 1, 2, 3, 4 or 5.');
  const entries = await repos.entryAdmin.listEntries(raceId, { itemCode, status });
  const filter = [itemCode && `item ${itemCode}`, status !== undefined && `status ${status}`]
    .filter(Boolean)
    .join(', ');
  if (entries.length === 0) return done(`No entry for ${raceId}${filter ? ` with ${filter}` : ''}.`);
  const models = new Map((entrySettings(race.race)?.items ?? []).map((i) => [i.code, i.model]));
  return done(
    `${plural(entries.length, 'entry', 'entries')} for ${raceId}${filter ? ` (${filter})` : ''}; certificate numbers and phones masked (times: race clock, ${race.zone}):`,
    ...formatTable(
      [
        'entry no',
        'item',
        'channel',
        'status',
        'name',
        'certificate',
        'phone',
        'team',
        'bib',
        'order',
        'paid',
        'created',
      ],
      entries.map((e) => {
        const cert = repos.entryAdmin.decrypt(e.certEnc);
        const phone = repos.entryAdmin.decrypt(e.phoneEnc);
        return [
          e.entryNo,
          e.itemCode,
          e.channel,
          `${e.status} ${entryStatusText(e.status, 'en', models.get(e.itemCode), e.channel)}`,
          e.name,
          cert ? maskCertNo(cert) : '(unreadable)',
          phone ? maskMobile(phone) : '-',
          e.teamCode ?? '-',
          e.bib ?? '-',
          e.orderNo ? `${e.orderNo} ${orderStatusText(e.orderStatus)}` : '-',
          e.paidAt === null ? '-' : formatFen(e.paidFen),
          formatRaceTime(e.createdAt, undefined, race.zone),
        ];
      }),
    ),
  );
}

/** The export's columns (bilingual headers: the organiser's staff read either). */
export const EXPORT_HEADERS = [
  'Entry no 报名号',
  'Item 项目',
  'Item name 项目名称',
  'Channel 渠道',
  'Status 状态',
  'Status (zh) 状态',
  'Name 姓名',
  'Gender 性别',
  'Birthday 出生日期',
  'Certificate type 证件类型',
  'Certificate number 证件号码',
  'Phone 手机号',
  'Team 团队',
  'Bib 号码布',
  'Order no 订单号',
  'Paid (yuan) 实付金额（元）',
  'Paid at 支付时间',
  'Created at 报名时间',
] as const;

async function entriesExport(
  repos: Repositories,
  raceId: string,
  outText: string | undefined,
  context: EntryCommandContext,
): Promise<CommandOutcome> {
  if (outText === undefined || !/\.xlsx$/i.test(outText)) return refused('entries-export needs --out <file.xlsx>.');
  const race = await raceContext(repos, raceId);
  if (!race) return noRace(raceId);
  const items = new Map((entrySettings(race.race)?.items ?? []).map((i) => [i.code, i]));
  const entries = await repos.entryAdmin.listEntries(raceId);
  const time = (ms: number | null) => (ms === null ? '' : formatRaceTime(ms, undefined, race.zone));
  let unreadable = 0;
  const rows = entries.map((e) => {
    const cert = repos.entryAdmin.decrypt(e.certEnc);
    const phone = repos.entryAdmin.decrypt(e.phoneEnc);
    if (!cert) unreadable += 1;
    const item = items.get(e.itemCode);
    return [
      e.entryNo,
      e.itemCode,
      item ? `${item.name.zh} / ${item.name.en}` : '',
      e.channel,
      entryStatusText(e.status, 'en', item?.model, e.channel),
      entryStatusText(e.status, 'zh', item?.model, e.channel),
      e.name,
      genderText(e.gender),
      e.birthday,
      certificateTypeText(e.certType),
      cert,
      phone,
      e.teamCode ? `${e.teamCode} ${e.teamName ?? ''}`.trim() : '',
      e.bib ?? '',
      e.orderNo ?? '',
      e.paidAt === null ? '' : formatFen(e.paidFen),
      time(e.paidAt),
      time(e.createdAt),
    ];
  });
  const file = path.resolve(context.cwd, outText);
  const problem = writeTableFile(file, [[...EXPORT_HEADERS], ...rows], `${raceId} entries`, context.now);
  if (problem) return refused(problem);
  const lines = [
    `wrote ${plural(entries.length, 'entry', 'entries')} of ${raceId} to ${file}`,
    'the file holds WHOLE certificate numbers and phones: keep it private and delete it when done',
  ];
  if (unreadable > 0) lines.push(`note: ${unreadable} certificate number(s) could not be read with this server's key`);
  return done(...lines);
}

async function raceFigures(repos: Repositories, raceId: string): Promise<CommandOutcome> {
  const race = await raceContext(repos, raceId);
  if (!race) return noRace(raceId);
  const pools = await repos.entryAdmin.poolFigures(raceId);
  // Items of race.json whose places are not set up yet (no entry submitted so far): their settings' capacity.
  for (const item of entrySettings(race.race)?.items ?? []) {
    for (const [pool, capacity] of [
      ['main', item.capacity],
      ['charity', item.charity?.capacity],
    ] as const) {
      if (capacity === undefined || pools.some((p) => p.itemCode === item.code && p.pool === pool)) continue;
      pools.push({
        itemCode: item.code,
        pool,
        capacity,
        taken: 0,
        entries: {},
        orders: {},
        paidFen: 0,
        refundedFen: 0,
      });
    }
  }
  pools.sort((a, b) =>
    a.itemCode === b.itemCode ? a.pool.localeCompare(b.pool) : a.itemCode.localeCompare(b.itemCode),
  );
  const totals = await repos.entryAdmin.orderTotals(raceId);
  const signUp = race.race.signUpOpenStatus === 1 ? 'open' : 'closed';
  const lines = [`figures of ${raceId} (${race.race.raceName}); sign-up ${signUp}; money in yuan`];
  if (pools.length === 0) lines.push('  no places and no entries yet');
  for (const p of pools) {
    const places =
      p.capacity === null
        ? 'no places set'
        : `capacity ${p.capacity}, taken ${p.taken ?? 0}, left ${Math.max(0, p.capacity - (p.taken ?? 0))}`;
    const entryCount = Object.values(p.entries).reduce((a, b) => a + b, 0);
    lines.push(
      `${p.itemCode} ${p.pool}: ${places}`,
      `  entries ${entryCount}: ${REGISTRATION_STATUS_KEYS.map((key, i) => `${FIGURE_STATUS_NAMES[key]} ${p.entries[i] ?? 0}`).join(', ')}`,
      `  orders: ${FIGURE_ORDER_STATUSES.map(([status, name]) => `${name} ${p.orders[status] ?? 0}`).join(', ')}`,
      `  revenue: paid ${formatFen(p.paidFen)}, refunded ${formatFen(p.refundedFen)}`,
    );
  }
  lines.push(
    `race orders: ${FIGURE_ORDER_STATUSES.map(([status, name]) => `${name} ${totals.orders[status] ?? 0}`).join(', ')}`,
    `race revenue: paid ${formatFen(totals.paidFen)}, refunded ${formatFen(totals.refundedFen)}, net ${formatFen(totals.paidFen - totals.refundedFen)}`,
  );
  return done(...lines);
}

/** Runs one entry command (arguments counted and options taken by site.ts). */
export function entryCommand(
  repos: Repositories,
  command: EntryCommand,
  args: readonly string[],
  options: Record<string, string | undefined>,
  context: EntryCommandContext,
): Promise<CommandOutcome> {
  const [a = '', b = ''] = args;
  switch (command) {
    case 'entry-open':
      return setOpen(repos, a, true, context.now);
    case 'entry-close':
      return setOpen(repos, a, false, context.now);
    case 'codes-issue':
      return codesIssue(
        repos,
        a,
        b,
        {
          count: options['--count'],
          uses: options['--uses'],
          expires: options['--expires'],
          note: options['--note'],
          out: options['--out'],
        },
        context,
      );
    case 'codes-import':
      return codesImport(repos, a, b, context);
    case 'codes-list':
      return codesList(repos, a, context.now);
    case 'bibs-assign':
      return bibsAssign(
        repos,
        a,
        b,
        { prefix: options['--prefix'], from: options['--from'], width: options['--width'] },
        context.now,
      );
    case 'entries-list':
      return entriesList(repos, a, { item: options['--item'], status: options['--status'] });
    case 'entries-export':
      return entriesExport(repos, a, options['--out'], context);
    case 'race-figures':
      return raceFigures(repos, a);
  }
}
