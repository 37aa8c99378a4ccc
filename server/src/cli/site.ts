/**
 * Organiser CLI: binds domains to races and publishes site configurations, directly on the server's
 * database (DATA_DIR, default <repo>/data). Run: node --import tsx server/src/cli/site.ts <command>.
 * Exit codes: 0 done, 1 refused or failed, 2 usage error.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { formChannel, isFormChannel } from '#contract/registration-form';
import type { ConfigProblem } from '#contract/site-config/document-limits';
import { copyDatabase, copyFolderFiles, CopyRefusedError } from '../db/copy-database.ts';
import { closeDatabase, openDatabase, type OpenedDatabase } from '../db/database.ts';
import type { Repositories } from '../db/repositories.ts';
import { isPostgresUrl } from '../db/engine.ts';
import { SECRET_NAMES, storeDatabaseSecret } from '../lib/secrets.ts';
import { importCsv, type ImportKind } from '../services/race-center-import/import-csv.ts';
import { runImportFile } from '../services/console/imports.ts';
import {
  directList,
  directReview,
  directShow,
  parseDirectStatus,
  REJECT_REASON_MAX,
  type CommandOutcome,
} from './registration-screens-commands.ts';
import { BALLOT_USAGE, isBallotCommand, runBallotCommand } from './ballot-commands.ts';
import { isPickupCommand, PICKUP_USAGE, runPickupCommand } from './pickup-commands.ts';
import { isLetterCommand, LETTER_USAGE, runLetterCommand } from './letter-commands.ts';
import { ENTRY_COMMANDS, entryCommand, isEntryCommand } from './entry-commands.ts';
import { isRefundCommand, REFUND_USAGE, runRefundCommand } from './refund-commands.ts';
import { isReconciliationCommand, RECONCILIATION_USAGE, runReconciliationCommand } from './reconciliation-commands.ts';
import { parseCliOptions } from './cli-options.ts';
import { ASSET_USAGE, isAssetCommand, runAssetCommand } from './asset-commands.ts';
import { isStaffCommand, runStaffCommand, STAFF_USAGE } from './staff-commands.ts';
import { ENTRY_ONE_USAGE, isEntryOneCommand, runEntryOneCommand } from './entry-one-commands.ts';
import { isSmsCommand, runSmsCommand, SMS_USAGE } from './sms-commands.ts';
import { appendAudit } from '../services/staff/audit.ts';
import {
  isMailingCommand,
  MAILING_COMMANDS,
  MAILING_USAGE,
  mailingCommand,
  type MailingCommand,
} from './mailing-commands.ts';
import { validateRaceInfo } from '../db/race-schema.ts';
import { inspectSiteConfigBytes } from '../db/site-config-publisher.ts';
import { bindDomain, domainsOverview, unbindDomain } from '../services/website/domains.ts';
import { publishSite } from '../services/website/site-drafts.ts';
import { saveRaceDocument } from '../services/races.ts';
import { inspectFormBytes } from '../db/registration-form-publisher.ts';
import { publishFormText } from '../services/registration/form-editor.ts';
import { toBindableDomain } from '../lib/domain.ts';
import { parseServerEnv } from '../lib/env.ts';
import { parseJsonText } from '../lib/json-text.ts';
import { dataPaths, DB_FILE_NAME, DEFAULT_DATA_DIR, DEFAULT_SEED_DIR } from '../lib/paths.ts';

export const USAGE = `Usage: site <command> [arguments]

Commands:
  list                          bound domains: race, published site configuration (md5, time); the
                                published registration forms (race, channel, version)
  bind <domain> <raceId>        bind a domain to a race (replaces an existing binding)
  unbind <domain>               remove a domain's binding
  validate <file.json>          check a site configuration; prints every error and warning with its
                                JSON path (exit 1 on errors; warnings alone still pass)
  publish <domain> <file.json>  validate, then publish a site configuration for a domain
  form-validate <file.json>     check a registration form; prints every problem with its JSON path
                                (exit 1 on problems)
  form-publish <raceId> <file.json> [--channel <name>]
      validate, then publish a registration form for a race and entry channel (default: the
      document's "channel", else public); the same document again publishes nothing new
  add-race <race.json>          add a race, or update it, from a RaceInfo JSON file (times are
                                YYYY-MM-DD HH:mm:ss, China time)
  import-results <raceId> <file.csv>
      results with splits; columns bib,name,gender,certificateNumber,birthday,item,chipTime
      [,gunTime][,5K,10K,...,HALF]; gender 1/M/男 or 2/F/女, times H:MM:SS; item: one of the
      race's items (race.json entry.items: 5K, 30K, HM, a trail…; M/H/10K when it has none).
      Rows replace results with the same bib; ranks are recomputed.
  import-registrations <raceId> <file.csv>
      columns name,gender,birthday,certificateType(1-4),certificateNumber,phone,emergencyName,
      emergencyPhone,item,status(0-5)[,bib,orderNo,subOrderNo,createTime,serialNo,payTime,
      amountPaid,orderAmount,coupon,discount,channel,channelName,channelNameEn]; channel
      web|app|third-party (or 3|5|2, default web), channelName(En) the third-party platform.
      Rows replace the same certificate number.
  import-photos <raceId> <file.csv>
      columns bib,url,takenAt (YYYY-MM-DD HH:mm:ss).
                                CSV: UTF-8, a header row, RFC 4180 quoting. Every bad row is
                                reported as "line N: field: problem" and nothing is written.
  direct-list <raceId> [--status 0|1|2|3]
      the race's direct-pass applications: id, status (0 waiting to submit, 1 submitted awaiting
      review, 2 approved, 3 rejected), masked name, submitted time
  direct-show <id>              one application: statuses, times and every value (certificate and
                                phone numbers masked; a claimed result spelled out)
  direct-approve <id>           approve a submitted application (status 1)
  direct-reject <id> --reason "<text>"
      reject a submitted application; the runner reads the reason in /direct and may correct and
      submit again
${MAILING_USAGE}
${SMS_USAGE}
  entry-open <raceId> / entry-close <raceId> [--item <code>] [--channel <name>]
      open or close sign-up (race info signUpOpenStatus 1 / 0); the site shows it within seconds.
      With --item and/or --channel (public, direct, code, team, charity): close that part only (an
      item on every channel, a channel on every item, or one item's channel), or open it again
  codes-issue <raceId> <itemCode> --count N [--uses K] [--expires "YYYY-MM-DD HH:mm:ss"]
      [--note <text>] [--out codes.csv]
      N (up to 500000) random invitation codes (10 letters and digits, no look-alikes) for an item:
      single use, or K uses each; expiry on the race clock; printed, or written to the CSV file
  codes-import <raceId> <file.csv>
      named single-use codes, one per person: columns itemCode,name,certificateType(1-4),
      certificateNumber[,code][,expires]; a blank code is generated; the certificate is kept only
      as a keyed hash (the code works for that person only). A person who already has a named
      code for the item is skipped and reported: the same file again imports nothing twice
  codes-list <raceId>           the race's codes: item, kind (named, single or multi use),
                                used/uses, left, expiry, named person, revoked
  codes-revoke <raceId> <code>  revoke a code: sign-up refuses it from now on (its uses stay listed)
  bibs-assign <raceId> <itemCode> --prefix <A> [--from 1] [--width 5]
      bibs (prefix + number, e.g. A00001) for the item's registered entries (status 1) that are
      paid or free, in entry order; entries with a bib keep it, so a second run only adds; refused
      when a bib of the series belongs to another item
  entries-list <raceId> [--item <code>] [--status 0-5]
      the entries: number, item, channel, status, name, certificate and phone MASKED, team, bib,
      order, paid amount, created time
  entries-export <raceId> --out <file.xlsx|file.csv> [--lang zh|en] [--whole-numbers]
      [--item <code>] [--status 0-5] [--channel <channel>] [--search <text>]
      every entry with EVERY answer of its registration form (shirt size, e-mail, emergency
      contact, any custom field), one column per field headed by the form's own label (zh, or
      --lang en), each entry read with the form version it was filled on; created readable by you
      only. Certificate numbers and phones are masked; --whole-numbers writes them whole (nowhere
      else are they shown whole: keep that file private). --search finds as the console's list does
      (name, phone, certificate, entry, order or bib number); each export is in the audit log
  race-figures <raceId>
      per item and pool: places (capacity, taken), entries by status, orders by status, money paid
      and refunded (yuan); the race's order totals
  copy-to-postgres <postgres-url>
      copy this data folder's database (DATA_DIR) into a new, empty PostgreSQL database: every
      race, binding, site configuration, account, registration, result and photo, with their ids
      and the secrets that key the stored hashes; published configs and uploads go into the
      database too unless FILE_STORAGE=folder. Then start the server with DATABASE_URL=<url> and
      ID_NUMBER_SECRET set to the contents of DATA_DIR/id-number-secret (never kept in the database).
${BALLOT_USAGE}
${REFUND_USAGE}
${RECONCILIATION_USAGE}
${PICKUP_USAGE}
${LETTER_USAGE}
${ASSET_USAGE}
${STAFF_USAGE}
${ENTRY_ONE_USAGE}
  help                          show this help

Formats: docs/site-config.md describes every field of a site configuration and of race.json, with
examples; docs/site-config.schema.json lets an editor check a site configuration while you type.
docs/registration-form.md describes the registration-form document: every field type and rule.

Environment: DATA_DIR (default <repo>/data), SEED_DIR (default server/seed), DATABASE_URL (PostgreSQL
instead of DATA_DIR's SQLite, with ID_NUMBER_SECRET; see docs/operations.md).
Exit codes: 0 done, 1 refused or failed, 2 usage error.`;

export interface CliIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  env: Record<string, string | undefined>;
  cwd: string;
  now: () => number;
}

const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

class CliExit extends Error {
  constructor(
    readonly exitCode: number,
    readonly lines: string[],
  ) {
    super(lines.join('\n'));
  }
}

/** A usage error: its message, then the usage of the command that was run (added where it is caught). */
const usageError = (message: string) => new CliExit(EXIT.usage, [message]);

/**
 * The help's lines of one command: its usage line and the lines under it (more indented), from USAGE, so a
 * usage error shows what the command takes without the whole help. Empty for an unknown command.
 */
export function commandUsage(command: string): string[] {
  const lines = USAGE.split('\n');
  const names = (line: string) =>
    line
      .trim()
      .split(' / ')
      .map((part) => part.split(/\s/)[0]);
  const at = lines.findIndex((line) => /^ {2}\S/.test(line) && names(line).includes(command));
  if (at < 0) return [];
  const block = [lines[at]!];
  for (let i = at + 1; i < lines.length && /^ {3,}\S/.test(lines[i]!); i += 1) block.push(lines[i]!);
  return block;
}

export const HELP_HINT = 'See `npm run site -- help` for every command.';

/** What a usage error prints after its message: the command's usage (when it is one), then the hint. */
const usageLines = (command: string | undefined) => {
  const usage = command === undefined ? [] : commandUsage(command);
  return ['', ...(usage.length > 0 ? ['Usage:', ...usage, ''] : []), HELP_HINT];
};
const failure = (...lines: string[]) => new CliExit(EXIT.failed, lines);

const ARITY: Record<string, number> = {
  list: 0,
  bind: 2,
  unbind: 1,
  validate: 1,
  publish: 2,
  'form-validate': 1,
  'form-publish': 2,
  'add-race': 1,
  'import-results': 2,
  'import-registrations': 2,
  'import-photos': 2,
  'direct-list': 1,
  'direct-show': 1,
  'direct-approve': 1,
  'direct-reject': 1,
  'copy-to-postgres': 1,
  help: 0,
  ...Object.fromEntries(Object.entries(ENTRY_COMMANDS).map(([name, spec]) => [name, spec.arity])),
};

function readText(io: CliIo, file: string): { absolute: string; bytes: Buffer } {
  const absolute = path.resolve(io.cwd, file);
  try {
    return { absolute, bytes: readFileSync(absolute) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : String(code ?? error);
    throw failure(`Cannot read ${file}: ${reason}`);
  }
}

function readJson(io: CliIo, file: string): unknown {
  const { bytes } = readText(io, file);
  const parsed = parseJsonText(bytes.toString('utf8'));
  if (!parsed.ok) throw failure(`${file}: ${parsed.message}`);
  return parsed.value;
}

function domainArg(raw: string): string {
  const domain = toBindableDomain(raw);
  if (domain === null)
    throw usageError(`"${raw}" is not a host name (letters, digits, "-" and "."; not an IP address)`);
  return domain;
}

const formatTime = (ms: number) => new Date(ms).toISOString();

/** DATA_DIR and SEED_DIR (the server's env schema, lib/env.ts), relative to the working directory. */
function folders(io: CliIo): { dataDir: string; seedDir: string } {
  const env = parseServerEnv(io.env, ['DATA_DIR', 'SEED_DIR']);
  return {
    dataDir: path.resolve(io.cwd, env.DATA_DIR ?? DEFAULT_DATA_DIR),
    seedDir: path.resolve(io.cwd, env.SEED_DIR ?? DEFAULT_SEED_DIR),
  };
}

async function open(io: CliIo): Promise<OpenedDatabase> {
  const { dataDir, seedDir } = folders(io);
  try {
    return await openDatabase({ dataDir, seedDir, now: io.now(), env: io.env, warn: io.stderr });
  } catch (error) {
    const where = parseServerEnv(io.env, ['DATABASE_URL']).DATABASE_URL ? 'the PostgreSQL database' : dataDir;
    throw failure(`Cannot open the database in ${where}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function withDatabase<T>(io: CliIo, work: (opened: OpenedDatabase) => Promise<T>): Promise<T> {
  const opened = await open(io);
  try {
    return await work(opened);
  } finally {
    await closeDatabase(opened);
  }
}

async function list(io: CliIo): Promise<void> {
  await withDatabase(io, async ({ repos }) => {
    const { domains, forms } = await domainsOverview(repos);
    if (domains.length === 0) {
      io.stdout('No domain is bound. Bind one with: site bind <domain> <raceId>');
      return;
    }
    for (const { domainName, binding, published: config } of domains) {
      io.stdout(domainName);
      io.stdout(
        `  race:      ${binding ? `${binding.raceId} (${binding.race?.raceName ?? 'unknown race'})` : '(not bound)'}`,
      );
      io.stdout(
        `  published: ${config ? `${config.md5} at ${formatTime(config.publishedAt)}` : '(no site configuration)'}`,
      );
    }
    if (forms.length > 0) io.stdout('registration forms:');
    for (const form of forms) {
      io.stdout(
        `  ${form.raceId} ${form.channel}: version ${form.version}, ${form.md5} at ${formatTime(form.publishedAt)}`,
      );
    }
  });
}

async function bind(io: CliIo, rawDomain: string, raceId: string): Promise<void> {
  const domain = domainArg(rawDomain);
  await withDatabase(io, async ({ repos }) => {
    // The CLI's bind replaces a binding (it prints the race it was bound to); domain.bind in the audit log.
    const bound = await bindDomain(repos, domain, raceId, io.now(), { actor: { kind: 'cli' }, move: true });
    if (!bound.ok) throw failure(`No race "${raceId}". Add it first with: site add-race <race.json>`);
    const { previousRaceId } = bound;
    const was = previousRaceId !== undefined && previousRaceId !== raceId ? ` (was ${previousRaceId})` : '';
    io.stdout(`bound ${domain} to ${raceId} (${bound.race.raceName})${was}`);
    if (!bound.hasSiteConfig) {
      io.stdout(`note: ${domain} has no site configuration yet; publish one with: site publish ${domain} <file.json>`);
    }
  });
}

async function unbind(io: CliIo, rawDomain: string): Promise<void> {
  const domain = domainArg(rawDomain);
  await withDatabase(io, async ({ repos }) => {
    if (!(await unbindDomain(repos, domain, io.now(), { actor: { kind: 'cli' } })).ok) {
      throw failure(`${domain} is not bound`);
    }
    io.stdout(`unbound ${domain}`);
  });
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const problemLines = (problems: ConfigProblem[]) => problems.map((p) => `  ${p.path}: ${p.message}`);

function printWarnings(io: CliIo, warnings: ConfigProblem[]): void {
  if (warnings.length === 0) return;
  io.stdout(`${plural(warnings.length, 'warning')} (ignored by the site):`);
  for (const line of problemLines(warnings)) io.stdout(line);
}

function validate(io: CliIo, file: string): void {
  const { bytes } = readText(io, file);
  const { errors, warnings } = inspectSiteConfigBytes(bytes);
  if (errors.length > 0) {
    const lines = [
      `${file} is not a valid site configuration (${plural(errors.length, 'problem')}):`,
      ...problemLines(errors),
    ];
    if (warnings.length > 0)
      lines.push(`${plural(warnings.length, 'warning')} (ignored by the site):`, ...problemLines(warnings));
    throw failure(...lines);
  }
  io.stdout(warnings.length > 0 ? `valid, with ${plural(warnings.length, 'warning')}` : 'valid');
  printWarnings(io, warnings);
}

async function publish(io: CliIo, rawDomain: string, file: string): Promise<void> {
  const domain = domainArg(rawDomain);
  const { bytes } = readText(io, file);
  await withDatabase(io, async ({ repos, files }) => {
    // The console's publish (services/website/site-drafts.ts): the same checks, recorded as site.publish.
    const outcome = await publishSite(
      { repos, files, now: io.now },
      { domain, bytes, actor: { kind: 'cli' }, source: file },
    );
    if (!outcome.ok) {
      const errors = outcome.report?.errors ?? [];
      throw failure(
        `Refused to publish: ${file} is not a valid site configuration (${plural(errors.length, 'problem')}):`,
        ...problemLines(errors),
      );
    }
    const result = outcome.value;
    io.stdout(`published ${domain}`);
    io.stdout(`md5 ${result.md5}`);
    io.stdout(`uri ${result.uri}`);
    printWarnings(io, result.warnings);
    if (!result.bound) {
      io.stdout(`note: ${domain} is not bound to a race; bind it with: site bind ${domain} <raceId>`);
    }
  });
}

function formValidate(io: CliIo, file: string): void {
  const { bytes } = readText(io, file);
  const { form, problems } = inspectFormBytes(bytes);
  if (!form) {
    throw failure(
      `${file} is not a valid registration form (${plural(problems.length, 'problem')}):`,
      ...problemLines(problems),
    );
  }
  io.stdout(`valid: ${plural(form.fields.length, 'field')} for race ${form.raceId}, channel ${formChannel(form)}`);
}

async function formPublish(io: CliIo, raceId: string, file: string, channel: string | undefined): Promise<void> {
  const { bytes } = readText(io, file);
  await withDatabase(io, async ({ repos }) => {
    // The console's publication (services/registration/form-editor.ts), audited as form.publish by the CLI.
    const outcome = await publishFormText(
      repos,
      { kind: 'cli' },
      { raceId, channel, text: bytes.toString('utf8'), source: file },
      io.now(),
    );
    if (!outcome.ok) {
      const problems =
        outcome.reason === 'problems'
          ? outcome.problems
          : [{ path: '$', message: `the channel "${channel ?? ''}" must be lower-case letters, digits or "-"` }];
      throw failure(
        `Refused to publish: ${file} is not a valid registration form for ${raceId} (${plural(problems.length, 'problem')}):`,
        ...problemLines(problems),
      );
    }
    const result = outcome.value;
    io.stdout(
      result.unchanged
        ? `unchanged: this form is already published for ${result.raceId}, channel ${result.channel} (version ${result.version})`
        : `published the registration form of ${result.raceId}, channel ${result.channel}: version ${result.version}`,
    );
    io.stdout(`md5 ${result.md5}`);
  });
}

/** Takes `--name value` out of the arguments (for the commands that have options). */
function takeOption(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  if (value === undefined || value.startsWith('--')) throw usageError(`${name} needs a value.`);
  args.splice(at, 2);
  return value;
}

async function addRace(io: CliIo, file: string): Promise<void> {
  const raw = readJson(io, file);
  const result = validateRaceInfo(raw);
  if (!result.ok) {
    throw failure(
      `${file} is not a valid race (${plural(result.problems.length, 'problem')}):`,
      ...problemLines(result.problems),
    );
  }
  await withDatabase(io, async ({ repos }) => {
    // The console's save: the race, the places of its items and its slots together, refused when it would break
    // entries already made (a capacity below the places taken, an item with entries removed); race.add or
    // race.save in the audit log.
    const outcome = await saveRaceDocument(repos, { document: result.race, actor: { kind: 'cli' }, now: io.now() });
    if (!outcome.ok) throw failure(`${file}: ${outcome.refusal.problem}; nothing saved.`);
    io.stdout(
      `${outcome.saved === 'inserted' ? 'added' : 'updated'} race ${result.race.raceId} (${result.race.raceName})`,
    );
  });
}

async function importFile(io: CliIo, kind: ImportKind, raceId: string, file: string): Promise<void> {
  const { bytes } = readText(io, file);
  await withDatabase(io, async ({ repos }) => {
    const text = bytes.toString('utf8');
    let outcome;
    try {
      // Results and photos: the console's import too, recorded in the audit log by itself (import.<kind>).
      outcome =
        kind === 'registrations'
          ? await importCsv(repos, kind, raceId, text)
          : await runImportFile(repos, {
              kind,
              raceId,
              text,
              fileName: path.basename(file),
              actor: { kind: 'cli' },
              now: io.now(),
            });
    } catch (error) {
      throw failure(`Nothing imported: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!outcome.ok) {
      const texts = outcome.problems.map((p) => (typeof p === 'string' ? p : p.text));
      throw failure(`Nothing imported from ${file}:`, ...texts.map((p) => `  ${p}`));
    }
    io.stdout(outcome.summary);
  });
}

/** A registration-screens command (registration-screens-commands.ts) on the database: its lines, or its refusal. */
/** What a command family's runner gets: the clock, the folder, the environment and the database. */
interface FamilyIo {
  now: number;
  cwd: string;
  env: NodeJS.ProcessEnv;
  withDatabase: <T>(work: (opened: OpenedDatabase) => Promise<T>) => Promise<T>;
}
type FamilyOutcome = CommandOutcome | { ok: false; usage: true; lines: string[] };

/** A family of commands that parses its own options (cli-options.ts) and opens the database itself. */
function commandFamily<C extends string>(
  is: (command: string) => command is C,
  run: (command: C, argv: readonly string[], io: FamilyIo) => Promise<FamilyOutcome>,
) {
  return { is, run: (command: string, argv: readonly string[], io: FamilyIo) => run(command as C, argv, io) };
}

async function runMailingCommand(
  command: MailingCommand,
  argv: readonly string[],
  io: FamilyIo,
): Promise<FamilyOutcome> {
  const parsed = parseCliOptions(command, argv, MAILING_COMMANDS[command].options);
  if (!parsed.ok) return { ok: false, usage: true, lines: [parsed.problem] };
  return io.withDatabase(({ repos }) => mailingCommand(repos, command, parsed.options, { now: io.now, cwd: io.cwd }));
}

const COMMAND_FAMILIES = [
  commandFamily(isRefundCommand, runRefundCommand),
  commandFamily(isReconciliationCommand, runReconciliationCommand),
  commandFamily(isBallotCommand, runBallotCommand),
  commandFamily(isLetterCommand, runLetterCommand),
  commandFamily(isPickupCommand, runPickupCommand),
  commandFamily(isMailingCommand, runMailingCommand),
  commandFamily(isAssetCommand, runAssetCommand),
  commandFamily(isStaffCommand, runStaffCommand),
  commandFamily(isEntryOneCommand, runEntryOneCommand),
  commandFamily(isSmsCommand, runSmsCommand),
];

/** Whether the CLI runs `command` (the docs test holds every `npm run site -- <command>` of the docs to it). */
export const isSiteCommand = (command: string): boolean =>
  Object.hasOwn(ARITY, command) || COMMAND_FAMILIES.some((family) => family.is(command));

async function screensCommand(io: CliIo, work: (repos: Repositories) => Promise<CommandOutcome>): Promise<void> {
  const outcome = await withDatabase(io, ({ repos }) => work(repos));
  if (!outcome.ok) throw failure(...outcome.lines);
  for (const line of outcome.lines) io.stdout(line);
}

async function copyToPostgres(io: CliIo, url: string): Promise<void> {
  if (!isPostgresUrl(url)) throw usageError(`"${String(url).slice(0, 80)}" is not a postgres:// or postgresql:// URL.`);
  const { dataDir, seedDir } = folders(io);
  if (!existsSync(dataPaths(dataDir).dbFile)) throw failure(`No database in ${dataDir} (${DB_FILE_NAME}) to copy.`);
  // The source is always the data folder's SQLite; the target keeps the secrets the copied hashes need (the
  // ID-number secret only for this run: the organiser sets ID_NUMBER_SECRET for the PostgreSQL instances).
  const sourceEnv = { ...io.env, DATABASE_URL: undefined };
  const source = await openOrFail(
    () => openDatabase({ dataDir, seedDir, now: io.now(), env: sourceEnv, seed: false }),
    dataDir,
  );
  try {
    const targetEnv = {
      ...io.env,
      DATABASE_URL: url,
      CERT_SECRET: source.secrets.cert,
      CODE_SECRET: source.secrets.code,
      ID_NUMBER_SECRET: source.secrets.idNumber,
      PAYMENT_SECRET: source.secrets.payment,
    };
    const target = await openOrFail(
      () => openDatabase({ dataDir, seedDir, now: io.now(), env: targetEnv, seed: false }),
      'the PostgreSQL database',
    );
    try {
      let copied: Record<string, number>;
      try {
        copied = await copyDatabase(source.db, target.db);
      } catch (error) {
        if (error instanceof CopyRefusedError) throw failure(`Nothing copied: ${error.message}`);
        throw error;
      }
      // The keys of the copied hashes and certificates, kept in the database for every instance; not the
      // ID-number secret, which PostgreSQL takes from ID_NUMBER_SECRET only (lib/secrets.ts).
      for (const key of ['cert', 'code', 'payment'] as const) {
        await storeDatabaseSecret(target.db, SECRET_NAMES[key].stored, source.secrets[key], io.now());
      }
      const files = target.files.kind === 'database' ? await copyFolderFiles(dataDir, target.files) : 0;
      const rows = Object.entries(copied)
        .filter(([, n]) => n > 0)
        .map(([table, n]) => `${table} ${n}`)
        .join(', ');
      io.stdout(`copied ${rows || 'no rows'}`);
      io.stdout(
        target.files.kind === 'database'
          ? `copied ${plural(files, 'file')} (published site configs and uploads) into the database`
          : `files stay in the folder ${parseServerEnv(io.env, ['FILES_DIR']).FILES_DIR ?? dataDir} (FILE_STORAGE=folder)`,
      );
      const idNumberFrom =
        parseServerEnv(io.env, ['ID_NUMBER_SECRET']).ID_NUMBER_SECRET === undefined
          ? `the contents of the file ${path.join(dataDir, SECRET_NAMES.idNumber.stored)}`
          : 'the ID_NUMBER_SECRET this copy ran with';
      io.stdout(
        `start every server instance with DATABASE_URL set to this database and ID_NUMBER_SECRET set to ${idNumberFrom}: the key of the certificate-number hashes and personal numbers is not kept in the database`,
      );
    } finally {
      await closeDatabase(target);
    }
  } finally {
    await closeDatabase(source);
  }
}

async function openOrFail<T>(open: () => Promise<T>, where: string): Promise<T> {
  try {
    return await open();
  } catch (error) {
    throw failure(`Cannot open the database in ${where}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Commands that only read (lists, checks, figures): every other command that runs, exports of personal data
 * included, is recorded in the audit log as the command line's (services/staff/audit.ts). The staff commands
 * record their own changes, with the values before and after, as do the one-entry commands (entry-one-commands.ts).
 */
const READ_ONLY_COMMANDS = new Set([
  'help',
  'list',
  'validate',
  'form-validate',
  'direct-list',
  'direct-show',
  'codes-list',
  'entries-list',
  'race-figures',
  'ballot-waitlist',
  'ballot-verify',
  'refunds-list',
  'refunds-owed',
  'pickup-list',
  'letters-status',
  'asset-list',
  'audit-verify',
  'audit-list',
  'reconciliation-list',
]);
/**
 * Commands that record their own audit record, with what they did (entries-export: filters, rows, whole numbers;
 * the ballot's and bibs-assign: as the console does, through the same service, ballot.commit … bibs.assign;
 * mailing-export, mailing-import, letters-export: mailing.export, mailing.import, letters.export; the pick-up
 * commands: pickup.staffKeyIssue … pickup.export; import-results, import-photos: import.results, import.photos;
 * direct-approve, direct-reject: direct.approve, direct.reject).
 */
const SELF_AUDITED_COMMANDS = new Set([
  // site.publish, as the console's publish (services/website/site-drafts.ts)
  'publish',
  'entries-export',
  'reconcile',
  'reconciliation-handle',
  'import-results',
  'import-photos',
  'direct-approve',
  'direct-reject',
  'refund-approve',
  'refund-reject',
  'refund-retry',
  'deferrals-issue',
  'ballot-commit',
  'ballot-draw',
  'ballot-reveal',
  'bibs-assign',
  'mailing-export',
  'mailing-import',
  'letters-export',
  // The entry season's services record signUp.open / signUp.close / codes.issue / codes.import / codes.revoke.
  'entry-open',
  'entry-close',
  'codes-issue',
  'codes-import',
  'codes-revoke',
  // pick-up: the same records as the console's (services/after-entry/pickup.ts)
  'staff-key-issue',
  'staff-key-revoke',
  'pickup-checkin',
  'pickup-export',
  // the asset library: asset.add / asset.replace / asset.remove, as the console's (services/organiser/event-assets.ts)
  'asset-add',
  'asset-replace',
  'asset-remove',
  // races and domains: race.add / race.save, domain.bind / domain.unbind, as the console's (services/races.ts, domains.ts)
  'add-race',
  'bind',
  'unbind',
  // the console's publication of a registration form (services/registration/form-editor.ts): form.publish
  'form-publish',
]);
const auditedByCli = (command: string) =>
  !READ_ONLY_COMMANDS.has(command) &&
  !isStaffCommand(command) &&
  !SELF_AUDITED_COMMANDS.has(command) &&
  !isEntryOneCommand(command);

/** Runs one CLI command; returns the exit code. Output goes through `io` (tests capture it). */
export async function runSiteCli(argv: readonly string[], partialIo: Partial<CliIo> = {}): Promise<number> {
  const io: CliIo = {
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    cwd: process.cwd(),
    now: Date.now,
    ...partialIo,
  };
  const code = await runCommand(argv, io);
  const [command, ...args] = argv;
  // A command that ran (done, or refused after reading its input) is recorded; a usage error changed nothing.
  if (
    command !== undefined &&
    code !== EXIT.usage &&
    (ARITY[command] !== undefined || COMMAND_FAMILIES.some((f) => f.is(command))) &&
    auditedByCli(command)
  ) {
    try {
      await withDatabase(io, ({ repos }) =>
        appendAudit(
          repos,
          { kind: 'cli' },
          { action: `cli.${command}`, target: args.join(' '), after: { exit: code } },
          io.now(),
        ),
      );
    } catch (error) {
      io.stderr(
        `Warning: the audit log could not record this command: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return code;
}

async function runCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  const args = [...rest];
  try {
    if (command === undefined) throw usageError('No command given.');
    if (command === 'help' || command === '--help' || command === '-h') {
      io.stdout(USAGE);
      return EXIT.ok;
    }
    const family = COMMAND_FAMILIES.find((candidate) => candidate.is(command));
    if (family) {
      const outcome = await family.run(command, args, {
        now: io.now(),
        cwd: io.cwd,
        env: io.env,
        withDatabase: (work) => withDatabase(io, work),
      });
      if (!outcome.ok) throw 'usage' in outcome ? usageError(outcome.lines.join('\n')) : failure(...outcome.lines);
      for (const line of outcome.lines) io.stdout(line);
      return EXIT.ok;
    }
    const arity = ARITY[command];
    if (arity === undefined) throw usageError(`Unknown command "${command}".`);
    const channel = command === 'form-publish' ? takeOption(args, '--channel') : undefined;
    if (channel !== undefined && !isFormChannel(channel)) {
      throw usageError(`--channel "${channel}" must be lower-case letters, digits or "-", starting with a letter.`);
    }
    const statusText = command === 'direct-list' ? takeOption(args, '--status') : undefined;
    const status = statusText === undefined ? undefined : parseDirectStatus(statusText);
    if (statusText !== undefined && status === undefined) throw usageError(`--status must be 0, 1, 2 or 3.`);
    const reason = command === 'direct-reject' ? takeOption(args, '--reason')?.trim() : undefined;
    if (command === 'direct-reject' && (reason === undefined || reason === '' || reason.length > REJECT_REASON_MAX)) {
      throw usageError(
        `direct-reject needs --reason "<text>" (1-${REJECT_REASON_MAX} characters): the runner reads it.`,
      );
    }
    const entryOptions: Record<string, string | undefined> = {};
    if (isEntryCommand(command)) {
      const spec: { options: readonly string[]; flags?: readonly string[] } = ENTRY_COMMANDS[command];
      for (const option of spec.options) entryOptions[option] = takeOption(args, option);
      // A flag (no value) is '' when given.
      for (const flag of spec.flags ?? []) {
        const at = args.indexOf(flag);
        if (at >= 0) entryOptions[flag] = args.splice(at, 1)[0] === flag ? '' : undefined;
      }
    }
    if (args.length !== arity) {
      throw usageError(`"${command}" takes ${arity} argument${arity === 1 ? '' : 's'}, got ${args.length}.`);
    }
    const [a = '', b = ''] = args;
    switch (command) {
      case 'list':
        await list(io);
        break;
      case 'bind':
        await bind(io, a, b);
        break;
      case 'unbind':
        await unbind(io, a);
        break;
      case 'validate':
        validate(io, a);
        break;
      case 'publish':
        await publish(io, a, b);
        break;
      case 'form-validate':
        formValidate(io, a);
        break;
      case 'form-publish':
        await formPublish(io, a, b, channel);
        break;
      case 'add-race':
        await addRace(io, a);
        break;
      case 'import-results':
        await importFile(io, 'results', a, b);
        break;
      case 'import-registrations':
        await importFile(io, 'registrations', a, b);
        break;
      case 'import-photos':
        await importFile(io, 'photos', a, b);
        break;
      case 'direct-list':
        await screensCommand(io, (repos) => directList(repos, a, status));
        break;
      case 'direct-show':
        await screensCommand(io, (repos) => directShow(repos, a));
        break;
      case 'direct-approve':
        await screensCommand(io, (repos) => directReview(repos, a, { status: 2 }, io.now()));
        break;
      case 'direct-reject':
        await screensCommand(io, (repos) => directReview(repos, a, { status: 3, reason: reason! }, io.now()));
        break;
      case 'copy-to-postgres':
        await copyToPostgres(io, a);
        break;
      default:
        if (isEntryCommand(command)) {
          await screensCommand(io, (repos) =>
            entryCommand(repos, command, args, entryOptions, { now: io.now(), cwd: io.cwd }),
          );
        }
    }
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CliExit) {
      for (const line of error.lines) io.stderr(line);
      if (error.exitCode === EXIT.usage) for (const line of usageLines(command)) io.stderr(line);
      return error.exitCode;
    }
    io.stderr(`Failed: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.failed;
  }
}

const invokedDirectly =
  process.argv[1] !== undefined && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url;
if (invokedDirectly) process.exitCode = await runSiteCli(process.argv.slice(2));
