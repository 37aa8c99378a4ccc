/**
 * The entry season (issue 32 §1; services/organiser/sign-up-switch.ts, season.ts, invitation-codes.ts,
 * routes/admin/season.ts): per item and channel switches under the one rule, honoured by the public submission,
 * the public sign-up information and the code check; the CLI's entry-open / entry-close with --item and
 * --channel through the same service; the codes issued, imported (preview with every bad row, nothing written),
 * listed with their use, revoked (refused at sign-up) and downloaded; the owner only; each change and download
 * in the audit log. Both engines.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import type { EntrySettings } from '#contract/entry';
import type { RaceInfo } from '#contract/site-config/race-types';
import { STAFF_ROLES, type StaffRole } from '#contract/staff';
import { validateRaceInfo } from '../src/db/race-schema.ts';
import { publishRegistrationForm } from '../src/db/registration-form-publisher.ts';
import { idCard } from '../src/db/seed-runners.ts';
import { parseCsv } from '../src/lib/csv.ts';
import { hashPassword } from '../src/lib/password-hash.ts';
import { ADMIN_PREFIX, CSRF_HEADER } from '../src/routes/admin/index.ts';
import { verifyAuditChain } from '../src/services/staff/audit.ts';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, passedSlider, removeTempDirs, siteCli, tempDir } from './helpers.ts';
import { memberSession } from './console-helpers.ts';

const RACE = FIXTURE_RACE_ID;
const OPEN = { signUpStartTime: '2025-06-01 10:00:00', signUpEndTime: '2025-07-01 18:00:00', signUpOpenStatus: 1 };
const name = (zh: string, en = zh) => ({ zh, en });
const ENTRY: EntrySettings = {
  allowMultiple: false,
  items: [
    { code: 'FC', name: name('10公里', '10 km'), capacity: 50, feeFen: 8000, model: 'firstCome' },
    { code: 'HM', name: name('半程', 'Half'), capacity: 50, feeFen: 12000, model: 'firstCome' },
  ],
};
const FORM = {
  version: 1,
  raceId: RACE,
  channel: 'public',
  title: name('报名信息', 'Entry form'),
  fields: [
    { key: 'name', type: 'input', label: name('姓名', 'Name'), required: true },
    { key: 'gender', type: 'gender', label: name('性别', 'Gender'), required: true },
    { key: 'certificateType', type: 'certificateType', label: name('证件类型', 'Type'), required: true },
    {
      key: 'certificateNumber',
      type: 'certificateNumber',
      typeField: 'certificateType',
      label: name('证件号码', 'Number'),
      required: true,
    },
    { key: 'birthday', type: 'date', label: name('出生日期', 'Birthday'), required: true },
    { key: 'phone', type: 'phone', label: name('手机', 'Phone'), required: true },
  ],
};

const clock = fakeClock();
const dataDir = tempDir();
const cli = siteCli(dataDir, clock.now);
let app: FastifyInstance;
let passwordHash: string;
const sessions = new Map<StaffRole, { cookie: string; csrf: string; id: number }>();
let seq = 0;

const member = (email: string, role: StaffRole) => memberSession(app, { email, role, now: clock.now });

const season = (role: StaffRole, method: 'GET' | 'POST', path: string, payload?: object) => {
  const who = sessions.get(role)!;
  return app.inject({
    method,
    url: `${ADMIN_PREFIX}/races/${RACE}/season${path}`,
    headers: { cookie: who.cookie, [CSRF_HEADER]: who.csrf },
    ...(payload ? { payload } : {}),
  });
};
const owner = async (method: 'GET' | 'POST', path: string, payload?: object) => {
  // Each call a moment later: an issue's batch is its instant.
  clock.advance(1000);
  const res = await season('owner', method, path, payload);
  expect(res.statusCode, res.body).toBeLessThan(500);
  return res.json();
};

async function account() {
  seq += 1;
  const id = await app.repos.users.create({ phone: `137${String(seq).padStart(8, '0')}`, passwordHash }, clock.now());
  const { token } = await app.repos.tokens.issue(id, 3_600_000, clock.now());
  return { id, token };
}

function person() {
  seq += 1;
  return {
    name: `跑者${seq}`,
    gender: 1,
    certificateType: 1,
    certificateNumber: idCard(`32010219900520${String(seq).padStart(3, '0')}`),
    birthday: '1990-05-20',
    phone: `1380000${String(seq).padStart(4, '0')}`,
  };
}

async function submit(itemCode: string, channel = 'public', code?: string) {
  const who = await account();
  const res = await app.inject({
    method: 'POST',
    url: API_PATHS.entrySubmit,
    headers: { token: who.token },
    payload: {
      raceId: RACE,
      itemCode,
      channel,
      ...(code ? { code } : {}),
      participants: [person()],
      idempotencyKey: `season-${seq}`,
      captcha: await passedSlider(app),
    },
  });
  expect(res.statusCode, res.body).toBeLessThan(500);
  return res.json();
}

const entryInfo = async () =>
  (await app.inject({ method: 'GET', url: `${API_PATHS.entryInfo}?raceId=${RACE}` })).json().data;
const audits = (action: string) => app.repos.audit.find({ action, limit: 50 });

beforeAll(async () => {
  app = await buildTestApp({ dataDir, env: { RATE_LIMITS: 'off' }, now: clock.now });
  passwordHash = await hashPassword('Secret123');
  const race: RaceInfo = { ...(await app.repos.races.findById(RACE))!, ...OPEN, entry: ENTRY };
  expect(validateRaceInfo(race)).toMatchObject({ ok: true });
  await app.repos.races.save(race, clock.now());
  expect(await app.repos.entries.syncPlaces(RACE, race.entry)).toEqual({ ok: true });
  await publishRegistrationForm({
    repos: app.repos,
    raceId: RACE,
    channel: 'public',
    bytes: Buffer.from(JSON.stringify(FORM)),
    now: clock.now(),
  });
  for (const role of STAFF_ROLES) sessions.set(role, await member(`${role}@example.org`, role));
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

describe('the season page is the owner’s', () => {
  it.each([...STAFF_ROLES])('%s', async (role) => {
    const view = (await season(role, 'GET', '')).json();
    const flip = (await season(role, 'POST', '/switch', { open: false, itemCode: 'FC', channel: 'code' })).json();
    const codes = (await season(role, 'GET', '/codes')).json();
    const file = await season(role, 'GET', '/codes/export?format=csv');
    if (role === 'owner') {
      expect(view).toMatchObject({ code: 0 });
      expect(codes).toMatchObject({ code: 0 });
      expect(file.statusCode).toBe(200);
      expect(flip).toMatchObject({ code: 0 });
      await season(role, 'POST', '/switch', { open: true, itemCode: 'FC', channel: 'code' });
    } else {
      for (const refused of [view, flip, codes, file.json()]) expect(refused).toMatchObject({ code: 403 });
    }
  });
});

describe('opening and closing an item’s channel', () => {
  it('closes FC public: the submission is refused with entryChannelClosed, HM still taken, entryInfo says so', async () => {
    const closesBefore = (await audits('signUp.close')).length;
    const opensBefore = (await audits('signUp.open')).length;
    const versions = await app.repos.raceCenter.dataVersions();
    const closed = await owner('POST', '/switch', { open: false, itemCode: 'fc', channel: 'public' });
    expect(closed).toMatchObject({ code: 0, data: { changed: true } });
    expect(await app.repos.raceCenter.dataVersions()).not.toBe(versions);
    const fc = closed.data.season.items.find((i: { code: string }) => i.code === 'FC');
    expect(fc.channels.find((c: { channel: string }) => c.channel === 'public')).toEqual({
      channel: 'public',
      state: 'closed',
      closed: true,
    });
    expect(fc.channels.find((c: { channel: string }) => c.channel === 'code')).toMatchObject({ state: 'open' });

    expect(await submit('FC')).toMatchObject({ code: 400, msgCode: 'entryChannelClosed' });
    expect(await submit('HM')).toMatchObject({ code: 0 });
    const info = await entryInfo();
    expect(info.windowState).toBe('open');
    expect(info.items.find((i: { code: string }) => i.code === 'FC').closedChannels).toEqual(['public']);
    expect(info.items.find((i: { code: string }) => i.code === 'HM').closedChannels).toBeUndefined();

    // The same again changes nothing and writes no second record.
    expect(await owner('POST', '/switch', { open: false, itemCode: 'FC', channel: 'public' })).toMatchObject({
      data: { changed: false },
    });
    const records = await audits('signUp.close');
    expect(records).toHaveLength(closesBefore + 1);
    expect(records[0]).toMatchObject({
      actor: `staff:${sessions.get('owner')!.id}`,
      raceId: RACE,
      target: `${RACE}: item FC, channel public`,
    });

    expect(await owner('POST', '/switch', { open: true, itemCode: 'FC', channel: 'public' })).toMatchObject({
      data: { changed: true },
    });
    expect(await submit('FC')).toMatchObject({ code: 0 });
    expect(await audits('signUp.open')).toHaveLength(opensBefore + 1);
  });

  it('refuses an unknown item or channel with a clear message and changes nothing', async () => {
    expect(await owner('POST', '/switch', { open: false, itemCode: 'XX' })).toMatchObject({
      code: 400,
      msgCode: 'seasonItemUnknown',
      msgParams: { item: 'XX' },
    });
    expect(await owner('POST', '/switch', { open: false, channel: 'ballot' })).toMatchObject({
      code: 400,
      msgCode: 'seasonChannelUnknown',
    });
    expect(await owner('POST', '/switch', { open: 'no' })).toMatchObject({ code: 400 });
    expect(await app.repos.season.closures(RACE)).toEqual([]);
  });

  it('the CLI: entry-close --item closes every channel of an item, --channel every item, through the same audit', async () => {
    const close = await cli('entry-close', RACE, '--item', 'HM');
    expect(close.code, close.err).toBe(0);
    expect(close.out).toContain('item HM, every channel of');
    expect(await submit('HM')).toMatchObject({ code: 400, msgCode: 'entryChannelClosed' });
    const overview = (await owner('GET', '')).data;
    const hm = overview.items.find((i: { code: string }) => i.code === 'HM');
    expect(hm.closed).toBe(true);
    expect(hm.channels.every((c: { state: string }) => c.state === 'closed')).toBe(true);
    expect((await audits('signUp.close'))[0]).toMatchObject({
      actor: expect.stringMatching(/^cli:/),
      target: `${RACE}: item HM, every channel`,
    });
    expect(await audits('cli.entry-close')).toEqual([]);
    expect((await cli('entry-open', RACE, '--item', 'HM')).code).toBe(0);
    expect(await submit('HM')).toMatchObject({ code: 0 });

    const bad = await cli('entry-close', RACE, '--channel', 'lottery');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('No channel "lottery"');
  });

  it('the race-wide switch: closed everywhere but codes, and a code channel closed refuses a valid code', async () => {
    expect(await owner('POST', '/switch', { open: false })).toMatchObject({ code: 0, data: { changed: true } });
    expect((await app.repos.races.findById(RACE))!.signUpOpenStatus).toBe(0);
    expect(await submit('FC')).toMatchObject({ code: 400, msgCode: 'entryClosed' });
    const issued = await owner('POST', '/codes/issue', { itemCode: 'FC', count: 2, uses: 1, note: '赞助商' });
    expect(issued).toMatchObject({ code: 0, data: { itemCode: 'FC', count: 2 } });
    const [first, second] = (await owner('GET', `/codes?batch=${issued.data.batch}`)).data.codes;
    expect(await submit('FC', 'code', first.code)).toMatchObject({ code: 0 });
    await owner('POST', '/switch', { open: false, channel: 'code' });
    expect(await submit('FC', 'code', second.code)).toMatchObject({ code: 400, msgCode: 'entryChannelClosed' });
    const check = await app.inject({
      method: 'POST',
      url: API_PATHS.entryCodeCheck,
      headers: { token: (await account()).token },
      payload: { raceId: RACE, code: second.code },
    });
    expect(check.json()).toMatchObject({ code: 400, msgCode: 'entryChannelClosed' });
    await owner('POST', '/switch', { open: true, channel: 'code' });
    await owner('POST', '/switch', { open: true });
    expect((await app.repos.races.findById(RACE))!.signUpOpenStatus).toBe(1);
  });
});

describe('codes', () => {
  it('issues with uses, expiry and note; refuses bad input with its message; lists the use by entry', async () => {
    expect(await owner('POST', '/codes/issue', { itemCode: 'FC', count: 0 })).toMatchObject({
      code: 400,
      msgCode: 'seasonCountInvalid',
    });
    expect(await owner('POST', '/codes/issue', { itemCode: 'XX', count: 1 })).toMatchObject({
      code: 400,
      msgCode: 'seasonItemUnknown',
    });
    expect(
      await owner('POST', '/codes/issue', { itemCode: 'FC', count: 1, expires: '2020-01-01 00:00:00' }),
    ).toMatchObject({
      code: 400,
      msgCode: 'seasonExpiryInvalid',
    });
    const issued = await owner('POST', '/codes/issue', {
      itemCode: 'HM',
      count: 3,
      uses: 2,
      expires: '2025-12-31 23:59:59',
      note: 'club',
    });
    expect(issued).toMatchObject({ code: 0, data: { count: 3 } });
    const batch = (await owner('GET', `/codes?batch=${issued.data.batch}`)).data;
    expect(batch.total).toBe(3);
    const code = batch.codes[0];
    expect(code).toMatchObject({ itemCode: 'HM', kind: 'multi', maxUses: 2, used: 0, note: 'club', state: 'usable' });
    const entry = await submit('HM', 'code', code.code.toLowerCase());
    expect(entry).toMatchObject({ code: 0 });
    const after = (await owner('GET', `/codes?batch=${issued.data.batch}`)).data.codes.find(
      (c: { code: string }) => c.code === code.code,
    );
    expect(after).toMatchObject({ used: 1, entries: [entry.data.entries[0].entryNo] });
    const issueRecord = (await audits('codes.issue'))[0]!;
    expect(issueRecord).toMatchObject({ raceId: RACE, target: `${RACE} item HM` });
    expect(JSON.stringify(issueRecord)).not.toContain(code.code);
  });

  it('revokes a code: sign-up and the code check refuse it as revoked; the list and the CLI show it', async () => {
    const issued = await owner('POST', '/codes/issue', { itemCode: 'FC', count: 1, uses: 5 });
    const [code] = (await owner('GET', `/codes?batch=${issued.data.batch}`)).data.codes;
    expect(await owner('POST', `/codes/${code.code}/revoke`)).toMatchObject({ code: 0, data: { changed: true } });
    expect(await owner('POST', `/codes/${code.code}/revoke`)).toMatchObject({ code: 0, data: { changed: false } });
    expect(await owner('POST', '/codes/NOSUCHCODE1/revoke')).toMatchObject({ code: 404, msgCode: 'seasonCodeMissing' });
    expect(await submit('FC', 'code', code.code)).toMatchObject({ code: 400, msgCode: 'entryCodeRevoked' });
    const check = await app.inject({
      method: 'POST',
      url: API_PATHS.entryCodeCheck,
      headers: { token: (await account()).token },
      payload: { raceId: RACE, code: code.code },
    });
    expect(check.json()).toMatchObject({ code: 400, msgCode: 'entryCodeRevoked' });
    const revoked = (await owner('GET', '/codes?state=revoked')).data;
    expect(revoked.codes.map((c: { code: string }) => c.code)).toEqual([code.code]);
    expect(revoked.counts.revoked).toBe(1);
    expect((await cli('codes-list', RACE)).out).toContain(`${code.code} (revoked)`);
    const record = (await audits('codes.revoke'))[0]!;
    expect(record.target).toBe(`${RACE} code …${code.code.slice(-4)}`);

    const viaCli = await owner('POST', '/codes/issue', { itemCode: 'FC', count: 1 });
    const [other] = (await owner('GET', `/codes?batch=${viaCli.data.batch}`)).data.codes;
    const revoke = await cli('codes-revoke', RACE, other.code);
    expect(revoke.code, revoke.err).toBe(0);
    expect(revoke.out).toContain('is revoked');
    expect((await audits('codes.revoke'))[0]).toMatchObject({ actor: expect.stringMatching(/^cli:/) });
  });

  it('imports named codes: a preview with every bad row by line writes nothing; then the good file is written once', async () => {
    const good = person();
    const bad = [
      'itemCode,name,certificateType,certificateNumber,code',
      `FC,${good.name},1,${good.certificateNumber},`,
      'XX,李四,1,110101199003070000,',
      'FC,,1,123,',
    ].join('\n');
    const preview = await owner('POST', '/codes/import', { text: bad, fileName: 'vip.csv', write: false });
    expect(preview).toMatchObject({ code: 0, data: { written: false } });
    expect(preview.data.problems.join('\n')).toMatch(/line 3: itemCode/);
    expect(preview.data.problems.join('\n')).toMatch(/line 4: name/);
    expect(preview.data.problems.join('\n')).toMatch(/line 4: certificateNumber/);
    expect(await owner('POST', '/codes/import', { text: bad, fileName: 'vip.csv', write: true })).toMatchObject({
      code: 400,
      msgCode: 'seasonImportInvalid',
    });
    const before = (await owner('GET', '/codes')).data.total;
    expect(before).toBeGreaterThan(0);
    expect((await owner('GET', '/codes')).data.total).toBe(before);

    const text = [
      'itemCode,name,certificateType,certificateNumber,code',
      `FC,${good.name},1,${good.certificateNumber},VIPCODE001`,
    ].join('\n');
    const look = await owner('POST', '/codes/import', { text, fileName: 'vip.csv', write: false });
    expect(look.data).toMatchObject({
      written: false,
      problems: [],
      imported: [{ line: 2, code: 'VIPCODE001', itemCode: 'FC' }],
    });
    expect(JSON.stringify(look)).not.toContain(good.name);
    expect((await owner('GET', '/codes')).data.total).toBe(before);
    const written = await owner('POST', '/codes/import', { text, fileName: 'vip.csv', write: true });
    expect(written.data).toMatchObject({ written: true, imported: [{ code: 'VIPCODE001' }] });
    const again = await owner('POST', '/codes/import', { text, fileName: 'vip.csv', write: true });
    expect(again.data).toMatchObject({ imported: [], skipped: [{ line: 2, existing: 'VIPCODE001' }] });
    expect(
      (await owner('GET', '/codes?item=FC')).data.codes.find((c: { code: string }) => c.code === 'VIPCODE001'),
    ).toMatchObject({
      kind: 'named',
      state: 'usable',
    });
    expect((await audits('codes.import'))[0]).toMatchObject({ target: `${RACE} vip.csv` });
  });

  it('downloads the codes as .csv and .xlsx, each download in the audit log; a bad filter is a clear 400', async () => {
    const before = (await audits('codes.export')).length;
    const csv = await season('owner', 'GET', '/codes/export?format=csv&item=FC');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(new RegExp(`attachment; filename="${RACE}-codes-.*\\.csv"`));
    const rows = parseCsv(csv.body.replace(/^\uFEFF/, ''));
    expect(rows[0]!.fields).toEqual([
      'code',
      'itemCode',
      'kind',
      'uses',
      'used',
      'state',
      'expires',
      'namedFor',
      'note',
      'entries',
    ]);
    expect(rows.slice(1).every((row) => row.fields[1] === 'FC')).toBe(true);
    expect(rows.some((row) => row.fields[0] === 'VIPCODE001')).toBe(true);
    const xlsx = await season('owner', 'GET', '/codes/export?format=xlsx&state=revoked');
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect(await audits('codes.export')).toHaveLength(before + 2);
    expect((await audits('codes.export'))[0]).toMatchObject({
      actor: `staff:${sessions.get('owner')!.id}`,
      after: expect.stringContaining('"state":"revoked"'),
    });
    expect((await season('owner', 'GET', '/codes/export?format=pdf')).json()).toMatchObject({
      code: 400,
      msgCode: 'staffBadQuery',
    });
    expect((await season('owner', 'GET', '/codes?state=lost')).json()).toMatchObject({ code: 400 });
    expect(await verifyAuditChain(app.repos)).toMatchObject({ ok: true });
  });
});
