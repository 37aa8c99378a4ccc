/**
 * The console's site page (issue 33 §2; services/website/site-drafts.ts, routes/admin/site.ts): a domain's draft
 * (a starter from the race's own data, the latest publication, or the saved text even when it does not parse),
 * checked with JSON paths, published with the same checks as the CLI (refused on errors, with the report), with
 * its publisher; the versions with who and when; a version's text; a roll back as a new publication; the SPA
 * preview's read by domain; the CLI's `publish` recorded as site.publish through the same service. Both engines.
 */
import type { FastifyInstance } from 'fastify';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { DOCUMENT_LIMITS } from '#contract/site-config/document-limits';
import { verifyAuditChain } from '../src/services/staff/audit.ts';
import { checkSiteDraftText, starterSiteConfig } from '../src/services/website/site-drafts.ts';
import { consoleMember, type ConsoleCaller } from './console-helpers.ts';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, removeTempDirs, siteCli, tempDir } from './helpers.ts';

const RACE = FIXTURE_RACE_ID;
const OTHER_RACE = 'site-other-race';
const DOMAIN = 'new-site.example.org';
const clock = fakeClock();
const dataDir = tempDir();
const cli = siteCli(dataDir, clock.now);
let app: FastifyInstance;
let owner: ConsoleCaller;
let service: ConsoleCaller;
let finance: ConsoleCaller;
let limited: ConsoleCaller;

const site = (who: ConsoleCaller, method: 'GET' | 'POST', rest: string, payload?: object, raceId = RACE) => {
  clock.advance(1000);
  return who(method, `/races/${raceId}/site${rest}`, payload).then((res) => {
    expect(res.statusCode, res.body).toBeLessThan(500);
    return res.json();
  });
};
const q = (domain: string) => `?domain=${encodeURIComponent(domain)}`;
const audits = (action: string) => app.repos.audit.find({ action, limit: 50 });
const publicTitle = async (domain: string) => {
  const lookup = (
    await app.inject({ method: 'GET', url: API_PATHS.siteConfigLookup, query: { domainName: domain } })
  ).json().data;
  const doc = await app.inject({ method: 'GET', url: lookup.uri });
  return { md5: lookup.fileMd5 as string, title: doc.json().websiteTitle as string };
};

beforeAll(async () => {
  app = await buildTestApp({ dataDir, env: { RATE_LIMITS: 'off' }, now: clock.now });
  const race = (await app.repos.races.findById(RACE))!;
  await app.repos.races.save(
    { ...race, raceId: OTHER_RACE, raceName: '另一赛事', raceNameEn: 'Other race' },
    clock.now(),
  );
  await app.repos.bindings.bind(DOMAIN, RACE, clock.now());
  await app.repos.bindings.bind('other.example.org', OTHER_RACE, clock.now());
  owner = await consoleMember(app, 'owner', clock.now);
  service = await consoleMember(app, 'service', clock.now);
  finance = await consoleMember(app, 'finance', clock.now);
  limited = await consoleMember(app, 'service', clock.now, [OTHER_RACE]);
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

describe('who may use the site page', () => {
  it('owner and service; not finance; not a member limited to other races; not a domain of another race', async () => {
    expect(await site(owner, 'GET', '')).toMatchObject({ code: 0 });
    expect((await site(service, 'GET', '')).data.domains.map((d: { domain: string }) => d.domain)).toContain(DOMAIN);
    expect(await site(finance, 'GET', '')).toMatchObject({ code: 403 });
    expect(await site(limited, 'GET', `/draft${q(DOMAIN)}`)).toMatchObject({ code: 403 });
    expect(await site(owner, 'GET', `/draft${q('other.example.org')}`)).toMatchObject({
      code: 404,
      msgCode: 'siteDomainNotBound',
    });
    expect(await site(owner, 'POST', '/draft', { domain: 'other.example.org', text: '{}' })).toMatchObject({
      code: 404,
      msgCode: 'siteDomainNotBound',
    });
    // The preview's read by domain checks the domain's race.
    expect((await limited('GET', `/site-preview${q(DOMAIN)}`)).json()).toMatchObject({ code: 403 });
    expect((await owner('GET', `/site-preview${q('nowhere.example.org')}`)).json()).toMatchObject({ code: 404 });
  });
});

describe('a new domain’s draft', () => {
  it('starts from a starter document of the race’s own names, nothing of the demo, that passes the validator', async () => {
    const race = (await app.repos.races.findById(RACE))!;
    const res = await owner('GET', `/races/${RACE}/site/draft${q(DOMAIN)}`);
    expect(res.headers['cache-control']).toBe('no-store');
    const view = res.json().data;
    expect(view).toMatchObject({ source: 'starter', baseMd5: null, published: null, matchesPublished: false });
    const doc = JSON.parse(view.text);
    expect(doc).toEqual({
      version: '1',
      websiteTitle: race.raceName,
      websiteTitleEn: race.raceNameEn ?? race.raceName,
      logo: '',
    });
    expect(view.report).toEqual({ errors: [], warnings: [] });
    expect(checkSiteDraftText(starterSiteConfig({ raceName: '青川马拉松' })).errors).toEqual([]);
  });

  it('keeps a draft that does not parse as typed, and reports where', async () => {
    const text = '{\n  "version": "1",\n  "websiteTitle": "半成品"\n  "logo": ""\n}';
    const saved = await site(service, 'POST', '/draft', { domain: DOMAIN, text, baseMd5: null });
    expect(saved).toMatchObject({ code: 0, data: { source: 'draft', text, savedBy: { id: service.staffId } } });
    expect(saved.data.report.errors).toHaveLength(1);
    expect(saved.data.report.errors[0]).toMatchObject({ path: '$' });
    expect(saved.data.report.errors[0].message).toMatch(/line 4/);
    expect((await site(owner, 'GET', `/draft${q(DOMAIN)}`)).data.text).toBe(text);
    const [record] = await audits('site.draft');
    expect(record).toMatchObject({ actor: `staff:${service.staffId}`, raceId: RACE, target: DOMAIN });
  });

  it('refuses a draft over the size limit, keeping the one saved', async () => {
    const text = `{"websiteTitle":"${'x'.repeat(DOCUMENT_LIMITS.maxBytes)}"}`;
    expect(await site(owner, 'POST', '/draft', { domain: DOMAIN, text })).toMatchObject({
      code: 413,
      msgCode: 'siteDraftTooLarge',
    });
    expect((await site(owner, 'GET', `/draft${q(DOMAIN)}`)).data.text).toMatch(/半成品/);
  });

  it('checks a text with JSON paths: errors and warnings', async () => {
    const text = JSON.stringify({ version: '1', websiteTitle: 7, logo: '', carouselLst: [] });
    const { data } = await site(owner, 'POST', '/check', { text });
    expect(data.errors.map((p: { path: string }) => p.path)).toContain('$.websiteTitle');
    expect(data.warnings.map((p: { path: string }) => p.path)).toContain('$.carouselLst');
  });
});

describe('publishing', () => {
  it('refuses a draft with errors, with the problems, and publishes nothing', async () => {
    const text = JSON.stringify({ version: '1', websiteTitle: 7, logo: '' }, null, 2);
    await site(owner, 'POST', '/draft', { domain: DOMAIN, text, baseMd5: null });
    const refused = await site(owner, 'POST', '/publish', { domain: DOMAIN });
    expect(refused).toMatchObject({ code: 400, msgCode: 'siteDraftInvalid', msgParams: { count: 1 } });
    expect(refused.data.errors[0]).toMatchObject({ path: '$.websiteTitle' });
    expect(await app.repos.siteConfigs.latestForDomain(DOMAIN)).toBeUndefined();
    expect(await audits('site.publish')).toHaveLength(0);
  });

  it('publishes the draft: the public site serves it, the publisher recorded, the draft matches it', async () => {
    const text = `${JSON.stringify({ version: '1', websiteTitle: '第一版', logo: '' }, null, 2)}\n`;
    await site(owner, 'POST', '/draft', { domain: DOMAIN, text, baseMd5: null });
    const published = await site(owner, 'POST', '/publish', { domain: DOMAIN });
    expect(published).toMatchObject({ code: 0, data: { published: { domainName: DOMAIN } } });
    const md5 = published.data.published.md5;
    expect(published.data.draft).toMatchObject({ baseMd5: md5, matchesPublished: true, published: { md5 } });
    expect(await publicTitle(DOMAIN)).toEqual({ md5, title: '第一版' });
    const [record] = await audits('site.publish');
    expect(record).toMatchObject({ actor: `staff:${owner.staffId}`, raceId: RACE, target: DOMAIN });
    expect(JSON.parse(record!.after!)).toMatchObject({ md5 });
  });

  it('the CLI’s publish goes through the same checks and is recorded as site.publish, by the command line', async () => {
    const file = path.join(dataDir, 'second.json');
    writeFileSync(file, JSON.stringify({ version: '1', websiteTitle: '第二版', logo: '' }));
    const before = (await audits('site.publish')).length;
    clock.advance(1000);
    expect((await cli('publish', DOMAIN, file)).code).toBe(0);
    writeFileSync(path.join(dataDir, 'bad.json'), JSON.stringify({ version: '1', logo: '' }));
    const bad = await cli('publish', DOMAIN, path.join(dataDir, 'bad.json'));
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/\$\.websiteTitle/);
    const records = await audits('site.publish');
    expect(records).toHaveLength(before + 1);
    expect(records[0]!.staffId).toBeNull();
    expect(await audits('cli.publish')).toHaveLength(0);
    expect((await publicTitle(DOMAIN)).title).toBe('第二版');
  });
});

describe('versions', () => {
  it('lists every publication newest first with who, and gives a version’s exact text', async () => {
    const { data } = await site(owner, 'GET', `/versions${q(DOMAIN)}`);
    expect(data).toHaveLength(2);
    expect(data[0]).toMatchObject({ publishedBy: null, current: true });
    expect(data[1]).toMatchObject({ publishedBy: { id: owner.staffId }, current: false });
    expect(data[0].publishedAt).toBeGreaterThan(data[1].publishedAt);
    const first = await site(owner, 'GET', `/version${q(DOMAIN)}&md5=${data[1].md5}`);
    expect(JSON.parse(first.data.text).websiteTitle).toBe('第一版');
    expect(await site(owner, 'GET', `/version${q(DOMAIN)}&md5=${'0'.repeat(32)}`)).toMatchObject({
      code: 404,
      msgCode: 'siteVersionNotFound',
    });
    // Another domain's version is not this one's.
    expect(await site(owner, 'GET', `/version${q('other.example.org')}&md5=${data[1].md5}`)).toMatchObject({
      code: 404,
    });
  });

  it('rolls back to a version: its exact bytes published again as a new publication, audited', async () => {
    const versions = (await site(owner, 'GET', `/versions${q(DOMAIN)}`)).data;
    const oldest = versions[versions.length - 1];
    const rolled = await site(service, 'POST', '/rollback', { domain: DOMAIN, md5: oldest.md5 });
    expect(rolled).toMatchObject({ code: 0, data: { md5: oldest.md5 } });
    expect(await publicTitle(DOMAIN)).toEqual({ md5: oldest.md5, title: '第一版' });
    const after = (await site(owner, 'GET', `/versions${q(DOMAIN)}`)).data;
    expect(after).toHaveLength(versions.length + 1);
    expect(after[0]).toMatchObject({ md5: oldest.md5, publishedBy: { id: service.staffId }, current: true });
    const [record] = await audits('site.rollback');
    expect(record).toMatchObject({ actor: `staff:${service.staffId}`, raceId: RACE, target: DOMAIN });
    expect(JSON.parse(record!.before!)).toEqual({ md5: versions[0].md5 });
  });

  it('the preview reads the draft by domain; discarding starts again from the latest publication', async () => {
    const text = JSON.stringify({ version: '1', websiteTitle: '预览中', logo: '' });
    await site(owner, 'POST', '/draft', { domain: DOMAIN, text });
    const preview = await owner('GET', `/site-preview${q(DOMAIN)}`);
    expect(preview.headers['cache-control']).toBe('no-store');
    expect(preview.json()).toMatchObject({ code: 0, data: { text, raceId: RACE, source: 'draft' } });
    const discarded = await site(owner, 'POST', '/discard', { domain: DOMAIN });
    expect(discarded.data).toMatchObject({ source: 'published', matchesPublished: true });
    expect(JSON.parse(discarded.data.text).websiteTitle).toBe('第一版');
    expect(await verifyAuditChain(app.repos)).toMatchObject({ ok: true });
  });
});
