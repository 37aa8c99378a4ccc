/**
 * The server's secrets: `cert` signs e-certificates; `code` and `idNumber` key the stored hashes of
 * verification codes and of certificate (ID) numbers, so that a copy of the database alone gives neither away
 * (both are quickly found from a plain hash); `payment` signs the sandbox payment provider's notifications
 * (lib/payment/sandbox.ts).
 *
 * Each comes from its variable (CERT_SECRET, CODE_SECRET, ID_NUMBER_SECRET, PAYMENT_SECRET) when set; otherwise
 * it is random, made once and kept: on SQLite in the data folder (files cert-secret, code-secret,
 * id-number-secret, payment-secret, mode
 * 0600: the database and these files belong together, move or back up the whole folder); on PostgreSQL in the
 * database (server_secrets), so that every instance on the same database uses the same keys and none makes
 * its own.
 */
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

/** Keeps `value` as the database's secret `name`, replacing what was there (the copy from an SQLite folder). */
export async function storeDatabaseSecret(db: Db, name: StoredName, value: string, now: number): Promise<void> {
  await db.run(sql`
    INSERT INTO server_secrets (name, value, created_at) VALUES (${name}, ${value}, ${now})
    ON CONFLICT (name) DO UPDATE SET value = excluded.value
  `);
}

/**
 * Every secret: the variable's value, else the stored one (the data folder on SQLite, the database on
 * PostgreSQL).
 */
export async function loadSecrets(input: { db: Db; dataDir: string; env: Env; now: number }): Promise<ServerSecrets> {
  const env = parseServerEnv(input.env, ['CERT_SECRET', 'CODE_SECRET', 'ID_NUMBER_SECRET', 'PAYMENT_SECRET']);
  const one = async (key: keyof ServerSecrets) => {
    const { env: variable, stored } = SECRET_NAMES[key];
    const given = env[variable];
    if (given !== undefined) return given;
    return input.db.engine === 'postgres'
      ? databaseSecret(input.db, stored, input.now)
      : dataSecret(input.dataDir, stored);
  };
  return {
    cert: await one('cert'),
    code: await one('code'),
    idNumber: await one('idNumber'),
    payment: await one('payment'),
  };
}
