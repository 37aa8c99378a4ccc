/**
 * The console's asset library (issue 33 §1; routes/admin/assets.ts, services/organiser/event-assets.ts): add
 * images and documents (type, content, size and name checked, each refusal a message code in zh and en), list
 * them with what uses each (the published site configuration, the registration forms, the race information),
 * replace one under its name (the site serves the new bytes at once) and remove only what nothing uses. Every
 * change is audited as the CLI's are (asset.add, asset.replace, asset.remove). Only 'site' in the race. Runs on
 * both engines.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_IMAGE_SLOTS, slotKey, type AssetInfo, type AssetListing } from '#contract/assets';
import { CONSOLE_MESSAGES } from '#contract/console-messages';
import { assetUses } from '../src/services/organiser/event-assets.ts';
import { consoleMember, type ConsoleCaller } from './console-helpers.ts';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, FIXTURES, removeTempDirs, siteCli, tempDir } from './helpers.ts';
import { pngOf } from './png.ts';

const clock = fakeClock();
const dataDir = tempDir();
let app: FastifyInstance;
let service: ConsoleCaller;
let finance: ConsoleCaller;
let otherRace: ConsoleCaller;

const PNG = readFileSync(path.join(FIXTURES, 'images', '3x2.png'));
const GIF = readFileSync(path.join(FIXTURES, 'images', '4x3.gif'));
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const url = `/races/${FIXTURE_RACE_ID}/assets`;
const b64 = (bytes: Buffer) => bytes.toString('base64');
const list = async () => ((await service('GET', url)).json().data as AssetListing).assets;

beforeAll(async () => {
  app = await buildTestApp({ dataDir, env: { RATE_LIMITS: 'off', JOBS: 'off' }, now: clock.now });
  service = await consoleMember(app, 'service', clock.now);
  finance = await consoleMember(app, 'finance', clock.now);
  const race = (await app.repos.races.findById(FIXTURE_RACE_ID))!;
  await app.repos.races.save({ ...race, raceId: 'another-race' }, clock.now());
  otherRace = await consoleMember(app, 'service', clock.now, ['another-race']);
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

describe('the asset library', () => {
  it('adds an image and a document, lists them with size, dimensions and checksum, and audits each', async () => {
    const image = await service('POST', url, { content: b64(PNG), fileName: 'Logo Main.PNG' });
    expect(image.json(), image.body).toMatchObject({ code: 0 });
    expect(image.json().data).toMatchObject({
      name: 'logo-main.png',
      path: `assets/${FIXTURE_RACE_ID}/logo-main.png`,
      url: `/files/assets/${FIXTURE_RACE_ID}/logo-main.png`,
      type: 'png',
      bytes: PNG.length,
      size: { width: 3, height: 2 },
    } satisfies Partial<AssetInfo>);
    const doc = await service('POST', url, { content: b64(PDF), fileName: 'rules.pdf', name: 'rules-2027.pdf' });
    expect(doc.json().data).toMatchObject({ name: 'rules-2027.pdf', type: 'pdf', size: null });

    const assets = await list();
    expect(assets.map((a) => [a.name, a.usedBy])).toEqual([
      ['logo-main.png', []],
      ['rules-2027.pdf', []],
    ]);
    expect(assets[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(assets[0]!.uploaded).toEqual({ at: clock.now(), by: expect.stringContaining('service') });
    const logged = await app.repos.audit.find({ action: 'asset.add', limit: 5 });
    expect(logged.map((r) => [r.target, r.staffId])).toEqual(
      expect.arrayContaining([
        [`assets/${FIXTURE_RACE_ID}/logo-main.png`, service.staffId],
        [`assets/${FIXTURE_RACE_ID}/rules-2027.pdf`, service.staffId],
      ]),
    );
  });

  it('refuses a wrong type, content not of its type, a file too big, a name taken or invalid, with a message code', async () => {
    const refusals = [
      [{ content: b64(Buffer.from('<script>alert(1)</script>')), fileName: 'x.html' }, 400, 'assetTypeInvalid'],
      [{ content: b64(Buffer.from('not a png')), fileName: 'fake.png' }, 400, 'assetContentMismatch'],
      [{ content: b64(Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)])), fileName: 'big.png' }, 413, 'assetTooBig'],
      [{ content: b64(PNG), fileName: 'logo-main.png' }, 409, 'assetNameTaken'],
      [{ content: b64(PNG), fileName: 'x.png', name: '../x.png' }, 400, 'assetNameInvalid'],
      [{ content: '', fileName: 'empty.pdf' }, 400, 'assetEmpty'],
    ] as const;
    for (const [body, status, msgCode] of refusals) {
      const res = await service('POST', url, body);
      expect([res.json().code, res.json().msgCode], body.fileName).toEqual([status, msgCode]);
      expect(CONSOLE_MESSAGES[msgCode].zh).toBeTruthy();
    }
    // A document up to 20 MB passes the body limit.
    const bigPdf = Buffer.concat([PDF, Buffer.alloc(19 * 1024 * 1024, 32)]);
    const big = await service('POST', url, { content: b64(bigPdf), fileName: 'big-guide.pdf' });
    expect(big.json()).toMatchObject({ code: 0, data: { bytes: bigPdf.length } });
    expect((await service('POST', `${url}/big-guide.pdf/remove`)).json()).toMatchObject({ code: 0 });
    expect((await list()).map((a) => a.name)).toEqual(['logo-main.png', 'rules-2027.pdf']);
  });

  it('lists where each asset is used, refuses removing a used one naming where, removes an unused one', async () => {
    const run = siteCli(dataDir, clock.now);
    const config = JSON.parse(readFileSync(path.join(FIXTURES, 'valid-site-config.json'), 'utf8'));
    const file = path.join(tempDir(), 'with-logo.json');
    writeFileSync(file, JSON.stringify({ ...config, logo: `assets/${FIXTURE_RACE_ID}/logo-main.png` }));
    expect((await run('publish', 'localhost', file)).code).toBe(0);
    const race = (await app.repos.races.findById(FIXTURE_RACE_ID))!;
    await app.repos.races.save(
      { ...race, imgDetail: `assets/${FIXTURE_RACE_ID}/logo-main.png,assets/${FIXTURE_RACE_ID}/rules-2027.pdf` },
      clock.now(),
    );

    const assets = await list();
    expect(assets.find((a) => a.name === 'logo-main.png')!.usedBy).toEqual([
      { where: 'site', of: 'localhost', field: 'logo' },
      { where: 'race', of: FIXTURE_RACE_ID, field: 'imgDetail' },
    ]);
    const refused = await service('POST', `${url}/logo-main.png/remove`);
    expect(refused.json().code).toBe(409);
    expect(refused.json()).toMatchObject({
      msgCode: 'assetInUse',
      msgParams: { name: 'logo-main.png', where: `localhost · logo; race ${FIXTURE_RACE_ID} · imgDetail` },
    });
    expect((await list()).map((a) => a.name)).toContain('logo-main.png');

    await app.repos.races.save(race, clock.now());
    expect((await service('POST', `${url}/rules-2027.pdf/remove`)).json()).toMatchObject({ code: 0 });
    expect((await list()).map((a) => a.name)).toEqual(['logo-main.png']);
    expect((await service('POST', `${url}/rules-2027.pdf/remove`)).json()).toMatchObject({ msgCode: 'assetNotFound' });
    const removed = await app.repos.audit.find({ action: 'asset.remove', limit: 5 });
    expect(removed.map((r) => r.target)).toContain(`assets/${FIXTURE_RACE_ID}/rules-2027.pdf`);
  });

  it('replaces an image under its name: the site serves the new bytes at once (revalidated by ETag)', async () => {
    const served = `/files/assets/${FIXTURE_RACE_ID}/logo-main.png`;
    const first = await app.inject({ method: 'GET', url: served });
    expect(first.rawPayload.equals(PNG)).toBe(true);
    expect(first.headers['cache-control']).toBe('public, no-cache');
    const etag = String(first.headers.etag);
    expect((await app.inject({ method: 'GET', url: served, headers: { 'if-none-match': etag } })).statusCode).toBe(304);

    // Other content than the name's type is refused; so is a name not in the library.
    const wrong = await service('POST', `${url}/logo-main.png/replace`, { content: b64(GIF) });
    expect(wrong.json()).toMatchObject({ msgCode: 'assetContentMismatch' });
    const missing = await service('POST', `${url}/nothing.png/replace`, { content: b64(PNG) });
    expect([missing.json().code, missing.json().msgCode]).toEqual([404, 'assetNotFound']);

    // The logo the published site uses, replaced: the same address serves the new picture.
    const newLogo = pngOf(8, 4);
    const replaced = await service('POST', `${url}/logo-main.png/replace`, { content: b64(newLogo) });
    expect(replaced.json()).toMatchObject({ code: 0, data: { name: 'logo-main.png', size: { width: 8, height: 4 } } });
    const after = await app.inject({ method: 'GET', url: served, headers: { 'if-none-match': etag } });
    expect(after.statusCode).toBe(200);
    expect(after.rawPayload.equals(newLogo)).toBe(true);
    expect(after.headers.etag).not.toBe(etag);
    expect((await list()).find((a) => a.name === 'logo-main.png')).toMatchObject({
      bytes: newLogo.length,
      size: { width: 8, height: 4 },
    });
    const logged = await app.repos.audit.find({ action: 'asset.replace', limit: 5 });
    expect(logged[0]).toMatchObject({ target: `assets/${FIXTURE_RACE_ID}/logo-main.png`, staffId: service.staffId });
    expect(JSON.parse(logged[0]!.before!)).toMatchObject({ bytes: PNG.length, width: 3, height: 2 });
    expect(JSON.parse(logged[0]!.after!)).toMatchObject({ bytes: newLogo.length, width: 8, height: 4 });
  });

  it('finds every place a document names an asset, with the slot size where a slot has one', () => {
    const uses = assetUses(FIXTURE_RACE_ID, [
      {
        where: 'site',
        of: 'example.org',
        document: {
          carouselList: [{ surfacePlotUrl: 'demo/x.svg' }, { surfacePlotUrl: `assets/${FIXTURE_RACE_ID}/slide-2.jpg` }],
          news: { list: [{ content: `<p><img src="/files/assets/${FIXTURE_RACE_ID}/slide-2.jpg"></p>` }] },
          other: `assets/other-race/slide-2.jpg, notassets/${FIXTURE_RACE_ID}/x.png`,
        },
      },
      { where: 'form', of: 'public', document: { hint: `see assets/${FIXTURE_RACE_ID}/guide.pdf.` } },
    ]);
    expect(Object.fromEntries(uses)).toEqual({
      'slide-2.jpg': [
        { where: 'site', of: 'example.org', field: 'carouselList[1].surfacePlotUrl' },
        { where: 'site', of: 'example.org', field: 'news.list[0].content' },
      ],
      'guide.pdf': [{ where: 'form', of: 'public', field: 'hint' }],
    });
    expect(slotKey('carouselList[1].surfacePlotUrl')).toBe('carouselList[].surfacePlotUrl');
    expect(Object.hasOwn(SITE_IMAGE_SLOTS, slotKey('cooperativePartnerList[0].children[3].src'))).toBe(true);
  });

  it("counts a site draft's uses too: an asset only the draft names is not removed", async () => {
    const added = await service('POST', url, { content: b64(pngOf(4, 4)), fileName: 'draft-only.png' });
    expect(added.json()).toMatchObject({ code: 0 });
    const config = JSON.parse(readFileSync(path.join(FIXTURES, 'valid-site-config.json'), 'utf8'));
    const text = JSON.stringify({ ...config, logoH5: `assets/${FIXTURE_RACE_ID}/draft-only.png` }, null, 2);
    const saved = await service('POST', `/races/${FIXTURE_RACE_ID}/site/draft`, { domain: 'localhost', text });
    expect(saved.json()).toMatchObject({ code: 0 });
    expect((await list()).find((a) => a.name === 'draft-only.png')!.usedBy).toEqual([
      { where: 'siteDraft', of: 'localhost', field: 'logoH5' },
    ]);
    const refused = await service('POST', `${url}/draft-only.png/remove`);
    expect(refused.json()).toMatchObject({ msgCode: 'assetInUse', msgParams: { where: 'localhost (draft) · logoH5' } });
    // A draft that does not parse still counts (its text is searched).
    const broken = await service('POST', `/races/${FIXTURE_RACE_ID}/site/draft`, {
      domain: 'localhost',
      text: `{ "logo": "assets/${FIXTURE_RACE_ID}/draft-only.png", `,
    });
    expect(broken.json()).toMatchObject({ code: 0 });
    expect((await service('POST', `${url}/draft-only.png/remove`)).json()).toMatchObject({ msgCode: 'assetInUse' });
    await service('POST', `/races/${FIXTURE_RACE_ID}/site/discard`, { domain: 'localhost' });
    expect((await list()).find((a) => a.name === 'draft-only.png')!.usedBy).toEqual([]);
  });

  it('the CLI adds, replaces and removes through the same service, audited with the same actions', async () => {
    const run = siteCli(dataDir, clock.now);
    const file = path.join(tempDir(), 'map.png');
    writeFileSync(file, pngOf(6, 3));
    expect((await run('asset-add', FIXTURE_RACE_ID, file, '--name', 'route-map.png')).code).toBe(0);
    writeFileSync(file, pngOf(12, 6));
    const replaced = await run('asset-replace', FIXTURE_RACE_ID, 'route-map.png', file);
    expect(replaced.out).toContain('replaced route-map.png of fixture-race-2025');
    expect(replaced.out).toContain('12×6 px');
    expect((await run('asset-remove', FIXTURE_RACE_ID, 'route-map.png')).code).toBe(0);
    const refused = await run('asset-remove', FIXTURE_RACE_ID, 'logo-main.png');
    expect(refused.err).toContain('is used by the published site configuration of localhost (logo)');
    for (const action of ['asset.add', 'asset.replace', 'asset.remove']) {
      const [last] = await app.repos.audit.find({ action, limit: 1 });
      expect(last, action).toMatchObject({ source: 'cli', target: `assets/${FIXTURE_RACE_ID}/route-map.png` });
    }
    for (const action of ['cli.asset-add', 'cli.asset-replace', 'cli.asset-remove']) {
      expect(await app.repos.audit.find({ action, limit: 1 }), action).toEqual([]);
    }
  });

  it("is for staff with 'site' in the race only", async () => {
    expect((await finance('GET', url)).json().code).toBe(403);
    expect((await finance('POST', url, { content: b64(PNG), fileName: 'a.png' })).json().code).toBe(403);
    expect((await otherRace('GET', url)).json().code).toBe(403);
    expect((await otherRace('POST', `${url}/logo-main.png/remove`)).json().code).toBe(403);
    expect((await service('GET', '/races/no-such-race/assets')).json()).toMatchObject({ msgCode: 'assetRaceNotFound' });
  });
});
