/**
 * Issue 27: no table keeps in clear a pair of fields that rebuilds a certificate number. Imported registrations
 * kept the first 4 and last 4 digits of the number beside the birthday (digits 7-14 of a Chinese ID number):
 * at most 4 candidates were left, often one. Migration 17 drops that mask (the answers mask the number the
 * lookup gives); this test makes an older database, migrates it on the running engine, and looks at every
 * table that keeps a birthday in clear.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseTarget, migrate } from '../src/db/database.ts';
import { openEngine, sql, type Db } from '../src/db/engine.ts';
import { MIGRATIONS } from '../src/db/migrations.ts';
import { dataPaths } from '../src/lib/paths.ts';
import { certDigest, keyedCertHash, maskCertNo } from '../src/lib/race-center.ts';
import { toRegistrationInfo } from '../src/services/race-center/mappers.ts';
import {
  databaseFor,
  FIXTURE_SEED,
  ON_POSTGRES,
  openTestDatabase,
  removeTempDirs,
  tempDir,
  TEST_ID_NUMBER_SECRET,
  testEnv,
} from './helpers.ts';

afterAll(removeTempDirs);

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECKS = '10X98765432';
/** The check character of the first 17 digits of a Chinese ID number (GB 11643). */
const checkOf = (first17: string) =>
  CHECKS[[...first17].reduce((sum, digit, i) => sum + Number(digit) * WEIGHTS[i]!, 0) % 11]!;
const idNumber = (region: string, birthday: string, sequence: string) => {
  const first17 = `${region}${birthday.replaceAll('-', '')}${sequence}`;
  return `${first17}${checkOf(first17)}`;
};

/**
 * How many ID numbers fit what a row keeps in clear: its birthday (digits 7-14) and any masked number (digits
 * and '*', 18 long) among its values. Hidden digits among the first 17 are counted through; when the check
 * character is seen, only the combinations it checks out count (enumerated up to a million).
 */
function candidatesFromClear(row: Record<string, unknown>): number {
  const known: (string | undefined)[] = Array.from({ length: 18 }, () => undefined);
  const birthday = String(row.birthday ?? '').replaceAll('-', '');
  if (/^\d{8}$/.test(birthday)) [...birthday].forEach((digit, i) => (known[6 + i] = digit));
  for (const value of Object.values(row)) {
    if (typeof value !== 'string' || !/^[\dX*]{18}$/i.test(value) || !value.includes('*')) continue;
    [...value].forEach((c, i) => (known[i] = c === '*' ? known[i] : c.toUpperCase()));
  }
  const hidden = known.slice(0, 17).flatMap((digit, i) => (digit === undefined ? [i] : []));
  const check = known[17];
  if (check === undefined) return 10 ** hidden.length;
  if (hidden.length > 6) return Math.round(10 ** hidden.length / 11);
  let count = 0;
  for (let n = 0; n < 10 ** hidden.length; n += 1) {
    const digits = [...known.slice(0, 17)];
    const fill = String(n).padStart(hidden.length, '0');
    hidden.forEach((at, i) => (digits[at] = fill[i]));
    if (checkOf(digits.join('')) === check) count += 1;
  }
  return count;
}

/** Every row of every table that keeps a birthday in clear. */
async function rowsWithBirthday(db: Db): Promise<{ table: string; row: Record<string, unknown> }[]> {
  const tables = (
    ON_POSTGRES
      ? await db.all<{ name: string }>(sql`
          SELECT table_name AS name FROM information_schema.columns
          WHERE column_name = 'birthday' AND table_schema = current_schema()`)
      : await db.all<{ name: string }>(sql`
          SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) p
          WHERE m.type = 'table' AND p.name = 'birthday'`)
  ).map((t) => t.name);
  const out: { table: string; row: Record<string, unknown> }[] = [];
  for (const table of tables) {
    for (const row of await db.all<Record<string, unknown>>(sql`SELECT * FROM ${sql.raw(table)}`))
      out.push({ table, row });
  }
  return out;
}

/** The number of digits of the longest mask (digits and '*') among a row's values. */
const maskDigits = (row: Record<string, unknown>) =>
  Math.max(
    0,
    ...Object.values(row).map((value) =>
      typeof value === 'string' && /^[\dX*]{8,}$/i.test(value) && value.includes('*')
        ? value.replace(/\*/g, '').length
        : 0,
    ),
  );

const RUNNERS = [
  { name: '迁移甲', birthday: '1990-01-01', certNo: idNumber('320102', '1990-01-01', '123') },
  { name: '迁移乙', birthday: '1985-07-19', certNo: idNumber('110105', '1985-07-19', '042') },
];

describe('personal numbers at rest', () => {
  it('keeps no masked number beside a birthday after migration 17, and the answers mask as before', async () => {
    const dataDir = tempDir();
    const env = await testEnv({ ID_NUMBER_SECRET: TEST_ID_NUMBER_SECRET }, await databaseFor(dataDir, { empty: true }));
    const key = TEST_ID_NUMBER_SECRET;
    // The database as a server before migration 17 left it, with registrations as it imported them.
    const older = openEngine(databaseTarget(dataDir, env));
    older.sqlite?.function('keyed_cert_hash', { deterministic: true }, (digest: unknown) =>
      keyedCertHash(key, String(digest)),
    );
    await migrate(
      older.db,
      1,
      MIGRATIONS.filter((m) => m.id < 17),
    );
    for (const runner of RUNNERS) {
      await older.db.run(sql`
        INSERT INTO registrations (race_id, bib, name, gender, birthday, cert_type, cert_hash, cert_masked,
          phone_masked, emergency_name, emergency_phone_masked, item, status, orders_json, channel)
        VALUES ('older-race', NULL, ${runner.name}, 1, ${runner.birthday}, 1,
          ${keyedCertHash(key, certDigest(runner.certNo))}, ${maskCertNo(runner.certNo)}, '138****8000', '联系人',
          '139****0000', 'M', 1, '[]', 3)`);
    }
    // What was kept in clear narrowed each number to a handful of candidates.
    const before = await rowsWithBirthday(older.db);
    const registrationsBefore = before.filter((r) => r.table === 'registrations');
    expect(registrationsBefore).toHaveLength(2);
    for (const { row } of registrationsBefore) {
      expect(maskDigits(row)).toBe(8);
      expect(candidatesFromClear(row)).toBeLessThanOrEqual(11);
    }
    await older.db.close();

    const opened = await openTestDatabase({
      dataDir,
      seedDir: FIXTURE_SEED,
      now: 2,
      env: { ID_NUMBER_SECRET: TEST_ID_NUMBER_SECRET },
    });
    try {
      const after = await rowsWithBirthday(opened.db);
      expect(after.filter((r) => r.table === 'registrations')).toHaveLength(2);
      for (const { table, row } of after) {
        expect(maskDigits(row), `${table} ${JSON.stringify(row)}`).toBeLessThan(8);
        expect(candidatesFromClear(row), table).toBeGreaterThanOrEqual(1_000_000);
      }
      // The lookup still answers the same mask, from the number it was given.
      const repo = opened.repos.raceCenter;
      for (const runner of RUNNERS) {
        const found = await repo.registration('older-race', repo.certHash(runner.certNo), runner.name);
        if (found?.source !== 'imported') throw new Error(`${runner.name}: no imported registration found`);
        const { row } = found;
        const info = toRegistrationInfo(row, undefined, 3, ` ${runner.certNo.toLowerCase()} `);
        expect(info.participant.certificateNumber).toBe(
          `${runner.certNo.slice(0, 4)}${'*'.repeat(10)}${runner.certNo.slice(-4)}`,
        );
        expect(info.participant.birthday).toBe(runner.birthday);
      }
    } finally {
      await opened.db.close();
    }
    // On SQLite the file (and its WAL) keeps none of the old masks in freed pages either.
    if (!ON_POSTGRES) {
      const { dbFile } = dataPaths(dataDir);
      const bytes = [dbFile, `${dbFile}-wal`]
        .filter((file) => existsSync(file))
        .map((file) => readFileSync(file).toString('latin1'))
        .join('');
      for (const runner of RUNNERS) expect(bytes).not.toContain(maskCertNo(runner.certNo));
    }
  });
});
