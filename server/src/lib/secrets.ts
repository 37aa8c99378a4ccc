/**
 * The server's secrets: `cert` signs e-certificates; `code` and `idNumber` key the stored hashes of
 * verification codes and of certificate (ID) numbers, so that a copy of the database alone gives neither away
 * (both are quickly found from a plain hash); `idNumber` also derives the key that encrypts the stored
 * personal numbers (lib/personal-data.ts); `payment` signs the sandbox payment provider's notifications
 * (lib/payment/sandbox.ts).
 *
 * Each comes from its variable (CERT_SECRET, CODE_SECRET, ID_NUMBER_SECRET, PAYMENT_SECRET) when set; otherwise
 * it is random, made once and kept: on SQLite in the data folder (files cert-secret, code-secret,
 * id-number-secret, payment-secret, mode
 * 0600: the database and these files belong together, move or back up the whole folder); on PostgreSQL in the
 * database (server_secrets), so that every instance on the same database uses the same keys and none makes
 * its own — except `idNumber`: on PostgreSQL it comes from ID_NUMBER_SECRET only, never from or into the
 * database, so that a copy of the database does not carry the key of its own personal numbers (issue #14 §5). */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql, type Db } from '../db/engine.ts';
import { parseServerEnv, type Env } from './env.ts';

export interface ServerSecrets {
  cert: string;
  code: string;
  idNumber: string;
  payment: string;
}

/** Each secret: its variable and its file / row name. */
export const SECRET_NAMES = {
  cert: { env: 'CERT_SECRET', stored: 'cert-secret' },
  code: { env: 'CODE_SECRET', stored: 'code-secret' },
  idNumber: { env: 'ID_NUMBER_SECRET', stored: 'id-number-secret' },
  payment: { env: 'PAYMENT_SECRET', stored: 'payment-secret' },
} as const;

type StoredName = (typeof SECRET_NAMES)[keyof typeof SECRET_NAMES]['stored'];

const newSecret = () => randomBytes(32).toString('hex');

/** A secret kept in the data folder, made on first use (shared by the worker processes of one machine). */
export function dataSecret(dataDir: string, name: StoredName): string {
  const file = path.join(dataDir, name);
  if (!existsSync(file)) {
    try {
      writeFileSync(file, newSecret(), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another worker wrote it first.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readFileSync(file, 'utf8').trim();
}

/** A secret kept in the database, made by whichever instance asks first. */
export async function databaseSecret(db: Db, name: StoredName, now: number): Promise<string> {
  await db.run(
    sql`INSERT INTO server_secrets (name, value, created_at) VALUES (${name}, ${newSecret()}, ${now}) ON CONFLICT (name) DO NOTHING`,
  );
  const row = await db.get<{ value: string }>(sql`SELECT value FROM server_secrets WHERE name = ${name}`);
  if (row === undefined) throw new Error(`the secret ${name} could not be stored`);
  return row.value;
}

/**
 * Keeps `value` as the database's secret `name`, replacing what was there (the copy from an SQLite folder);
 * never the ID-number secret, which PostgreSQL takes from ID_NUMBER_SECRET only.
 */
export async function storeDatabaseSecret(
  db: Db,
  name: Exclude<StoredName, 'id-number-secret'>,
  value: string,
  now: number,
): Promise<void> {
  await db.run(sql`
    INSERT INTO server_secrets (name, value, created_at) VALUES (${name}, ${value}, ${now})
    ON CONFLICT (name) DO UPDATE SET value = excluded.value
  `);
}

/** A PostgreSQL start the ID-number secret refuses: one sentence for the organiser, no stack. */
export class IdNumberSecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IdNumberSecretError';
  }
}

const STORED_ID_NUMBER = SECRET_NAMES.idNumber.stored;
const READ_STORED = `psql "$DATABASE_URL" -Atc "SELECT value FROM server_secrets WHERE name = '${STORED_ID_NUMBER}'"`;

/**
 * The ID-number secret on PostgreSQL: ID_NUMBER_SECRET, checked against the row an earlier version kept in
 * server_secrets (read only: never written, never deleted). Refuses when the variable is missing, or differs
 * from that row (the stored hashes and encrypted numbers would no longer match); warns when it equals it.
 */
async function postgresIdNumberSecret(db: Db, given: string | undefined, warn: (line: string) => void) {
  const row = await db.get<{ value: string }>(sql`SELECT value FROM server_secrets WHERE name = ${STORED_ID_NUMBER}`);
  if (given === undefined) {
    throw new IdNumberSecretError(
      row === undefined
        ? 'On PostgreSQL set ID_NUMBER_SECRET (at least 16 characters, the same on every instance): it keys the certificate-number hashes and encrypts the personal numbers, so it is kept outside the database.'
        : `On PostgreSQL set ID_NUMBER_SECRET: it is no longer kept in the database; set it once to the value an earlier version stored there, which ${READ_STORED} prints.`,
    );
  }
  if (row !== undefined && row.value !== given) {
    throw new IdNumberSecretError(
      `ID_NUMBER_SECRET differs from the ID-number secret an earlier version stored in this database, so the stored certificate-number hashes and encrypted personal numbers would no longer match: set ID_NUMBER_SECRET to the stored value, which ${READ_STORED} prints.`,
    );
  }
  if (row !== undefined) {
    warn(
      `ID_NUMBER_SECRET matches the copy an earlier version kept in the database, which is no longer used: delete it with psql "$DATABASE_URL" -c "DELETE FROM server_secrets WHERE name = '${STORED_ID_NUMBER}'" (keep ID_NUMBER_SECRET set).`,
    );
  }
  return given;
}

/**
 * Every secret: the variable's value, else the stored one (the data folder on SQLite, the database on
 * PostgreSQL); on PostgreSQL the ID-number secret from its variable only (postgresIdNumberSecret).
 * `warn`: where a warning for the organiser goes (default stderr).
 */
export async function loadSecrets(input: {
  db: Db;
  dataDir: string;
  env: Env;
  now: number;
  warn?: (line: string) => void;
}): Promise<ServerSecrets> {
  const env = parseServerEnv(input.env, ['CERT_SECRET', 'CODE_SECRET', 'ID_NUMBER_SECRET', 'PAYMENT_SECRET']);
  const postgres = input.db.engine === 'postgres';
  const one = async (key: keyof ServerSecrets) => {
    const { env: variable, stored } = SECRET_NAMES[key];
    const given = env[variable];
    if (postgres && key === 'idNumber') {
      return postgresIdNumberSecret(input.db, given, input.warn ?? ((line) => console.warn(line)));
    }
    if (given !== undefined) return given;
    return postgres ? databaseSecret(input.db, stored, input.now) : dataSecret(input.dataDir, stored);
  };
  return {
    idNumber: await one('idNumber'),
    cert: await one('cert'),
    code: await one('code'),
    payment: await one('payment'),
  };
}
