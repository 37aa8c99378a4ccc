/**
 * Opens the server's database: the embedded SQLite file of a data directory (created on first use), or the
 * PostgreSQL database of DATABASE_URL. Applies pending migrations (once, even when several instances start
 * together), loads the secrets and seeds the demo event when the races table is empty. Shared by the server
 * (plugins/db.ts) and the organiser CLI.
 */
import type { Database as SqliteHandle } from 'better-sqlite3';
import { dataPaths } from '../lib/paths.ts';
import { createFileStore, type FileStore } from '../lib/file-store.ts';
import { keyedCertHash } from '../lib/race-center.ts';
import { parseServerEnv, type Env } from '../lib/env.ts';
import { ownerOnlyDatabaseFile, ownerOnlyDirSync } from '../lib/owner-only.ts';
import { loadSecrets, type ServerSecrets } from '../lib/secrets.ts';
import { isPostgresUrl, openEngine, sql, type Db, type DbTarget } from './engine.ts';
import { MIGRATIONS, type Migration } from './migrations.ts';
import { createRepositories, type Repositories } from './repositories.ts';
import { seedRegistrationFormsIfEmpty } from './registration-form-publisher.ts';
import { seedIfEmpty, seedRunnersIfEmpty, type SeedOutcome } from './seed.ts';

/** Applies the migrations this database lacks, in one transaction; returns their ids. */
export async function migrate(db: Db, now: number, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  const idType = db.engine === 'sqlite' ? 'INTEGER' : 'BIGINT';
  const strict = db.engine === 'sqlite' ? ' STRICT' : '';
  return db.transaction(async (tx) => {
    // Instances starting together on one PostgreSQL database migrate one after the other.
    await tx.lock('migrations');
    await tx.run(
      sql.raw(`CREATE TABLE IF NOT EXISTS migrations (
        id ${idType} PRIMARY KEY, name TEXT NOT NULL, applied_at ${idType} NOT NULL
      )${strict}`),
    );
    const applied = new Set((await tx.all<{ id: number }>(sql`SELECT id FROM migrations`)).map((r) => r.id));
    const known = new Set(migrations.map((m) => m.id));
    const unknown = [...applied].filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw new Error(
        `The database has migrations this server does not know (${unknown.join(', ')}); update the server`,
      );
    }
    const done: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.id - b.id)) {
      if (applied.has(migration.id)) continue;
      for (const statement of splitStatements(db.engine === 'sqlite' ? migration.sqlite : migration.postgres)) {
        await tx.run(sql.raw(statement));
      }
      await tx.run(
        sql`INSERT INTO migrations (id, name, applied_at) VALUES (${migration.id}, ${migration.name}, ${now})`,
      );
      done.push(migration.id);
    }
    return done;
  });
}

/**
 * The statements of a migration's text, split at its semicolons except those inside a PostgreSQL `$$` body or
 * an SQLite trigger's BEGIN … END (no string in a migration holds a semicolon).
 */
export function splitStatements(text: string): string[] {
  const statements: string[] = [];
  let current = '';
  let inDollarBody = false;
  for (let i = 0; i < text.length; i++) {
    if (text.startsWith('$$', i)) {
      inDollarBody = !inDollarBody;
      current += '$$';
      i++;
      continue;
    }
    const char = text[i]!;
    if (char === ';' && !inDollarBody && !inTriggerBody(current)) {
      statements.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  statements.push(current);
  return statements.map((statement) => statement.trim()).filter((statement) => statement !== '');
}

/** Inside an SQLite CREATE TRIGGER's body: BEGIN seen and END not yet. */
const inTriggerBody = (statement: string) =>
  /^\s*CREATE\s+TRIGGER\b/i.test(statement) && /\bBEGIN\b/i.test(statement) && !/\bEND\s*$/i.test(statement);

export interface OpenedDatabase {
  db: Db;
  repos: Repositories;
  /** Uploads and published site configs: a folder or the database (FILE_STORAGE, lib/file-store.ts). */
  files: FileStore;
  secrets: ServerSecrets;
  seed: SeedOutcome;
  /** The better-sqlite3 handle on SQLite (the durability tests read it); undefined on PostgreSQL. */
  sqlite?: SqliteHandle;
}

/** Closes what openDatabase opened (its connection or pool). */
export const closeDatabase = (opened: Pick<OpenedDatabase, 'db'>): Promise<void> => opened.db.close();

/** Where the database is: DATABASE_URL's PostgreSQL, else the SQLite file of the data directory. */
export function databaseTarget(dataDir: string, env: Env): DbTarget {
  const { DATABASE_URL, DB_POOL_SIZE } = parseServerEnv(env, ['DATABASE_URL', 'DB_POOL_SIZE']);
  if (isPostgresUrl(DATABASE_URL)) return { engine: 'postgres', url: DATABASE_URL, poolSize: DB_POOL_SIZE };
  ownerOnlyDirSync(dataDir);
  const file = dataPaths(dataDir).dbFile;
  ownerOnlyDatabaseFile(file);
  return { engine: 'sqlite', file };
}

export async function openDatabase(options: {
  dataDir: string;
  seedDir: string;
  now: number;
  env?: Env;
  /** false: migrate only, never seed (the target of `site copy-to-postgres`). Default true. */
  seed?: boolean;
  /** Where a warning for the organiser goes (lib/secrets.ts); default stderr. */
  warn?: (line: string) => void;
}): Promise<OpenedDatabase> {
  const env = options.env ?? process.env;
  // The data folder holds the secrets, the database and uploads: the server's account only (issue 27).
  ownerOnlyDirSync(options.dataDir);
  const { db, sqlite } = openEngine(databaseTarget(options.dataDir, env));
  try {
    const secrets = await loadSecretsAfterMigrating(db, sqlite, options.dataDir, env, options.now, options.warn);
    const repos = createRepositories(db, secrets);
    const files = createFileStore({ db, dataDir: options.dataDir, env });
    const seeding = options.seed ?? true;
    const seed: SeedOutcome = seeding
      ? await seedIfEmpty({ repos, files, seedDir: options.seedDir, now: options.now })
      : { seeded: false, reason: 'no-seed' };
    // Migration 22: entries written before it get their phone hash (it needs the server's key).
    await repos.entries.fillPhoneHashes();
    if (seeding) {
      await seedRunnersIfEmpty({ repos, seedDir: options.seedDir, now: options.now });
      await seedRegistrationFormsIfEmpty({ repos, seedDir: options.seedDir, now: options.now });
    }
    return { db, repos, files, secrets, seed, sqlite };
  } catch (error) {
    await db.close();
    throw error;
  }
}

async function loadSecretsAfterMigrating(
  db: Db,
  sqlite: SqliteHandle | undefined,
  dataDir: string,
  env: Env,
  now: number,
  warn: ((line: string) => void) | undefined,
): Promise<ServerSecrets> {
  if (sqlite !== undefined) {
    // Migration 6 keys the certificate-number hashes already stored; on SQLite the key is in the data folder,
    // readable before the database is migrated.
    const early = await loadSecrets({ db, dataDir, env, now });
    sqlite.function('keyed_cert_hash', { deterministic: true }, (digest: unknown) =>
      keyedCertHash(early.idNumber, String(digest)),
    );
    const done = await migrate(db, now);
    // A migration that removed personal data: the pages that held it are rewritten (and the WAL emptied).
    if (MIGRATIONS.some((m) => m.vacuum && done.includes(m.id))) {
      sqlite.exec('VACUUM');
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
    }
    return early;
  }
  await migrate(db, now);
  return loadSecrets({ db, dataDir, env, now, warn });
}
