/**
 * The registration-form editor (issue 33 §3; services/registration/form-editor.ts, routes/admin/forms.ts): a
 * race's channels with their published version and draft; a channel's draft (the saved text as typed, else the
 * published version, else a starter form that passes the checks); saving (kept even with problems); the checks
 * of `form-publish` with every problem by JSON path; publishing the next version (refused on problems, nothing
 * new for the same document), who published each version; the CLI's form-publish through the same service,
 * audited as form.publish; 'site' only. Both engines.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import type { FormDraftAnswer } from '#contract/form-editor';
import { STAFF_ROLES, roleCan, type StaffRole } from '#contract/staff';
import { ADMIN_PREFIX, CSRF_HEADER } from '../src/routes/admin/index.ts';
import { verifyAuditChain } from '../src/services/staff/audit.ts';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, removeTempDirs, siteCli, tempDir } from './helpers.ts';
import { memberSession, type ConsoleSession } from './console-helpers.ts';

const RACE = FIXTURE_RACE_ID;
const clock = fakeClock();
const dataDir = tempDir();
const cli = siteCli(dataDir, clock.now);
let app: FastifyInstance;
const sessions = new Map<StaffRole, ConsoleSession>();

const call = (role: StaffRole, method: 'GET' | 'POST', path: string, payload?: object) => {
  const who = sessions.get(role)!;
  return app.inject({
    method,
    url: `${ADMIN_PREFIX}/races/${RACE}/forms${path}`,
    headers: { cookie: who.cookie, [CSRF_HEADER]: who.csrf },
    ...(payload ? { payload } : {}),
  });
};
const owner = async (method: 'GET' | 'POST', path: string, payload?: object) => {
  clock.advance(1000);
  const res = await call('owner', method, path, payload);
  expect(res.statusCode, res.body).toBeLessThan(500);
  return res.json();
};
const published = async (channel = 'public') =>
  (await app.inject({ method: 'GET', url: `${API_PATHS.registrationForm}?raceId=${RACE}&channel=${channel}` })).json();
const audits = (action: string) => app.repos.audit.find({ action, limit: 50 });

const SHIRT = {
  key: 'shirt',
  type: 'picker',
  label: { zh: 'T恤尺码', en: 'T-shirt size' },
  required: true,
  options: [
    { value: 'M', label: { zh: 'M码', en: 'M' } },
    { value: 'L', label: { zh: 'L码', en: 'L' } },
  ],
};

beforeAll(async () => {
  app = await buildTestApp({ dataDir, env: { RATE_LIMITS: 'off' }, now: clock.now });
  for (const role of STAFF_ROLES) {
    sessions.set(role, await memberSession(app, { email: `${role}@example.org`, role, now: clock.now }));
  }
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

describe('the form editor is for staff with site', () => {
  it.each([...STAFF_ROLES])('%s', async (role) => {
    const list = (await call(role, 'GET', '')).json();
    const draft = (await call(role, 'GET', '/public/draft')).json();
    const save = (await call(role, 'POST', '/public/check', { text: '{}' })).json();
    if (roleCan(role, 'site')) {
      expect(list).toMatchObject({ code: 0 });
      expect(draft).toMatchObject({ code: 0 });
      expect(save).toMatchObject({ code: 0 });
    } else {
      for (const answer of [list, draft, save]) expect(answer).toMatchObject({ code: 403, msgCode: 'staffForbidden' });
    }
  });
});

describe('drafts, checks and publication', () => {
  let start: FormDraftAnswer;

  it('lists the race’s channel with its published version and no draft', async () => {
    const answer = await owner('GET', '');
    expect(answer.data.channels).toEqual([
      expect.objectContaining({
        channel: 'public',
        inRace: true,
        published: expect.objectContaining({ version: 1, publishedBy: null }),
        draft: null,
      }),
    ]);
  });

  it('starts a channel’s draft from its published version, which passes the checks', async () => {
    start = (await owner('GET', '/public/draft')).data;
    expect(start).toMatchObject({ source: 'published', publishedVersion: 1, samePublished: true, problems: [] });
    expect(start.form?.fields.map((f) => f.key)).toContain('name');
    expect(JSON.parse(start.text)).toMatchObject({ raceId: RACE, channel: 'public' });
  });

  it('keeps a draft as typed, problems and all, and lists each problem by its JSON path', async () => {
    const doc = JSON.parse(start.text);
    doc.fields[0].requred = true;
    doc.fields.push({ ...SHIRT, options: [SHIRT.options[0], SHIRT.options[0]] });
    const text = JSON.stringify(doc, null, 2);
    const saved = await owner('POST', '/public/draft', { text });
    expect(saved.code).toBe(0);
    expect(saved.data).toMatchObject({ source: 'draft', text, form: null, savedBy: { name: 'owner 员工' } });
    const paths = saved.data.problems.map((p: { path: string }) => p.path);
    expect(paths).toContain('$.fields[0].requred');
    expect(paths.some((p: string) => p.startsWith(`$.fields[${doc.fields.length - 1}].options[1]`))).toBe(true);
    // Not even JSON: still kept.
    const broken = await owner('POST', '/public/draft', { text: `${text.slice(0, 40)}` });
    expect(broken.data.problems).toEqual([{ path: '$', message: expect.any(String) }]);
    expect((await owner('GET', '/public/draft')).data.text).toBe(text.slice(0, 40));
    const list = await owner('GET', '');
    expect(list.data.channels[0].draft).toMatchObject({ differs: true, problems: 1 });
    const records = await audits('form.draft');
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({ raceId: RACE, target: `${RACE} public`, source: expect.any(String) });
    expect(records[0]!.staffId).toBe(sessions.get('owner')!.id);
  });

  it('checks a text without saving it: the race and channel named must be this one', async () => {
    const doc = { ...JSON.parse(start.text), raceId: 'another-race', channel: 'direct' };
    const checked = await owner('POST', '/public/check', { text: JSON.stringify(doc) });
    expect(checked.data.problems).toEqual([
      { path: '$.raceId', message: expect.stringContaining('another-race') },
      { path: '$.channel', message: expect.stringContaining('direct') },
    ]);
    expect((await owner('GET', '/public/draft')).data.source).toBe('draft');
    expect(await audits('form.draft')).toHaveLength(2);
  });

  it('refuses to publish a document with problems: every problem by path, nothing published', async () => {
    const doc = JSON.parse(start.text);
    doc.fields[0].requred = true;
    const refused = await owner('POST', '/public/publish', { text: JSON.stringify(doc) });
    expect(refused).toMatchObject({ code: 422, msgCode: 'formProblems', msgParams: { count: 1 } });
    expect(refused.data.problems).toEqual([{ path: '$.fields[0].requred', message: expect.any(String) }]);
    expect((await published()).data.version).toBe(1);
    expect(await audits('form.publish')).toHaveLength(0);
  });

  it('publishes the next version, who published it, drops the draft; the site serves it', async () => {
    const doc = JSON.parse(start.text);
    doc.fields.push(SHIRT);
    const text = JSON.stringify(doc, null, 2);
    const done = await owner('POST', '/public/publish', { text });
    expect(done).toMatchObject({ code: 0, data: { version: 2, unchanged: false, channel: 'public' } });
    const site = (await published()).data;
    expect(site.version).toBe(2);
    expect(site.form.fields.at(-1)).toMatchObject({ key: 'shirt', type: 'picker' });
    const draft = (await owner('GET', '/public/draft')).data;
    expect(draft).toMatchObject({ source: 'published', publishedVersion: 2, samePublished: true });
    const versions = (await owner('GET', '/public/versions')).data.versions;
    expect(versions).toEqual([
      expect.objectContaining({ version: 2, publishedBy: { staffId: sessions.get('owner')!.id, name: 'owner 员工' } }),
      expect.objectContaining({ version: 1, publishedBy: null }),
    ]);
    expect(await audits('form.publish')).toEqual([
      expect.objectContaining({ raceId: RACE, target: `${RACE} public`, staffId: sessions.get('owner')!.id }),
    ]);
    // The same document again: nothing new.
    const again = await owner('POST', '/public/publish', { text });
    expect(again.data).toMatchObject({ version: 2, unchanged: true });
    expect((await owner('GET', '/public/versions')).data.versions).toHaveLength(2);
    expect(await audits('form.publish')).toHaveLength(1);
  });

  it('starts a channel with nothing published from a starter form that passes the checks', async () => {
    const draft = (await owner('GET', '/sponsor-a/draft')).data as FormDraftAnswer;
    expect(draft).toMatchObject({ source: 'starter', publishedVersion: null, problems: [] });
    expect(draft.form?.fields.map((f) => f.key)).toEqual(
      expect.arrayContaining(['name', 'gender', 'certificateType', 'certificateNumber', 'phone', 'emergencyName']),
    );
    const done = await owner('POST', '/sponsor-a/publish', { text: draft.text });
    expect(done.data).toMatchObject({ version: 1, channel: 'sponsor-a' });
    expect((await published('sponsor-a')).data.form.channel).toBe('sponsor-a');
    const channels = (await owner('GET', '')).data.channels.map((c: { channel: string }) => c.channel);
    expect(channels).toEqual(['public', 'sponsor-a']);
  });

  it('refuses a bad channel name and a race that does not exist', async () => {
    expect(await owner('GET', '/Sponsor_A/draft')).toMatchObject({ code: 400, msgCode: 'formChannelInvalid' });
    const who = sessions.get('owner')!;
    const res = await app.inject({
      method: 'GET',
      url: `${ADMIN_PREFIX}/races/no-such-race/forms/public/draft`,
      headers: { cookie: who.cookie },
    });
    expect(res.json()).toMatchObject({ code: 404, msgCode: 'raceNotFound' });
  });
});

describe('the CLI’s form-publish', () => {
  it('publishes through the same service, audited as form.publish by the command line', async () => {
    const doc = JSON.parse((await owner('GET', '/public/draft')).data.text);
    doc.fields = doc.fields.filter((f: { key: string }) => f.key !== 'shirt');
    const { writeFileSync } = await import('node:fs');
    const file = `${tempDir()}/form.json`;
    writeFileSync(file, JSON.stringify(doc));
    // A console draft of another document is kept by a publication from the CLI.
    const draftText = JSON.stringify({ ...doc, title: { zh: '草稿', en: 'Draft' } });
    await owner('POST', '/public/draft', { text: draftText });
    const run = await cli('form-publish', RACE, file);
    expect(run.code, run.err).toBe(0);
    expect((await owner('GET', '/public/draft')).data).toMatchObject({ source: 'draft', text: draftText });
    expect(run.out).toContain('version 3');
    const versions = (await owner('GET', '/public/versions')).data.versions;
    expect(versions[0]).toMatchObject({ version: 3, publishedBy: null });
    const records = await audits('form.publish');
    expect(records[0]).toMatchObject({ source: 'cli', staffId: null, target: `${RACE} public` });
    expect(await audits('cli.form-publish')).toHaveLength(0);
    // A refusal names every problem by path, as before.
    doc.fields[0].requred = true;
    writeFileSync(file, JSON.stringify(doc));
    const refused = await cli('form-publish', RACE, file);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('$.fields[0].requred');
    expect((await verifyAuditChain(app.repos)).ok).toBe(true);
  });
});
