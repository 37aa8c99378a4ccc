/**
 * The one query layer of the server, over Kysely: embedded SQLite (better-sqlite3, the default, under DATA_DIR)
 * or PostgreSQL (pg, when DATABASE_URL is a postgres:// URL). Repositories write plain SQL with Kysely's `sql`
 * tag (`db.all<Row>(sql\`SELECT … WHERE id = ${id}\`)`), which binds every value as a parameter in the
 * engine's own placeholder style; where the engines' SQL differs, a repository branches on `db.engine`.
 *
 * Integers are JavaScript numbers on both engines (PostgreSQL's BIGINT and NUMERIC are parsed as numbers:
 * every integer the server stores, epoch milliseconds and amounts in fen among them, is far below 2^53).
 */
import { createHash } from 'node:crypto';
import BetterSqlite3, { type Database as SqliteHandle } from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type RawBuilder } from 'kysely';
import pg from 'pg';
import type { WriteGate } from '../lib/write-gate.ts';

export type EngineName = 'sqlite' | 'postgres';

/** Any Kysely connection or transaction, as the `sql` tag's execute() takes it. */
type Executor = Parameters<RawBuilder<unknown>['execute']>[0];

export interface Db {
  readonly engine: EngineName;
  /** The rows of a query. */
  all<T>(query: RawBuilder<unknown>): Promise<T[]>;
  /** The first row of a query, or undefined. */
  get<T>(query: RawBuilder<unknown>): Promise<T | undefined>;
  /** Runs a statement; returns how many rows it changed. */
  run(query: RawBuilder<unknown>): Promise<number>;
  /**
   * Runs `work` in one transaction on one connection (BEGIN IMMEDIATE on SQLite, so writers queue instead of
   * failing; READ COMMITTED on PostgreSQL, with `lock` for the checks that must not interleave). Inside a
   * transaction, `transaction` runs `work` in the same one. `options.locks` are taken as by `lock` before
   * `work` starts, on PostgreSQL in the round trip of BEGIN (inside a transaction, by `lock`).
   */
  transaction<T>(work: (tx: Db) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Inside a transaction: waits until no other transaction holds each key (taken one after the other, in the
   * order given), and holds them until this one ends (PostgreSQL advisory transaction locks; on SQLite the
   * write lock of BEGIN IMMEDIATE already does it).
   */
  lock(...keys: string[]): Promise<void>;
  /** True when the database answers (the health endpoint). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface TransactionOptions {
  /** Keys to hold from the start of the transaction (as `lock` takes them). */
  locks?: readonly string[];
}

/**
 * The advisory-lock number of a key: the first 8 bytes of its SHA-256, as a signed 64-bit integer in decimal.
 * Computed here rather than by PostgreSQL, so that it can go into a statement's text as a plain number (BEGIN
 * and the locks in one round trip) and names the same lock whichever way it is sent.
 */
export function advisoryLockNumber(key: string): string {
  return createHash('sha256').update(key).digest().readBigInt64BE(0).toString();
}

/** The statement taking these keys' advisory transaction locks, in the order given: only digits go in its text. */
const advisoryLocks = (keys: readonly string[]) =>
  `SELECT ${keys.map((key) => `pg_advisory_xact_lock(${advisoryLockNumber(key)})`).join(', ')}`;

/** How a database is reached: an embedded SQLite file, or a PostgreSQL URL. */
export type DbTarget = { engine: 'sqlite'; file: string } | { engine: 'postgres'; url: string; poolSize?: number };

/** The target a DATABASE_URL names (postgres:// or postgresql://); undefined selects the embedded SQLite. */
export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

/** How many prepared statements the SQLite engine keeps (the server's SQL texts are far fewer). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The handle as Kysely's SQLite driver sees it, with its statements kept by SQL text: the driver prepares
 * every query anew, and preparing costs as much as running the server's short statements. A statement is only
 * ever used by the one connection, one query at a time (Kysely serialises them), so reusing it is safe; the
 * oldest is dropped once the cache is full.
 */
function cachingStatements(handle: SqliteHandle) {
  const statements = new Map<string, ReturnType<SqliteHandle['prepare']>>();
  return {
    close: () => handle.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (statement === undefined) {
        statement = handle.prepare(text);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

/** How many SQL texts get a prepared-statement name on PostgreSQL (the server's texts are far fewer). */
const PG_STATEMENT_NAMES = 1000;

/**
 * The pool as Kysely's PostgreSQL driver sees it, its queries with parameters sent as named prepared
 * statements (one name per SQL text, the same on every connection): PostgreSQL parses and plans each text
 * once per connection instead of on every query. Texts without parameters (BEGIN, COMMIT, migrations' scripts
 * of several statements) are sent as before, and so is every text once the names run out.
 */
function namingStatements(pool: pg.Pool) {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined && names.size < PG_STATEMENT_NAMES) {
      name = `s${names.size}`;
      names.set(text, name);
    }
    return name;
  };
  const named = new WeakSet<pg.PoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      if (!named.has(client)) {
        named.add(client);
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        client.query = ((...args: unknown[]) => {
          const [text, values] = args;
          const name =
            args.length === 2 && typeof text === 'string' && Array.isArray(values) && values.length > 0
              ? nameOf(text)
              : undefined;
          return name === undefined ? query(...args) : query({ name, text, values });
        }) as typeof client.query;
      }
      return client;
    },
    end: () => pool.end(),
  };
}

function openKysely(target: DbTarget): { kysely: Kysely<unknown>; sqlite?: SqliteHandle } {
  if (target.engine === 'sqlite') {
    const handle = new BetterSqlite3(target.file);
    handle.pragma('journal_mode = WAL');
    handle.pragma('foreign_keys = ON');
    handle.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    handle.pragma('synchronous = NORMAL');
    return {
      kysely: new Kysely({ dialect: new SqliteDialect({ database: cachingStatements(handle) }) }),
      sqlite: handle,
    };
  }
  const pool = new pg.Pool({
    connectionString: target.url,
    max: target.poolSize ?? 10,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8 || oid === PG_NUMERIC
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection (a database restart) must not crash the process.
  pool.on('error', () => undefined);
  return { kysely: new Kysely({ dialect: new PostgresDialect({ pool: namingStatements(pool) }) }) };
}

/**
 * Whether an error is contention, not a defect: PostgreSQL's deadlock, serialization failure or lock timeout,
 * SQLite's write lock held past busy_timeout. The app answers it 503 "busy, try again" (app.ts), never 500.
 */
export function isContention(error: unknown): boolean {
  const code = String((error as { code?: unknown } | null)?.code);
  return code === '40P01' || code === '40001' || code === '55P03' || code.startsWith('SQLITE_BUSY');
}

/** How long a statement waits for another process's write lock on SQLite (busy_timeout). */
const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * BEGIN IMMEDIATE on SQLite without waiting in SQLite's busy handler, which sleeps the whole process (every
 * request it serves) while another process (WORKERS > 1) holds the write lock: false when it is held.
 */
function immediateBegin(handle: SqliteHandle): () => boolean {
  const noWait = handle.prepare('PRAGMA busy_timeout = 0');
  const wait = handle.prepare(`PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  const begin = handle.prepare('BEGIN IMMEDIATE');
  return () => {
    noWait.run();
    try {
      begin.run();
      return true;
    } catch (error) {
      if (String((error as { code?: unknown } | null)?.code).startsWith('SQLITE_BUSY')) return false;
      throw error;
    } finally {
      wait.run();
    }
  };
}

const BUSY = Symbol('busy');

/** This process's turn-taking with the other workers of a multi-worker SQLite server (lib/write-gate.ts). */
let writeGate: WriteGate | undefined;
/** Set once at start-up by a cluster worker on SQLite (server.ts); SQLite write transactions then take turns. */
export function useWriteGate(gate: WriteGate | undefined) {
  writeGate = gate;
}

function makeDb(
  engine: EngineName,
  executor: Executor,
  inTransaction: boolean,
  root: Kysely<unknown>,
  begin?: () => boolean,
): Db {
  const db: Db = {
    engine,
    async all<T>(query: RawBuilder<unknown>) {
      return (await query.execute(executor)).rows as T[];
    },
    async get<T>(query: RawBuilder<unknown>) {
      return (await query.execute(executor)).rows[0] as T | undefined;
    },
    async run(query: RawBuilder<unknown>) {
      return Number((await query.execute(executor)).numAffectedRows ?? 0n);
    },
    async transaction<T>(work: (tx: Db) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
      const locks = options.locks ?? [];
      if (inTransaction) {
        await db.lock(...locks);
        return work(db);
      }
      // PostgreSQL: BEGIN and the locks in one round trip (a simple query of two statements; the second
      // runs inside the transaction the first opens, and the text holds nothing but digits of its own).
      const beginText =
        engine === 'sqlite' ? 'BEGIN IMMEDIATE' : locks.length > 0 ? `BEGIN; ${advisoryLocks(locks)}` : 'BEGIN';
      const attempt = () =>
        root.connection().execute(async (connection): Promise<T | typeof BUSY> => {
          if (begin) {
            if (!begin()) return BUSY;
          } else await sql.raw(beginText).execute(connection);
          try {
            const result = await work(makeDb(engine, connection, true, root));
            await sql.raw('COMMIT').execute(connection);
            return result;
          } catch (error) {
            await sql
              .raw('ROLLBACK')
              .execute(connection)
              .catch(() => undefined);
            throw error;
          }
        });
      // SQLite, write lock held by another process: the connection is given back (this process's other
      // queries go on) and BEGIN is tried again shortly, for as long as busy_timeout would have waited. The
      // workers of one server first take turns through the write gate (before taking the connection, so this
      // process's reads go on while it waits), which leaves the retries to writers outside it (the CLI).
      const attempts = async (): Promise<T> => {
        const until = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
        for (let tries = 0; ; tries += 1) {
          const outcome = await attempt();
          if (outcome !== BUSY) return outcome;
          if (Date.now() > until) {
            // The error better-sqlite3 gives when busy_timeout runs out (its code is what callers test).
            const busy: Error & { code?: string } = new Error('database is locked');
            busy.code = 'SQLITE_BUSY';
            throw busy;
          }
          await new Promise((resolve) => (tries === 0 ? setImmediate(resolve) : setTimeout(resolve, 1)));
        }
      };
      const gate = begin ? writeGate : undefined;
      if (!gate) return attempts();
      await gate.acquire();
      try {
        return await attempts();
      } finally {
        gate.release();
      }
    },
    async lock(...keys: string[]) {
      if (!inTransaction) throw new Error('lock() is for use inside a transaction');
      if (engine !== 'postgres' || keys.length === 0) return;
      // One round trip for all keys, taken in the order given (callers give a fixed order: no deadlock).
      await sql.raw(advisoryLocks(keys)).execute(executor);
    },
    async ping() {
      try {
        await sql`SELECT 1`.execute(executor);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await root.destroy();
    },
  };
  return db;
}

export interface OpenedEngine {
  db: Db;
  /** The better-sqlite3 handle on SQLite (migrations register a function on it); undefined on PostgreSQL. */
  sqlite?: SqliteHandle;
}

export function openEngine(target: DbTarget): OpenedEngine {
  const { kysely, sqlite } = openKysely(target);
  return { db: makeDb(target.engine, kysely, false, kysely, sqlite ? immediateBegin(sqlite) : undefined), sqlite };
}

export { sql };
