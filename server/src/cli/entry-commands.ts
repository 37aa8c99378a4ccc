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
import { ENTRY_CHANNELS, formatFen } from '#contract/entry';
import { ORDER_STATUS_KEYS, REGISTRATION_STATUS_KEYS } from '#contract/enums';
import { formatRaceTime } from '#contract/race-clock';
import { assignBibs, BIB_SERIES, type BibsOutcome } from '../services/entry/bibs.ts';
import { poolMoneyFigures, raceDashboard } from '../services/console/dashboard.ts';
import type { Repositories } from '../db/repositories.ts';
import { csvStream, formatCsv } from '../lib/csv.ts';
import { shownProblems } from '../lib/csv-table.ts';
import { maskName } from '../lib/race-center.ts';
import { listRaceEntries } from '../services/organiser/entries-list.ts';
import { partText, setEntrySwitch } from '../services/organiser/sign-up-switch.ts';
import { revokeCode } from '../services/organiser/season.ts';
import { codeState } from '#contract/season';
import {
  entryStatusText,
  EXPORT_LANGUAGES,
  openEntriesExport,
  type ExportLanguage,
} from '../services/organiser/entries-export.ts';
import { ENTRY_QUERY_MAX, parseEntryFilters } from '../services/console/entry-search.ts';
import { appendAudit } from '../services/staff/audit.ts';
import { xlsxStream } from '../lib/xlsx.ts';
import {
  CODE_LENGTH,
  CODE_NOTE_MAX,
  CODE_USES_MAX,
  codeKindLabel,
  CODES_PER_ISSUE_MAX,
  importNamedCodes,
  issueCodes,
  newInvitationCode,
  raceCodes,
} from '../services/organiser/invitation-codes.ts';
import {
  entrySettings,
  raceContext,
  findItem,
  unknownItemText,
  type RaceContext,
} from '../services/organiser/race-items.ts';
import enCommon from '../../../src/locales/en/common.json' with { type: 'json' };
import type { CommandOutcome } from './registration-screens-commands.ts';
import { writeOutputFile, writeOutputStream } from './output-file.ts';

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
  // A loop, not Math.max(...rows): a list of a hundred thousand codes is more arguments than a call takes.
  const widths = header.map((h, i) => {
    let width = displayWidth(h);
    for (const row of rows) width = Math.max(width, displayWidth(row[i] ?? ''));
    return width;
  });
  const line = (cells: readonly string[]) =>
    `  ${cells.map((cell, i) => (i === cells.length - 1 ? cell : cell + ' '.repeat(widths[i]! - displayWidth(cell)))).join('  ')}`.trimEnd();
  return [line(header), ...rows.map(line)];
}

/** The commands, their positional argument counts and the options they take (site.ts parses them). */
export const ENTRY_COMMANDS = {
  'entry-open': { arity: 1, options: ['--item', '--channel'] },
  'entry-close': { arity: 1, options: ['--item', '--channel'] },
  'codes-issue': { arity: 2, options: ['--count', '--uses', '--expires', '--note', '--out'] },
  'codes-import': { arity: 2, options: [] },
  'codes-list': { arity: 1, options: [] },
  'codes-revoke': { arity: 2, options: [] },
  'bibs-assign': { arity: 2, options: ['--prefix', '--from', '--width'] },
  'entries-list': { arity: 1, options: ['--item', '--status'] },
  'entries-export': {
    arity: 1,
    options: ['--out', '--lang', '--item', '--status', '--channel', '--search'],
    flags: ['--whole-numbers'],
  },
  'race-figures': { arity: 1, options: [] },
} as const satisfies Record<string, { arity: number; options: readonly string[]; flags?: readonly string[] }>;
export type EntryCommand = keyof typeof ENTRY_COMMANDS;
export const isEntryCommand = (command: string): command is EntryCommand => Object.hasOwn(ENTRY_COMMANDS, command);

export interface EntryCommandContext {
  now: number;
  /** Where relative file names are read and written. */
  cwd: string;
}

const orderStatusText = (status: number | null) => {
  const key = status === null ? undefined : ORDER_STATUS_KEYS[status];
  return key ? enCommon.enums.orderStatuses[key] : '';
};

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

const noRace = (raceId: string) => refused(`No race "${raceId}". Add it first with: site add-race <race.json>`);

const unknownItem = (context: RaceContext, text: string) => refused(unknownItemText(context, text));

/** A whole number within bounds, or undefined. */
function wholeNumber(text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined || !/^\d{1,9}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
}

export { CODE_LENGTH, newInvitationCode };

// ---------------------------------------------------------------------------------------------------------

async function setOpen(
  repos: Repositories,
  raceId: string,
  open: boolean,
  options: { item?: string; channel?: string },
  now: number,
): Promise<CommandOutcome> {
  const outcome = await setEntrySwitch(repos, { raceId, open, ...options, actor: { kind: 'cli' }, now });
  if (!outcome.ok) return refused(outcome.problem);
  const { race, itemCode, channel } = outcome;
  const word = open ? 'open' : 'closed';
  const notes: string[] = [];
  if (!entrySettings(race)) notes.push(`note: race ${raceId} has no sign-up items yet (race.json "entry")`);
  if (itemCode !== null || channel !== null) {
    const part = partText(itemCode, channel);
    if (!outcome.changed) return done(`${part} of ${raceId} is already ${word}; nothing changed`, ...notes);
    if (open && race.signUpOpenStatus !== 1 && channel !== 'code')
      notes.push(`note: the race's sign-up itself is closed; open it with: site entry-open ${raceId}`);
    return done(
      `${part} of ${raceId} (${race.raceName}) is now ${open ? 'open again (it follows the race)' : 'closed'}`,
      ...notes,
    );
  }
  const status = open ? 1 : 0;
  if (!outcome.changed) return done(`sign-up of ${raceId} is already ${word}; nothing changed`, ...notes);
  const window =
    race.signUpStartTime || race.signUpEndTime
      ? ` (window ${race.signUpStartTime ?? '…'} to ${race.signUpEndTime ?? '…'}, race clock)`
      : '';
  return done(`sign-up of ${raceId} (${race.raceName}) is now ${word}: signUpOpenStatus ${status}${window}`, ...notes);
}

async function codesRevoke(repos: Repositories, raceId: string, code: string, now: number): Promise<CommandOutcome> {
  const outcome = await revokeCode(repos, { raceId, code, actor: { kind: 'cli' }, now });
  if (!outcome.ok) {
    return outcome.reason === 'noRace'
      ? noRace(raceId)
      : refused(`No code "${code}" in ${raceId}. List them with: site codes-list ${raceId}`);
  }
  return outcome.changed
    ? done(`code ${code.trim().toUpperCase()} of ${raceId} is revoked: sign-up refuses it from now on`)
    : done(`code ${code.trim().toUpperCase()} of ${raceId} was revoked already; nothing changed`);
}

export interface CodesIssueOptions {
  count?: string;
  uses?: string;
  expires?: string;
  note?: string;
  out?: string;
}

async function codesIssue(
  repos: Repositories,
  raceId: string,
  itemText: string,
  options: CodesIssueOptions,
  context: EntryCommandContext,
): Promise<CommandOutcome> {
  const count = wholeNumber(options.count, 1, CODES_PER_ISSUE_MAX);
  if (count === undefined) return refused(`codes-issue needs --count N (1-${CODES_PER_ISSUE_MAX}).`);
  const uses = options.uses === undefined ? 1 : wholeNumber(options.uses, 1, CODE_USES_MAX);
  if (uses === undefined) return refused(`--uses must be a whole number from 1 to ${CODE_USES_MAX}.`);
  if ((options.note ?? '').trim().length > CODE_NOTE_MAX)
    return refused(`--note may have at most ${CODE_NOTE_MAX} characters.`);
  const out = options.out === undefined ? undefined : path.resolve(context.cwd, options.out);
  const issued = await issueCodes(repos, {
    raceId,
    item: itemText,
    count,
    uses,
    expires: options.expires,
    note: options.note,
    now: context.now,
    actor: { kind: 'cli' },
  });
  if (!issued.ok) return refused(issued.problem.replace(/^expiry: /, '--expires: ').replace(/([^.])$/, '$1.'));
  const { codes, itemCode, expiresAt, note } = issued;
  const expiresText = expiresAt === null ? '' : formatRaceTime(expiresAt, undefined, issued.race.zone);
  const lines = [
    `issued ${plural(codes.length, 'code')} for ${raceId} item ${itemCode}: ${uses === 1 ? 'single-use' : `${uses} uses each`}, ${expiresAt === null ? 'no expiry' : `expire ${expiresText} (race clock)`}`,
  ];
  if (out !== undefined) {
    const table: string[][] = [['code', 'itemCode', 'uses', 'expires', 'note']];
    for (const code of codes) table.push([code, itemCode, String(uses), expiresText, note]);
    const text = formatCsv(table);
    const problem = writeOutputFile(out, text);
    if (problem) return refused(`${problem} (the codes ARE issued; list them with: site codes-list ${raceId})`);
    lines.push(`wrote the codes to ${out}`);
  } else {
    for (const code of codes) lines.push(`  ${code}`);
  }
  return { ok: true, lines };
}

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
  const outcome = await importNamedCodes(repos, {
    raceId,
    text,
    source: path.basename(file),
    now: context.now,
    actor: { kind: 'cli' },
  });
  if (!outcome.ok) {
    if ('noRace' in outcome) return refused(...outcome.problems);
    const shown = shownProblems(outcome.problems).map((p) => `  ${p}`);
    return { ok: false, lines: [`Nothing imported from ${file}:`, ...shown] };
  }
  const { imported, skipped } = outcome;
  const lines = [
    `imported ${plural(imported.length, 'named code')} into ${raceId} (single use, each for the person named; certificates kept only as keyed hashes)${imported.length > 0 ? ':' : ''}`,
  ];
  for (const row of imported) lines.push(`  line ${row.line}: ${row.code}  ${row.itemCode}  ${maskName(row.name)}`);
  if (skipped.length > 0) {
    lines.push(
      `skipped ${plural(skipped.length, 'row')} whose person already has a named code for the item (imported before; nothing changed):`,
    );
    for (const row of skipped)
      lines.push(`  line ${row.line}: ${row.existing}  ${row.itemCode}  ${maskName(row.name)}`);
  }
  return { ok: true, lines };
}

async function codesList(repos: Repositories, raceId: string, now: number): Promise<CommandOutcome> {
  const race = await raceContext(repos, raceId);
  if (!race) return noRace(raceId);
  const codes = await raceCodes(repos, raceId);
  if (codes.length === 0)
    return done(`No invitation code for ${raceId}. Issue some with: site codes-issue ${raceId} <itemCode> --count N`);
  const open = codes.filter((c) => codeState(c, now) === 'usable').length;
  const table = formatTable(
    ['code', 'item', 'kind', 'used/uses', 'left', 'expires', 'named for', 'note'],
    codes.map((c) => {
      const revoked = c.revokedAt === null ? '' : ' (revoked)';
      const expired = c.expiresAt !== null && c.expiresAt <= now;
      const expires =
        c.expiresAt === null
          ? 'no expiry'
          : `${formatRaceTime(c.expiresAt, undefined, race.zone)}${expired ? ' (expired)' : ''}`;
      const named = c.kind === 'named' ? maskName(c.namedName ?? '') : '-';
      return [
        `${c.code}${revoked}`,
        c.itemCode,
        codeKindLabel(c),
        `${c.used}/${c.maxUses}`,
        String(Math.max(0, c.maxUses - c.used)),
        expires,
        named,
        c.note || '-',
      ];
    }),
  );
  return {
    ok: true,
    lines: [
      `${plural(codes.length, 'invitation code')} for ${raceId}, ${open} still usable (times: race clock, ${race.zone}):`,
    ].concat(table),
  };
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
  if (options.prefix === undefined || !BIB_SERIES.prefix.test(prefix)) {
    return refused('bibs-assign needs --prefix <letters or digits> (at most 10; --prefix "" for numbers only).');
  }
  const { from: fromRange, width: widthRange } = BIB_SERIES;
  const from = options.from === undefined ? fromRange.default : wholeNumber(options.from, fromRange.min, fromRange.max);
  if (from === undefined) return refused(`--from must be a whole number of at least ${fromRange.min}.`);
  const width =
    options.width === undefined ? widthRange.default : wholeNumber(options.width, widthRange.min, widthRange.max);
  if (width === undefined)
    return refused(`--width must be a whole number from ${widthRange.min} to ${widthRange.max}.`);
  const race = await raceContext(repos, raceId);
  if (!race) return noRace(raceId);
  const itemCode = findItem(race, itemText);
  if (!itemCode) return unknownItem(race, itemText);
  let outcome: BibsOutcome;
  try {
    outcome = await assignBibs(repos, { raceId, itemCode, prefix, from, width, now, actor: { kind: 'cli' } });
  } catch (error) {
    // The unique index entries_bib: another run gave one of these bibs meanwhile.
    return refused(`No bib assigned: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!outcome.ok && outcome.reason === 'otherItem') {
    return refused(
      `Bib ${outcome.bib} is already given to an entry of item ${outcome.itemCode}; no bib assigned.`,
      `Choose another --prefix or --from for item ${itemCode}.`,
    );
  }
  if (!outcome.ok && outcome.reason === 'conflict') {
    return refused('No bib assigned: another run gave one of these bibs meanwhile; run it again.');
  }
  if (!outcome.ok) {
    return refused(`Bib ${outcome.bib} does not fit --width ${width} (or is not a valid bib); no bib assigned.`);
  }
  if (outcome.given.length === 0) {
    return done(
      `No entry of ${raceId} item ${itemCode} awaits a bib (won or registered, paid or free, without a bib).`,
    );
  }
  const first = outcome.given[0]!.bib;
  const last = outcome.given[outcome.given.length - 1]!.bib;
  return {
    ok: true,
    lines: [
      `assigned ${plural(outcome.given.length, 'bib')} to ${raceId} item ${itemCode}: ${first}${first === last ? '' : ` to ${last}`}`,
    ].concat(outcome.given.map((g) => `  ${g.entryNo}  ${g.bib}`)),
  };
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
  const entries = await listRaceEntries(repos, raceId, { itemCode, status });
  const filter = [itemCode && `item ${itemCode}`, status !== undefined && `status ${status}`]
    .filter(Boolean)
    .join(', ');
  if (entries.length === 0) return done(`No entry for ${raceId}${filter ? ` with ${filter}` : ''}.`);
  const models = new Map((entrySettings(race.race)?.items ?? []).map((i) => [i.code, i.model]));
  return {
    ok: true,
    lines: [
      `${plural(entries.length, 'entry', 'entries')} for ${raceId}${filter ? ` (${filter})` : ''}; certificate numbers and phones masked (times: race clock, ${race.zone}):`,
    ].concat(
      formatTable(
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
        entries.map((e) => [
          e.entryNo,
          e.itemCode,
          e.channel,
          `${e.status} ${entryStatusText(e.status, 'en', models.get(e.itemCode), e.channel)}`,
          e.name,
          e.certificate ?? '(unreadable)',
          e.phone ?? '-',
          e.teamCode ?? '-',
          e.bib ?? '-',
          e.orderNo ? `${e.orderNo} ${orderStatusText(e.orderStatus)}` : '-',
          e.paidAt === null ? '-' : formatFen(e.paidFen),
          formatRaceTime(e.createdAt, undefined, race.zone),
        ]),
      ),
    ),
  };
}

export interface EntriesExportOptions {
  out?: string;
  lang?: string;
  wholeNumbers?: boolean;
  item?: string;
  status?: string;
  channel?: string;
  search?: string;
}

async function entriesExport(
  repos: Repositories,
  raceId: string,
  options: EntriesExportOptions,
  context: EntryCommandContext,
): Promise<CommandOutcome> {
  if (options.out === undefined || !/\.(xlsx|csv)$/i.test(options.out))
    return refused('entries-export needs --out <file.xlsx|file.csv>.');
  const language = options.lang ?? 'zh';
  if (!EXPORT_LANGUAGES.includes(language as ExportLanguage)) return refused('--lang must be zh or en.');
  // The console list's search and filters, checked by the same rule.
  const parsed = parseEntryFilters({ q: options.search, status: options.status, channel: options.channel });
  if (!parsed.ok) {
    return refused(
      {
        q: `--search is at most ${ENTRY_QUERY_MAX} characters.`,
        status: '--status must be 0, 1, 2, 3, 4 or 5.',
        channel: `--channel must be one of ${ENTRY_CHANNELS.join(', ')}.`,
      }[parsed.field],
    );
  }
  const opened = await openEntriesExport(repos, {
    raceId,
    ...parsed.filters,
    item: options.item,
    language: language as ExportLanguage,
    wholeNumbers: options.wholeNumbers,
  });
  if (!opened.ok) return refused(opened.problem);
  const file = path.resolve(context.cwd, options.out);
  const csv = /\.csv$/i.test(file);
  const problem = await writeOutputStream(
    file,
    csv
      ? csvStream(opened.header, opened.pages())
      : xlsxStream(`${raceId} entries`, opened.header, opened.pages(), new Date(context.now)),
  );
  if (problem) return refused(problem);
  const { q, status, channel } = parsed.filters;
  const filters = { q: q ?? null, item: opened.itemCode ?? null, status: status ?? null, channel: channel ?? null };
  // The export is recorded with what it held (the command line's generic record would not say).
  await appendAudit(
    repos,
    { kind: 'cli' },
    {
      action: 'entries.export',
      raceId,
      target: raceId,
      after: {
        format: csv ? 'csv' : 'xlsx',
        language,
        filters,
        rows: opened.total,
        wholeNumbers: opened.wholeNumbers,
        money: true,
      },
    },
    context.now,
  );
  const filterText = Object.entries({ item: filters.item, status: filters.status, channel: filters.channel })
    .filter(([, value]) => value !== null)
    .map(([key, value]) => `${key} ${value}`)
    .concat(q ? ['a search'] : []);
  const lines = [
    `wrote ${plural(opened.total, 'entry', 'entries')} of ${raceId}${filterText.length > 0 ? ` (${filterText.join(', ')})` : ''} to ${file}, with every answer of the registration form (${plural(opened.formFields.length, 'field')}, ${language} labels); readable by you only`,
    opened.wholeNumbers
      ? 'the file holds WHOLE certificate numbers and phones (--whole-numbers): keep it private and delete it when done'
      : 'certificate numbers and phones are masked; --whole-numbers writes them whole',
  ];
  const unreadable = opened.unreadable();
  if (unreadable > 0)
    lines.push(
      `note: ${unreadable} entr${unreadable === 1 ? 'y' : 'ies'} could not be read whole with this server's key`,
    );
  return done(...lines);
}

async function raceFigures(repos: Repositories, raceId: string, now: number): Promise<CommandOutcome> {
  const figures = await raceDashboard(repos, raceId, now);
  if (!figures) return noRace(raceId);
  // Orders and money per pool: the console's figures keep these to the race (a join of every order to its
  // entries), the command line takes the time.
  const money = await poolMoneyFigures(repos, raceId);
  const pools = figures.items.flatMap((item) =>
    [...item.pools]
      .sort((a, b) => a.pool.localeCompare(b.pool))
      .map((p) => {
        const paid = money.find((m) => m.itemCode === item.itemCode && m.pool === p.pool);
        return {
          ...p,
          itemCode: item.itemCode,
          orders: paid?.orders ?? {},
          paidFen: paid?.paidFen ?? 0,
          refundedFen: paid?.refundedFen ?? 0,
        };
      }),
  );
  const signUp = figures.signUpOpen ? 'open' : 'closed';
  const lines = [`figures of ${raceId} (${figures.raceName.zh}); sign-up ${signUp}; money in yuan`];
  if (pools.length === 0) lines.push('  no places and no entries yet');
  for (const p of pools) {
    const places =
      p.capacity === null ? 'no places set' : `capacity ${p.capacity}, taken ${p.taken ?? 0}, left ${p.left ?? 0}`;
    const entryCount = Object.values(p.entries).reduce((a, b) => a + b, 0);
    lines.push(
      `${p.itemCode} ${p.pool}: ${places}`,
      `  entries ${entryCount}: ${REGISTRATION_STATUS_KEYS.map((key, i) => `${FIGURE_STATUS_NAMES[key]} ${p.entries[i] ?? 0}`).join(', ')}`,
      `  orders: ${FIGURE_ORDER_STATUSES.map(([status, name]) => `${name} ${p.orders[status] ?? 0}`).join(', ')}`,
      `  revenue: paid ${formatFen(p.paidFen)}, refunded ${formatFen(p.refundedFen)}`,
    );
  }
  const { orders, money: race } = figures;
  lines.push(
    `race orders: ${FIGURE_ORDER_STATUSES.map(([status, name]) => `${name} ${orders[status] ?? 0}`).join(', ')}`,
    `race revenue: paid ${formatFen(race.paidFen)}, refunded ${formatFen(race.refundedFen)}, net ${formatFen(race.netFen)}`,
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
    case 'entry-close':
      return setOpen(
        repos,
        a,
        command === 'entry-open',
        {
          ...(options['--item'] === undefined ? {} : { item: options['--item'] }),
          ...(options['--channel'] === undefined ? {} : { channel: options['--channel'] }),
        },
        context.now,
      );
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
    case 'codes-revoke':
      return codesRevoke(repos, a, b, context.now);
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
      return entriesExport(
        repos,
        a,
        {
          out: options['--out'],
          lang: options['--lang'],
          wholeNumbers: options['--whole-numbers'] !== undefined,
          item: options['--item'],
          status: options['--status'],
          channel: options['--channel'],
          search: options['--search'],
        },
        context,
      );
    case 'race-figures':
      return raceFigures(repos, a, context.now);
  }
}
