/**
 * Issue 27: the files of runners' data are the server account's only: the data folder 0700; the SQLite
 * database, its WAL and shared-memory files 0600 (also those SQLite makes again later); uploaded files 0600 in
 * 0700 folders; `codes-issue --out` (invitation codes are bearer passes) 0600, an older file of that name too.
 */
import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/engine.ts';
import { folderFileStore } from '../src/lib/file-store.ts';
import { dataPaths } from '../src/lib/paths.ts';
import {
  FIXTURE_RACE_ID,
  FIXTURE_SEED,
  ON_POSTGRES,
  openTestDatabase,
  removeTempDirs,
  siteCli,
  tempDir,
} from './helpers.ts';

afterAll(removeTempDirs);

const modeOf = (file: string) => statSync(file).mode & 0o777;
const NOW = Date.UTC(2025, 5, 16, 2, 0, 0);

describe.skipIf(process.platform === 'win32')('owner-only files', () => {
  it('keeps the data folder 0700 and the SQLite database with its WAL and SHM 0600, made again later too', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const opened = await openTestDatabase({ dataDir, seedDir: FIXTURE_SEED, now: NOW });
    try {
      expect(modeOf(dataDir)).toBe(0o700);
      if (ON_POSTGRES) return;
      const { dbFile } = dataPaths(dataDir);
      await opened.db.run(sql`CREATE TABLE IF NOT EXISTS mode_probe (n INTEGER)`);
      await opened.db.run(sql`INSERT INTO mode_probe (n) VALUES (1)`);
      for (const file of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) expect(modeOf(file), file).toBe(0o600);
      // A checkpoint that truncates the WAL, then a write: the WAL SQLite writes again keeps the mode.
      opened.sqlite!.pragma('wal_checkpoint(TRUNCATE)');
      await opened.db.run(sql`INSERT INTO mode_probe (n) VALUES (2)`);
      expect(modeOf(`${dbFile}-wal`)).toBe(0o600);
    } finally {
      await opened.db.close();
    }
    if (ON_POSTGRES) return;
    // An older data folder made world-readable: made owner-only when the server opens it.
    const { dbFile } = dataPaths(dataDir);
    const { chmodSync } = await import('node:fs');
    chmodSync(dataDir, 0o755);
    chmodSync(dbFile, 0o644);
    const again = await openTestDatabase({ dataDir, seedDir: FIXTURE_SEED, now: NOW });
    await again.db.close();
    expect([modeOf(dataDir), modeOf(dbFile)]).toEqual([0o700, 0o600]);
  });

  it('stores uploaded files 0600 in 0700 folders', async () => {
    const root = tempDir();
    const store = folderFileStore(root);
    await store.put('uploads/uploads/id-photo.jpg', Buffer.from('photo'));
    expect(modeOf(path.join(root, 'uploads/uploads/id-photo.jpg'))).toBe(0o600);
    expect(modeOf(path.join(root, 'uploads/uploads'))).toBe(0o700);
    expect(modeOf(path.join(root, 'uploads'))).toBe(0o700);
  });

  it('writes codes-issue --out owner-only, an older world-readable file of that name too', async () => {
    const dataDir = tempDir();
    const opened = await openTestDatabase({ dataDir, seedDir: FIXTURE_SEED, now: NOW });
    try {
      const race = (await opened.repos.races.findById(FIXTURE_RACE_ID))!;
      const entry = {
        allowMultiple: false,
        items: [
          { code: 'M', name: { zh: '全程', en: 'Marathon' }, capacity: 10, feeFen: 100, model: 'firstCome' as const },
        ],
      };
      await opened.repos.races.save({ ...race, entry }, NOW);
    } finally {
      await opened.db.close();
    }
    const out = path.join(tempDir(), 'codes.csv');
    writeFileSync(out, 'old', { mode: 0o644 });
    const res = await siteCli(dataDir)('codes-issue', FIXTURE_RACE_ID, 'M', '--count', '2', '--out', out);
    expect(res.code, res.err).toBe(0);
    expect(modeOf(out)).toBe(0o600);
  });
});
