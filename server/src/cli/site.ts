/**
 * Organiser CLI: binds domains to races and publishes site configurations, directly on the server's
 * database (DATA_DIR, default <repo>/data). Run: node --import tsx server/src/cli/site.ts <command>.
 * Exit codes: 0 done, 1 refused or failed, 2 usage error.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ConfigProblem } from '#contract/site-config/document-limits';
import { openDatabase, type OpenedDatabase } from '../db/database.ts';
import { importCsv, type ImportKind } from '../services/race-center-import/import-csv.ts';
import { validateRaceInfo } from '../db/race-schema.ts';
import { inspectSiteConfigBytes, publishSiteConfig, SiteConfigRejectedError } from '../db/site-config-publisher.ts';
import { toBindableDomain } from '../lib/domain.ts';
import { parseServerEnv } from '../lib/env.ts';
import { parseJsonText } from '../lib/json-text.ts';
import { DEFAULT_DATA_DIR, DEFAULT_SEED_DIR } from '../lib/paths.ts';

export const USAGE = `Usage: site <command> [arguments]

Commands:
  list                          bound domains: race, published site configuration (md5, time)
  bind <domain> <raceId>        bind a domain to a race (replaces an existing binding)
  unbind <domain>               remove a domain's binding
  validate <file.json>          check a site configuration; prints every error and warning with its
                                JSON path (exit 1 on errors; warnings alone still pass)
  publish <domain> <file.json>  validate, then publish a site configuration for a domain
  add-race <race.json>          add a race, or update it, from a RaceInfo JSON file (times are
                                YYYY-MM-DD HH:mm:ss, China time)
  import-results <raceId> <file.csv>
      results with splits; columns bib,name,gender,certificateNumber,birthday,item,chipTime
      [,gunTime][,5K,10K,...,HALF]; gender 1/M/男 or 2/F/女, item M/H/10K, times H:MM:SS.
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
  help                          show this help

Formats: docs/site-config.md describes every field of a site configuration and of race.json, with
examples; docs/site-config.schema.json lets an editor check a site configuration while you type.

Environment: DATA_DIR (default <repo>/data), SEED_DIR (default server/seed).
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

const usageError = (message: string) => new CliExit(EXIT.usage, [message, '', USAGE]);
const failure = (...lines: string[]) => new CliExit(EXIT.failed, lines);

const ARITY: Record<string, number> = {
  list: 0,
  bind: 2,
  unbind: 1,
  validate: 1,
  publish: 2,
  'add-race': 1,
  'import-results': 2,
  'import-registrations': 2,
  'import-photos': 2,
  help: 0,
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

function open(io: CliIo): OpenedDatabase {
  const { dataDir, seedDir } = folders(io);
  try {
    return openDatabase({ dataDir, seedDir, now: io.now() });
  } catch (error) {
    throw failure(`Cannot open the database in ${dataDir}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function dataDirOf(io: CliIo): string {
  return folders(io).dataDir;
}

function withDatabase<T>(io: CliIo, work: (opened: OpenedDatabase) => T): T {
  const opened = open(io);
  try {
    return work(opened);
  } finally {
    opened.db.close();
  }
}

function list(io: CliIo): void {
  withDatabase(io, ({ repos }) => {
    const bindings = new Map(repos.bindings.list().map((b) => [b.domainName, b]));
    const published = new Map(repos.siteConfigs.listLatest().map((p) => [p.domainName, p]));
    const domains = [...new Set([...bindings.keys(), ...published.keys()])].sort();
    if (domains.length === 0) {
      io.stdout('No domain is bound. Bind one with: site bind <domain> <raceId>');
      return;
    }
    for (const domain of domains) {
      const binding = bindings.get(domain);
      const race = binding ? repos.races.findById(binding.raceId) : undefined;
      const config = published.get(domain);
      io.stdout(domain);
      io.stdout(`  race:      ${binding ? `${binding.raceId} (${race?.raceName ?? 'unknown race'})` : '(not bound)'}`);
      io.stdout(
        `  published: ${config ? `${config.md5} at ${formatTime(config.publishedAt)}` : '(no site configuration)'}`,
      );
    }
  });
}

function bind(io: CliIo, rawDomain: string, raceId: string): void {
  const domain = domainArg(rawDomain);
  withDatabase(io, ({ repos }) => {
    const race = repos.races.findById(raceId);
    if (!race) throw failure(`No race "${raceId}". Add it first with: site add-race <race.json>`);
    const previous = repos.bindings.findByDomain(domain);
    repos.bindings.bind(domain, raceId, io.now());
    const was = previous && previous.raceId !== raceId ? ` (was ${previous.raceId})` : '';
    io.stdout(`bound ${domain} to ${raceId} (${race.raceName})${was}`);
    if (!repos.siteConfigs.latestForDomain(domain)) {
      io.stdout(`note: ${domain} has no site configuration yet; publish one with: site publish ${domain} <file.json>`);
    }
  });
}

function unbind(io: CliIo, rawDomain: string): void {
  const domain = domainArg(rawDomain);
  withDatabase(io, ({ repos }) => {
    if (!repos.bindings.unbind(domain)) throw failure(`${domain} is not bound`);
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

function publish(io: CliIo, rawDomain: string, file: string): void {
  const domain = domainArg(rawDomain);
  const { bytes } = readText(io, file);
  withDatabase(io, ({ repos }) => {
    try {
      const result = publishSiteConfig({
        siteConfigs: repos.siteConfigs,
        dataDir: dataDirOf(io),
        domainName: domain,
        bytes,
        now: io.now(),
        source: file,
      });
      io.stdout(`published ${domain}`);
      io.stdout(`md5 ${result.md5}`);
      io.stdout(`uri ${result.uri}`);
      printWarnings(io, result.warnings);
      if (!repos.bindings.findByDomain(domain)) {
        io.stdout(`note: ${domain} is not bound to a race; bind it with: site bind ${domain} <raceId>`);
      }
    } catch (error) {
      if (error instanceof SiteConfigRejectedError) {
        throw failure(
          `Refused to publish: ${file} is not a valid site configuration (${plural(error.problems.length, 'problem')}):`,
          ...problemLines(error.problems),
        );
      }
      throw error;
    }
  });
}

function addRace(io: CliIo, file: string): void {
  const raw = readJson(io, file);
  const result = validateRaceInfo(raw);
  if (!result.ok) {
    throw failure(
      `${file} is not a valid race (${plural(result.problems.length, 'problem')}):`,
      ...problemLines(result.problems),
    );
  }
  withDatabase(io, ({ repos }) => {
    const outcome = repos.races.save(result.race, io.now());
    io.stdout(`${outcome === 'inserted' ? 'added' : 'updated'} race ${result.race.raceId} (${result.race.raceName})`);
  });
}

function importFile(io: CliIo, kind: ImportKind, raceId: string, file: string): void {
  const { bytes } = readText(io, file);
  withDatabase(io, ({ repos }) => {
    let outcome;
    try {
      outcome = importCsv(repos, kind, raceId, bytes.toString('utf8'));
    } catch (error) {
      throw failure(`Nothing imported: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!outcome.ok) {
      throw failure(`Nothing imported from ${file}:`, ...outcome.problems.map((p) => `  ${p}`));
    }
    io.stdout(outcome.summary);
  });
}

/** Runs one CLI command; returns the exit code. Output goes through `io` (tests capture it). */
export function runSiteCli(argv: readonly string[], partialIo: Partial<CliIo> = {}): number {
  const io: CliIo = {
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    cwd: process.cwd(),
    now: Date.now,
    ...partialIo,
  };
  const [command, ...args] = argv;
  try {
    if (command === undefined) throw usageError('No command given.');
    if (command === 'help' || command === '--help' || command === '-h') {
      io.stdout(USAGE);
      return EXIT.ok;
    }
    const arity = ARITY[command];
    if (arity === undefined) throw usageError(`Unknown command "${command}".`);
    if (args.length !== arity) {
      throw usageError(`"${command}" takes ${arity} argument${arity === 1 ? '' : 's'}, got ${args.length}.`);
    }
    const [a = '', b = ''] = args;
    switch (command) {
      case 'list':
        list(io);
        break;
      case 'bind':
        bind(io, a, b);
        break;
      case 'unbind':
        unbind(io, a);
        break;
      case 'validate':
        validate(io, a);
        break;
      case 'publish':
        publish(io, a, b);
        break;
      case 'add-race':
        addRace(io, a);
        break;
      case 'import-results':
        importFile(io, 'results', a, b);
        break;
      case 'import-registrations':
        importFile(io, 'registrations', a, b);
        break;
      case 'import-photos':
        importFile(io, 'photos', a, b);
        break;
    }
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CliExit) {
      for (const line of error.lines) io.stderr(line);
      return error.exitCode;
    }
    io.stderr(`Failed: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.failed;
  }
}

const invokedDirectly =
  process.argv[1] !== undefined && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url;
if (invokedDirectly) process.exitCode = runSiteCli(process.argv.slice(2));
