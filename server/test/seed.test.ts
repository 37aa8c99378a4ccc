import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { DEMO_ACCOUNT } from '../src/plugins/accounts.ts';
import { buildTestApp, FIXTURE_SEED, removeTempDirs, tempDir } from './helpers.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('the demo seed', () => {
  it('passes the seed check: schema, images, routes, partners, translations', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/seed/check-seed.ts'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(result.stderr + result.stdout).toContain('seed check passed');
    expect(result.status).toBe(0);
  });
});

describe('the demo runner account (its password is in the README)', () => {
  /** Whether a server started on a fresh database with `seedDir` has the demo account. */
  async function hasDemoAccount(seedDir: string): Promise<boolean> {
    const app = await buildTestApp({ seedDir });
    try {
      return (
        (await app.repos.users.findByPhone(DEMO_ACCOUNT.phone)) !== undefined ||
        (await app.repos.users.findByEmail(DEMO_ACCOUNT.email)) !== undefined
      );
    } finally {
      await app.close();
    }
  }

  it('is created with the demo seed only: not with the organiser’s own seed, nor with none', async () => {
    try {
      expect(await hasDemoAccount(FIXTURE_SEED)).toBe(true);

      // The organiser's own event: the same kind of seed without "demoAccount".
      const own = tempDir();
      cpSync(FIXTURE_SEED, own, { recursive: true });
      const raceFile = path.join(own, 'race.json');
      const doc = JSON.parse(readFileSync(raceFile, 'utf8')) as { demoAccount?: boolean };
      delete doc.demoAccount;
      writeFileSync(raceFile, JSON.stringify(doc));
      expect(await hasDemoAccount(own)).toBe(false);

      // No seed at all (an empty SEED_DIR).
      expect(await hasDemoAccount(tempDir())).toBe(false);
    } finally {
      removeTempDirs();
    }
  }, 60_000);
});
