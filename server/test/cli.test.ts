import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { buildTestApp, FIXTURE_RACE_ID, FIXTURE_SEED, FIXTURES, removeTempDirs, siteCli, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

describe('site CLI', () => {
  it('lists the seeded bindings with race name and published md5', async () => {
    const run = siteCli(tempDir());
    const res = await run('list');
    expect(res.code).toBe(0);
    expect(res.out).toContain('localhost');
    expect(res.out).toContain(`${FIXTURE_RACE_ID} (2025 测试马拉松)`);
    expect(res.out).toMatch(/published: [0-9a-f]{32} at 2025-06-16T02:00:00\.000Z/);
  });

  it('validates a document: "valid", or every problem with its JSON path and exit 1', async () => {
    const run = siteCli(tempDir());
    expect(await run('validate', 'valid-site-config.json')).toMatchObject({ code: 0, out: 'valid' });
    const bad = await run('validate', 'invalid-site-config.json');
    expect(bad.code).toBe(1);
    for (const p of [
      '$.version',
      '$.websiteTitle',
      '$.carouselList[0].surfacePlotUrl',
      '$.searchConfigList[0].moduleType',
    ]) {
      expect(bad.err).toContain(p);
    }
  });

  it('reports broken JSON with its line and column', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'broken.json');
    writeFileSync(file, '{\n  "version": "1.0.0",\n  "websiteTitle": "x",\n  "logo": \n}\n');
    const res = await siteCli(dir)('validate', file);
    expect(res.code).toBe(1);
    expect(res.err).toContain('Invalid JSON at line 5, column 1');
  });

  it('refuses to publish an invalid document, printing the JSON paths, and publishes nothing', async () => {
    const dataDir = tempDir();
    const run = siteCli(dataDir);
    const before = (await run('list')).out;
    const res = await run('publish', 'localhost', 'invalid-site-config.json');
    expect(res.code).toBe(1);
    expect(res.err).toContain('Refused to publish');
    expect(res.err).toContain('$.carouselList[0].surfacePlotUrl');
    expect((await run('list')).out).toBe(before);
  });

  it('publishes a document that the server then serves with a matching md5', async () => {
    const dataDir = tempDir();
    const run = siteCli(dataDir);
    const res = await run('publish', 'localhost', 'valid-site-config.json');
    expect(res.code).toBe(0);
    const md5 = createHash('md5')
      .update(readFileSync(path.join(FIXTURES, 'valid-site-config.json')))
      .digest('hex');
    expect(res.out).toContain(`md5 ${md5}`);
    expect(res.out).toContain(`uri ${API_PATHS.siteConfigFilesPrefix}${md5}.json`);

    const app = await buildTestApp({ dataDir, seedDir: FIXTURE_SEED });
    try {
      const lookup = (
        await app.inject({ method: 'GET', url: `${API_PATHS.siteConfigLookup}?domainName=localhost` })
      ).json();
      expect(lookup.data.fileMd5).toBe(md5);
      const doc = await app.inject({ method: 'GET', url: lookup.data.uri });
      expect(createHash('md5').update(doc.rawPayload).digest('hex')).toBe(md5);
      expect(doc.json().websiteTitle).toBe('2026 Another Race');
    } finally {
      await app.close();
    }
  });

  it('adds a race, binds a domain to it (replacing a binding) and unbinds it', async () => {
    const dataDir = tempDir();
    const run = siteCli(dataDir);
    expect(await run('bind', 'race.example.com', 'another-race-2026')).toMatchObject({ code: 1 });
    expect(await run('add-race', 'another-race.json')).toMatchObject({
      code: 0,
      out: 'added race another-race-2026 (2026 另一场比赛)',
    });
    expect((await run('add-race', 'another-race.json')).out).toContain('updated race another-race-2026');
    const bound = await run('bind', 'Race.Example.com', 'another-race-2026');
    expect(bound.code).toBe(0);
    expect(bound.out).toContain('bound race.example.com to another-race-2026');
    expect((await run('bind', 'race.example.com', FIXTURE_RACE_ID)).out).toContain('(was another-race-2026)');

    const app = await buildTestApp({ dataDir, seedDir: FIXTURE_SEED });
    try {
      const res = await app.inject({ method: 'GET', url: `${API_PATHS.raceByDomain}?domainName=race.example.com` });
      expect(res.json().data).toEqual({ raceId: FIXTURE_RACE_ID, domainName: 'race.example.com' });
    } finally {
      await app.close();
    }

    expect(await run('unbind', 'race.example.com')).toMatchObject({ code: 0, out: 'unbound race.example.com' });
    expect(await run('unbind', 'race.example.com')).toMatchObject({ code: 1, err: 'race.example.com is not bound' });
  });

  it('refuses an invalid race file with its JSON paths', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'race.json'), JSON.stringify({ raceId: 'ok', signUpMaxNumber: 'many' }));
    const res = await siteCli(dir)('add-race', path.join(dir, 'race.json'));
    expect(res.code).toBe(1);
    expect(res.err).toContain('$.raceName');
    expect(res.err).toContain('$.signUpMaxNumber');
  });

  it("answers usage errors with exit code 2, the command's usage and where the help is (not the whole help)", async () => {
    const run = siteCli(tempDir());
    for (const argv of [
      [],
      ['nope'],
      ['bind', 'only-domain'],
      ['bind', '127.0.0.1', FIXTURE_RACE_ID],
      ['bind', 'bad_domain!', 'x'],
      ['codes-list', FIXTURE_RACE_ID, 'extra'],
      ['entry-close'],
      ['ballot-draw', FIXTURE_RACE_ID, 'M', '--round'],
    ]) {
      const res = await run(...argv);
      expect(res.code, argv.join(' ')).toBe(2);
      expect(res.err).toContain('See `npm run site -- help` for every command.');
      expect(res.err).not.toContain('Commands:');
      expect(res.err.split('\n').length, res.err).toBeLessThan(15);
    }
    expect((await run('bind', 'only-domain')).err).toBe(
      [
        '"bind" takes 2 arguments, got 1.',
        '',
        'Usage:',
        '  bind <domain> <raceId>        bind a domain to a race (replaces an existing binding)',
        '',
        'See `npm run site -- help` for every command.',
      ].join('\n'),
    );
    expect((await run('entry-close')).err).toContain(
      '  entry-open <raceId> / entry-close <raceId> [--item <code>] [--channel <name>]\n      open or close',
    );
    expect((await run('ballot-draw', FIXTURE_RACE_ID, 'M', '--round')).err).toContain(
      '  ballot-draw <raceId> <itemCode>',
    );
    expect(await run('help')).toMatchObject({ code: 0 });
    expect((await run('help')).out).toContain('publish <domain> <file.json>');
  });

  it("stores the event's own images through the file store, served by the site, removed only when unused", async () => {
    const dataDir = tempDir();
    const run = siteCli(dataDir);
    const png = path.join(FIXTURES, 'images', '3x2.png');
    const added = await run('asset-add', FIXTURE_RACE_ID, png, '--name', 'logo.png');
    expect(added.code, added.err).toBe(0);
    expect(added.out).toContain('3×2 px');
    expect(added.out).toContain(`use in the site configuration: "assets/${FIXTURE_RACE_ID}/logo.png"`);
    const dir = tempDir();
    const svg = path.join(dir, 'Route Map.SVG');
    writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>');
    expect((await run('asset-add', FIXTURE_RACE_ID, svg)).out).toContain(`"assets/${FIXTURE_RACE_ID}/route-map.svg"`);

    // Checks: the content must be of its type, a known type, within the size; a name is added once.
    const fake = path.join(dir, 'fake.png');
    writeFileSync(fake, 'not a png');
    expect((await run('asset-add', FIXTURE_RACE_ID, fake)).err).toContain('fake.png: the content is not a .png file');
    const script = path.join(dir, 'x.html');
    writeFileSync(script, '<script>alert(1)</script>');
    expect((await run('asset-add', FIXTURE_RACE_ID, script)).err).toContain('the type must be one of');
    const big = path.join(dir, 'big.png');
    writeFileSync(big, Buffer.concat([readFileSync(png), Buffer.alloc(6 * 1024 * 1024)]));
    expect((await run('asset-add', FIXTURE_RACE_ID, big)).err).toContain('more than the 5 MB');
    expect((await run('asset-add', FIXTURE_RACE_ID, png, '--name', 'logo.png')).err).toContain(
      'already has an asset logo.png',
    );
    expect((await run('asset-add', 'no-such-race', png)).code).toBe(1);
    expect((await run('asset-add', FIXTURE_RACE_ID)).code).toBe(2);

    // The published site configuration uses the logo: the site serves it, and removing it is refused.
    const config = JSON.parse(readFileSync(path.join(FIXTURES, 'valid-site-config.json'), 'utf8'));
    const withLogo = path.join(dir, 'with-logo.json');
    writeFileSync(withLogo, JSON.stringify({ ...config, logo: `assets/${FIXTURE_RACE_ID}/logo.png` }));
    expect((await run('publish', 'localhost', withLogo)).code).toBe(0);
    const listed = await run('asset-list', FIXTURE_RACE_ID);
    expect(listed.out).toContain('2 assets of fixture-race-2025');
    expect(listed.out).toMatch(/logo\.png +assets\/fixture-race-2025\/logo\.png +\S+ B +3×2 +localhost/);
    expect(listed.out).toMatch(/route-map\.svg .* - +-$/m);
    const refused = await run('asset-remove', FIXTURE_RACE_ID, 'logo.png');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('is used by the published site configuration of localhost');

    const app = await buildTestApp({ dataDir, seedDir: FIXTURE_SEED });
    try {
      const served = await app.inject({ method: 'GET', url: `/files/assets/${FIXTURE_RACE_ID}/logo.png` });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.rawPayload.equals(readFileSync(png))).toBe(true);
    } finally {
      await app.close();
    }

    // Published again without it: removed, and no longer served.
    expect((await run('publish', 'localhost', 'valid-site-config.json')).code).toBe(0);
    expect(await run('asset-remove', FIXTURE_RACE_ID, 'logo.png')).toMatchObject({ code: 0 });
    expect((await run('asset-list', FIXTURE_RACE_ID)).out).not.toContain('logo.png');
    const after = await buildTestApp({ dataDir, seedDir: FIXTURE_SEED });
    try {
      expect((await after.inject({ method: 'GET', url: `/files/assets/${FIXTURE_RACE_ID}/logo.png` })).statusCode).toBe(
        404,
      );
    } finally {
      await after.close();
    }
  });

  it('reports a missing file clearly', async () => {
    const res = await siteCli(tempDir())('validate', 'no-such-file.json');
    expect(res.code).toBe(1);
    expect(res.err).toBe('Cannot read no-such-file.json: no such file');
  });

  it('runs as a process with the documented exit codes', async () => {
    const exec = promisify(execFile);
    const repo = path.resolve(FIXTURES, '../../..');
    const script = path.join(repo, 'server/src/cli/site.ts');
    const env = { ...process.env, DATA_DIR: tempDir(), SEED_DIR: FIXTURE_SEED };
    const ok = await exec(
      process.execPath,
      ['--import', 'tsx', script, 'validate', path.join(FIXTURES, 'valid-site-config.json')],
      { cwd: repo, env },
    );
    expect(ok.stdout.trim()).toBe('valid');
    const bad = await exec(
      process.execPath,
      ['--import', 'tsx', script, 'publish', 'localhost', path.join(FIXTURES, 'invalid-site-config.json')],
      { cwd: repo, env },
    ).catch((e: { code: number; stderr: string }) => e);
    expect(bad).toMatchObject({ code: 1 });
    expect((bad as { stderr: string }).stderr).toContain('$.websiteTitle');
  });
});
