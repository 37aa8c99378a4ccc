/**
 * Opens the SQLite database of a data directory: creates the directory and file on first use, sets WAL and
 * foreign keys, applies pending migrations and seeds the demo event when the races table is empty. Shared by
 * the server (plugins/db.ts) and the organiser CLI.
 */
import { mkdirSync } from 'node:fs';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { dataPaths } from '../lib/paths.ts';
import { keyedCertHash } from '../lib/race-center.ts';
import { dataSecret } from '../lib/secrets.ts';
import { MIGRATIONS, type Migration } from './migrations.ts';
import { createRepositories, type Repositories } from './repositories.ts';
import { seedIfEmpty, seedRunnersIfEmpty, type SeedOutcome } from './seed.ts';

export function migrate(db: Database, now: number, migrations: readonly Migration[] = MIGRATIONS): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS migrations (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL
  ) STRICT`);
  return db
    .transaction(() => {
      const applied = new Set(
        db
          .prepare<[], { id: number }>('SELECT id FROM migrations')
          .all()
          .map((r) => r.id),
      );
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
        db.exec(migration.sql);
        db.prepare('INSERT INTO migrations (id, name, applied_at) VALUES (?, ?, ?)').run(
          migration.id,
          migration.name,
          now,
        );
        done.push(migration.id);
      }
      return done;
    })
    .immediate();
}

export interface OpenedDatabase {
  db: Database;
  repos: Repositories;
  seed: SeedOutcome;
}

export function openDatabase(options: { dataDir: string; seedDir: string; now: number }): OpenedDatabase {
  const paths = dataPaths(options.dataDir);
  mkdirSync(options.dataDir, { recursive: true });
  const db = new BetterSqlite3(paths.dbFile);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    const keys = {
      code: dataSecret(options.dataDir, 'code-secret'),
      certNumber: dataSecret(options.dataDir, 'id-number-secret'),
    };
    // Migration 6 keys the certificate-number hashes already stored.
    db.function('keyed_cert_hash', { deterministic: true }, (digest: unknown) =>
      keyedCertHash(keys.certNumber, String(digest)),
    );
    migrate(db, options.now);
    const repos = createRepositories(db, keys);
    const seed = seedIfEmpty({ db, repos, dataDir: options.dataDir, seedDir: options.seedDir, now: options.now });
    seedRunnersIfEmpty({ db, repos, seedDir: options.seedDir, now: options.now });
    return { db, repos, seed };
  } catch (error) {
    db.close();
    throw error;
  }
}
