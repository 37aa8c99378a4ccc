import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { validateSiteConfig } from '#contract/site-config/schema';
import { buildApp } from '../src/app.ts';
import { migrate } from '../src/db/database.ts';
import { openEngine, sql } from '../src/db/engine.ts';
import { certDigest, keyedCertHash } from '../src/lib/race-center.ts';
import { dataPaths } from '../src/lib/paths.ts';
import { MIGRATIONS } from '../src/db/migrations.ts';
import {
  buildTestApp,
  FIXTURE_SEED,
  ON_POSTGRES,
  openTestDatabase,
  removeTempDirs,
  tempDir,
  testEnv,
} from './helpers.ts';
import { oneFinisherResult } from './race-center-fixture.ts';

const apps: { close: () => Promise<unknown> }[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});
afterAll(removeTempDirs);

async function testApp(options: Parameters<typeof buildTestApp>[0] = {}) {
  const app = await buildTestApp(options);
  apps.push(app);
  return app;
}

describe('error envelopes', () => {
  it('answers an unknown API path with a 404 envelope', async () => {
    const app = await testApp();
    for (const [method, url] of [
      ['GET', '/website-centre/api/nope'],
      ['POST', '/changzheng-basic-center-api/api/nope'],
      ['GET', '/nope'],
      ['DELETE', API_PATHS.raceBaseInfo],
    ] as const) {
      const res = await app.inject({ method, url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const body = res.json();
      expect(body).toMatchObject({ code: 404, data: null });
      expect(body.msg).toContain(url);
    }
  });

  it('answers a malformed URL with a 400 envelope', async () => {
    const app = await testApp();
    const res = await app.inject({ method: 'GET', url: '/config/i18n/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, data: null });
  });

  it('answers an unsupported body type with a 415 envelope', async () => {
    const app = await testApp();
    const res = await app.inject({
      method: 'POST',
      url: API_PATHS.raceBaseInfo,
      headers: { 'content-type': 'application/xml' },
      payload: '<raceId/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 415, data: null });
  });

  it('answers a 5xx with a generic message that leaks no internals', async () => {
    const app = await buildApp({ dataDir: tempDir(), seedDir: FIXTURE_SEED, env: await testEnv() });
    apps.push(app);
    app.get('/website-centre/api/test-failure', async () => {
      throw new Error('SQLITE_CORRUPT at /secret/path/race-site.db');
    });
    const res = await app.inject({ method: 'GET', url: '/website-centre/api/test-failure' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 500, msg: 'Internal Server Error', data: null, msgCode: 'internal' });
    expect(res.body).not.toContain('secret');
  });

  it('marks every answer nosniff', async () => {
    const app = await testApp();
    const res = await app.inject({ method: 'GET', url: API_PATHS.countryList });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('SPA', () => {
  function fakeDist() {
    const dir = tempDir('race-site-dist-');
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>race-site</title><div id="root"></div>');
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    return dir;
  }

  it('serves index.html at / without caching it', async () => {
    const app = await testApp({ staticDir: fakeDist() });
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root">');
  });

  it('falls back to index.html for client routes that are not API paths or files', async () => {
    const app = await testApp({ staticDir: fakeDist() });
    for (const url of ['/home', '/news-notice/race-news?x=1', '/i18NDemos']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('keeps API 404s and missing files as 404 envelopes', async () => {
    const app = await testApp({ staticDir: fakeDist() });
    for (const url of [
      '/website-centre/api/nope',
      '/config/nope',
      '/assets/missing.js',
      '/assets/chunk',
      '/files/nope.png',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ code: 404, data: null });
    }
    const post = await app.inject({ method: 'POST', url: '/home' });
    expect(post.statusCode).toBe(404);
  });

  it('caches hashed assets for a year and still serves the API', async () => {
    const app = await testApp({ staticDir: fakeDist() });
    const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).not.toContain('immutable');
    const api = await app.inject({ method: 'GET', url: `${API_PATHS.raceByDomain}?domainName=localhost` });
    expect(api.json().code).toBe(0);
  });

  it('answers unknown non-API paths with a 404 envelope when no SPA is served', async () => {
    const app = await testApp();
    const res = await app.inject({ method: 'GET', url: '/home' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe(404);
  });
});

describe('database and seed', () => {
  it('creates the data directory and seeds the demo on first start, once', async () => {
    const dataDir = path.join(tempDir(), 'nested', 'data');
    const first = await openTestDatabase({ dataDir, seedDir: FIXTURE_SEED, now: 1 });
    expect(first.seed).toEqual({
      seeded: true,
      raceId: 'fixture-race-2025',
      domains: ['localhost', 'www.fixture-race.example'],
    });
    expect(first.db.engine).toBe(ON_POSTGRES ? 'postgres' : 'sqlite');
    if (first.sqlite) {
      expect(first.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(first.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    }
    await first.db.close();
    const second = await openTestDatabase({ dataDir, seedDir: FIXTURE_SEED, now: 2 });
    expect(second.seed).toEqual({ seeded: false, reason: 'not-empty' });
    const applied = await second.db.all<{ id: number }>(sql`SELECT id FROM migrations ORDER BY id`);
    expect(applied.map((m) => m.id)).toEqual(MIGRATIONS.map((m) => m.id));
    expect(await second.repos.siteConfigs.listLatest()).toHaveLength(2);
    await second.db.close();
  });

  // On SQLite the instances of one machine are worker processes (server-process.test.ts); two in one thread
  // would wait on each other's write lock, so this runs where instances are separate by design.
  it.runIf(ON_POSTGRES)('seeds once when two instances start together on one PostgreSQL database', async () => {
    const dataDir = tempDir();
    const both = await Promise.all([1, 2].map(() => openTestDatabase({ dataDir, seedDir: FIXTURE_SEED, now: 1 })));
    try {
      expect(both.filter((opened) => opened.seed.seeded)).toHaveLength(1);
      expect(await both[0]!.repos.races.count()).toBe(1);
      expect(await both[1]!.repos.siteConfigs.listLatest()).toHaveLength(2);
      // Both use the same keys (from the data folder on SQLite, from the database on PostgreSQL).
      expect(both[0]!.secrets).toEqual(both[1]!.secrets);
    } finally {
      for (const opened of both) await opened.db.close();
    }
  });

  it.skipIf(ON_POSTGRES)(
    'keys the certificate-number hashes an older SQLite database holds (migration 6), keeping their lookups',
    async () => {
      const dataDir = tempDir();
      mkdirSync(dataDir, { recursive: true });
      const older = openEngine({ engine: 'sqlite', file: dataPaths(dataDir).dbFile }).db;
      await migrate(
        older,
        1,
        MIGRATIONS.filter((m) => m.id < 6),
      );
      // The row as the server of that time wrote it (today's repository also raises a data version, a later table).
      const row = oneFinisherResult('older-race', 'A1', '迁移测试', certDigest('m1234567'));
      const columns = Object.keys(row) as (keyof typeof row)[];
      await older.run(
        sql`INSERT INTO results (${sql.raw(columns.join(', '))}) VALUES (${sql.join(columns.map((c) => row[c]))})`,
      );
      await older.close();
      const opened = await openTestDatabase({ dataDir, seedDir: FIXTURE_SEED, now: 2 });
      try {
        const repo = opened.repos.raceCenter;
        expect((await repo.resultsByCert(repo.certHash('M1234567'), '迁移测试')).map((r) => r.bib)).toEqual(['A1']);
        const stored = (
          await opened.db.get<{ cert_hash: string }>(sql`SELECT cert_hash FROM results WHERE race_id = 'older-race'`)
        )?.cert_hash;
        expect(stored).not.toBe(certDigest('M1234567'));
        const key = readFileSync(path.join(dataDir, 'id-number-secret'), 'utf8').trim();
        expect(stored).toBe(keyedCertHash(key, certDigest('M1234567')));
      } finally {
        await opened.db.close();
      }
    },
  );

  it('starts with an empty database when there is no seed', async () => {
    const app = await testApp({ seedDir: tempDir('race-site-no-seed-') });
    expect(await app.repos.races.count()).toBe(0);
    const res = await app.inject({ method: 'GET', url: `${API_PATHS.siteConfigLookup}?domainName=localhost` });
    expect(res.json()).toEqual({ code: 404, msg: '未绑定赛事...', data: null, msgCode: 'unboundRace' });
  });

  it('refuses to seed an invalid site configuration, naming every JSON path', async () => {
    const seedDir = tempDir('race-site-bad-seed-');
    mkdirSync(path.join(seedDir, 'site-configs'));
    writeFileSync(
      path.join(seedDir, 'race.json'),
      JSON.stringify({ race: { raceId: 'r1', raceName: 'R1' }, bindings: [{ domainName: 'localhost', raceId: 'r1' }] }),
    );
    writeFileSync(
      path.join(seedDir, 'site-configs', 'localhost.json'),
      JSON.stringify({ version: '1', logo: 'x', carouselList: [{ jumpUrl: 'y' }] }),
    );
    const dataDir = tempDir();
    await expect(buildTestApp({ dataDir, seedDir })).rejects.toThrow(
      /\$\.websiteTitle[\s\S]*\$\.carouselList\[0\]\.surfacePlotUrl/,
    );
    // Nothing was half-seeded.
    const opened = await openTestDatabase({ dataDir, seedDir: tempDir(), now: 1 });
    expect(await opened.repos.races.count()).toBe(0);
    await opened.db.close();
  });

  it('refuses an invalid race or binding in race.json', async () => {
    const seedDir = tempDir('race-site-bad-race-');
    writeFileSync(
      path.join(seedDir, 'race.json'),
      JSON.stringify({ race: { raceId: 'r 1' }, bindings: [{ domainName: '127.0.0.1', raceId: 'r 1' }] }),
    );
    await expect(openTestDatabase({ dataDir: tempDir(), seedDir, now: 1 })).rejects.toThrow(
      /\$\.race\.raceId[\s\S]*\$\.race\.raceName/,
    );
  });
});

describe('the demo seed (server/seed)', () => {
  it('seeds, and serves for localhost a valid site config and the bound race', async () => {
    const seedDir = path.join(import.meta.dirname, '..', 'seed');
    const seed = JSON.parse(readFileSync(path.join(seedDir, 'race.json'), 'utf8')) as {
      race: { raceId: string };
      bindings: { domainName: string }[];
    };
    const app = await buildTestApp({ seedDir });
    apps.push(app);
    expect(seed.bindings.map((b) => b.domainName)).toContain('localhost');
    const binding = (await app.inject({ method: 'GET', url: `${API_PATHS.raceByDomain}?domainName=localhost` })).json();
    expect(binding.data).toEqual({ raceId: seed.race.raceId, domainName: 'localhost' });
    const lookup = (
      await app.inject({ method: 'GET', url: `${API_PATHS.siteConfigLookup}?domainName=localhost` })
    ).json();
    const doc = await app.inject({ method: 'GET', url: lookup.data.uri });
    expect(createHash('md5').update(doc.rawPayload).digest('hex')).toBe(lookup.data.fileMd5);
    expect(validateSiteConfig(doc.json())).toEqual([]);
    const race = await app.inject({
      method: 'POST',
      url: API_PATHS.raceBaseInfo,
      payload: { raceId: seed.race.raceId },
    });
    expect(race.json().data.raceId).toBe(seed.race.raceId);
    // The whole demo event: 30,000 runners, and the configuration compressed at brotli's best.
  });
});
