/**
 * The console's races and race settings (issue 33 §3; services/races.ts, services/website/domains.ts,
 * routes/admin/races.ts): a new race from a few fields (refused when its id is taken), listed at once in the
 * race picker; its race.json read and saved with add-race's checks (every problem by path), refused over a newer
 * version and when it would break entries already made (a capacity below the places taken, an item with entries
 * removed, renamed or remodelled, charity places dropped under charity entries), the CLI's add-race refusing the
 * same; domains bound (a host name; another race's domain only when moved, naming it) and unbound; each change in
 * the audit log as the CLI writes it (race.add, race.save, domain.bind, domain.unbind, the CLI self-audited);
 * the owner only; a member limited to some races sees those only and creates none. Both engines.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { CONSOLE_MESSAGES } from '#contract/console-messages';
import type { EntryItemSettings } from '#contract/entry';
import { fillMessage } from '#contract/messages';
import type { RaceInfo } from '#contract/site-config/race-types';
import { consoleMember, type ConsoleCaller } from './console-helpers.ts';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, removeTempDirs, siteCli, tempDir } from './helpers.ts';

const clock = fakeClock();
const dataDir = tempDir();
const cli = siteCli(dataDir, clock.now);
let app: FastifyInstance;
let owner: ConsoleCaller;

const NEW_RACE = 'riverside-10k-2027';
const item = (code: string, extra: Partial<EntryItemSettings> = {}): EntryItemSettings => ({
  code,
  name: { zh: `项目${code}`, en: `Item ${code}` },
  capacity: 100,
  feeFen: 8000,
  model: 'firstCome',
  ...extra,
});

const call = async (who: ConsoleCaller, method: 'GET' | 'POST', url: string, payload?: object) => {
  clock.advance(1000);
  const res = await who(method, url, payload);
  expect(res.statusCode, res.body).toBeLessThan(500);
  return res.json();
};
const audits = (action: string) => app.repos.audit.find({ action, limit: 50 });
const settings = async (raceId = NEW_RACE) => (await call(owner, 'GET', `/races/${raceId}/settings`)).data;
const save = (race: unknown, version?: number, raceId = NEW_RACE) =>
  call(owner, 'POST', `/races/${raceId}/settings`, { race, ...(version === undefined ? {} : { version }) });

let seq = 0;
/** An entry of `itemCode` (on `channel`) holding a place, as sign-up leaves one. */
async function entryOf(raceId: string, itemCode: string, channel: 'public' | 'charity' = 'public') {
  seq += 1;
  const userId = await app.repos.users.create(
    { phone: `1390000${String(seq).padStart(4, '0')}`, passwordHash: 'x' },
    0,
  );
  await app.repos.entries.insertEntry({
    raceId,
    itemCode,
    channel,
    userId,
    status: 0,
    holdsPlace: true,
    name: '王五',
    gender: 1,
    birthday: '1990-03-07',
    certType: 1,
    certHash: `races-test-${randomBytes(6).toString('hex')}`,
    certNumber: '110105199003071239',
    phone: `1390000${String(seq).padStart(4, '0')}`,
    values: {},
    feeFen: 8000,
    now: clock.now(),
  });
  expect(await app.repos.entries.takePlace(raceId, itemCode, channel === 'charity' ? 'charity' : 'main', 1)).toBe(true);
}

beforeAll(async () => {
  app = await buildTestApp({ dataDir, env: { RATE_LIMITS: 'off' }, now: clock.now });
  owner = await consoleMember(app, 'owner', clock.now);
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

describe('new races', () => {
  it('an owner creates a race from a few fields: closed, no items, in the picker at once; race.add in the log', async () => {
    const made = await call(owner, 'POST', '/organiser/races', {
      raceId: NEW_RACE,
      raceName: { zh: '2027 河畔十公里', en: '2027 Riverside 10K' },
      startTime: '2027-05-09 07:30:00',
      timeZone: 'Europe/London',
      place: 'Riverside Park',
    });
    expect(made).toMatchObject({ code: 0, data: { saved: 'inserted', version: expect.any(Number) } });
    expect(made.data.race).toEqual({
      raceId: NEW_RACE,
      raceName: '2027 河畔十公里',
      raceNameEn: '2027 Riverside 10K',
      startTime: '2027-05-09 07:30:00',
      timeZone: 'Europe/London',
      detailAddress: 'Riverside Park',
      signUpOpenStatus: 0,
    });
    const picker = await call(owner, 'GET', '/races');
    expect(picker.data).toContainEqual({
      raceId: NEW_RACE,
      raceName: { zh: '2027 河畔十公里', en: '2027 Riverside 10K' },
      startTime: '2027-05-09 07:30:00',
      timeZone: 'Europe/London',
    });
    const list = await call(owner, 'GET', '/organiser/races');
    expect(list.data.mayCreate).toBe(true);
    expect(list.data.races.find((r: { raceId: string }) => r.raceId === NEW_RACE)).toMatchObject({
      place: 'Riverside Park',
      signUpOpen: false,
      itemCount: 0,
      domains: [],
    });
    expect(await audits('race.add')).toMatchObject([{ raceId: NEW_RACE, actor: `staff:${owner.staffId}` }]);
  });

  it('refuses a taken id, a bad id and a bad time (by path), saving nothing', async () => {
    const base = { raceName: { zh: '重复', en: 'Again' }, startTime: '2027-05-09 07:30:00' };
    expect(await call(owner, 'POST', '/organiser/races', { ...base, raceId: NEW_RACE })).toMatchObject({
      code: 409,
      msgCode: 'raceIdTaken',
      msgParams: { race: NEW_RACE },
    });
    expect(await call(owner, 'POST', '/organiser/races', { ...base, raceId: 'no spaces/please' })).toMatchObject({
      code: 400,
      msgCode: 'raceIdInvalid',
    });
    const badTime = await call(owner, 'POST', '/organiser/races', {
      ...base,
      raceId: 'bad-time-2027',
      startTime: '2027-02-30 10:00:00',
      timeZone: 'Mars/Olympus',
    });
    expect(badTime).toMatchObject({ code: 400, msgCode: 'raceInvalid', msgParams: { count: 2 } });
    expect(badTime.data.problems.map((p: { path: string }) => p.path).sort()).toEqual(['$.startTime', '$.timeZone']);
    expect(await app.repos.races.findById('bad-time-2027')).toBeUndefined();
    expect(await audits('race.add')).toHaveLength(1);
  });

  it('is the owner’s: other roles are refused; a member limited to some races sees those only and creates none', async () => {
    const service = await consoleMember(app, 'service', clock.now);
    expect(await call(service, 'GET', '/organiser/races')).toMatchObject({ code: 403, msgCode: 'staffForbidden' });
    expect(await call(service, 'GET', `/races/${NEW_RACE}/settings`)).toMatchObject({ code: 403 });
    const limited = await consoleMember(app, 'owner', clock.now, [FIXTURE_RACE_ID]);
    const list = await call(limited, 'GET', '/organiser/races');
    expect(list.data.mayCreate).toBe(false);
    expect(list.data.races.map((r: { raceId: string }) => r.raceId)).toEqual([FIXTURE_RACE_ID]);
    expect(
      await call(limited, 'POST', '/organiser/races', {
        raceId: 'limited-2027',
        raceName: { zh: '限', en: 'Limited' },
        startTime: '2027-05-09 07:30:00',
      }),
    ).toMatchObject({ code: 403, msgCode: 'raceCreateLimited' });
    expect(await call(limited, 'GET', `/races/${NEW_RACE}/settings`)).toMatchObject({
      code: 403,
      msgCode: 'staffRaceForbidden',
    });
    expect(await app.repos.races.findById('limited-2027')).toBeUndefined();
  });
});

describe('race settings', () => {
  it('reads the document and saves it with add-race’s checks: every problem by path; a stale version refused', async () => {
    const view = await settings();
    expect(view).toMatchObject({ race: { raceId: NEW_RACE }, places: [], entriesByItem: {}, slots: [] });
    const v = view.version as number;
    const race: RaceInfo = {
      ...view.race,
      entry: { allowMultiple: false, items: [item('10K'), item('5K', { charity: { capacity: 5, feeFen: 50000 } })] },
    };
    const bad = await save(
      { ...race, endTime: '2027-05-09 07:00:00', entry: { ...race.entry!, items: [item('10K', { feeFen: -1 })] } },
      v,
    );
    expect(bad).toMatchObject({ code: 400, msgCode: 'raceInvalid', msgParams: { count: 2 } });
    expect(bad.data.problems.map((p: { path: string }) => p.path).sort()).toEqual([
      '$.endTime',
      '$.entry.items[0].feeFen',
    ]);
    expect(
      await call(owner, 'POST', `/races/${NEW_RACE}/settings/check`, { race: { ...race, timeZone: 'Nowhere' } }),
    ).toMatchObject({ code: 0, data: { problems: [{ path: '$.timeZone' }] } });
    expect(await save({ ...race, raceId: 'other' }, v)).toMatchObject({ code: 400, msgCode: 'raceIdMismatch' });

    const saved = await save(race, v);
    expect(saved).toMatchObject({ code: 0, data: { saved: 'updated', version: v + 1 } });
    expect((await settings()).places).toEqual([
      { itemCode: '10K', pool: 'main', capacity: 100, taken: 0 },
      { itemCode: '5K', pool: 'charity', capacity: 5, taken: 0 },
      { itemCode: '5K', pool: 'main', capacity: 100, taken: 0 },
    ]);
    const [record] = await audits('race.save');
    expect(record).toMatchObject({ raceId: NEW_RACE, actor: `staff:${owner.staffId}` });
    expect(JSON.parse(record!.before!)).toEqual({ entry: null });
    expect(JSON.parse(record!.after!).entry.items).toHaveLength(2);

    // Another save (here the CLI's entry-open) meanwhile: the editor's version is refused, nothing saved.
    expect((await cli('entry-open', NEW_RACE)).code).toBe(0);
    expect(await save({ ...race, raceName: '旧的' }, v + 1)).toMatchObject({
      code: 409,
      msgCode: 'raceChangedMeanwhile',
    });
    expect((await settings()).race.raceName).toBe('2027 河畔十公里');
  });

  it('refuses what would break entries already made, with the reason in zh and en; the CLI’s add-race too', async () => {
    await entryOf(NEW_RACE, '10K');
    await entryOf(NEW_RACE, '10K');
    await entryOf(NEW_RACE, '5K', 'charity');
    const view = await settings();
    expect(view.entriesByItem).toEqual({ '10K': 2, '5K': 1 });
    const race = view.race as RaceInfo;
    const items = race.entry!.items;
    const withItems = (next: EntryItemSettings[]) => ({ ...race, entry: { ...race.entry!, items: next } });

    const below = await save(withItems([{ ...items[0]!, capacity: 1 }, items[1]!]), view.version);
    expect(below).toMatchObject({
      code: 409,
      msgCode: 'raceCapacityBelowTaken',
      msgParams: { item: '10K', capacity: 1, taken: 2 },
    });
    expect(fillMessage(CONSOLE_MESSAGES.raceCapacityBelowTaken.zh, below.msgParams)).toBe(
      '项目 10K 已有 2 个名额被占用，名额不能改为 1，未保存',
    );
    expect(below.msg).toBe('Item 10K already has 2 places taken: its capacity cannot be 1. Nothing saved');

    const cases: [string, object, object][] = [
      ['removed', withItems([items[1]!]), { msgCode: 'raceItemHasEntries', msgParams: { item: '10K', count: 2 } }],
      [
        'renamed',
        withItems([{ ...items[0]!, code: '10KM' }, items[1]!]),
        { msgCode: 'raceItemHasEntries', msgParams: { item: '10K', count: 2 } },
      ],
      [
        'remodelled',
        withItems([{ ...items[0]!, model: 'ballot' }, items[1]!]),
        { msgCode: 'raceModelHasEntries', msgParams: { item: '10K', count: 2, from: 'firstCome', to: 'ballot' } },
      ],
      [
        'charity dropped',
        withItems([items[0]!, { ...items[1]!, charity: undefined } as EntryItemSettings]),
        { msgCode: 'raceCharityHasEntries', msgParams: { item: '5K', count: 1 } },
      ],
      ['sign-up removed', { ...race, entry: undefined }, { msgCode: 'raceItemHasEntries' }],
    ];
    for (const [what, document, refusal] of cases) {
      expect(await save(JSON.parse(JSON.stringify(document)), view.version), what).toMatchObject({
        code: 409,
        ...refusal,
      });
    }
    // The CLI's add-race refuses the same (the rule is in the service), and saves nothing.
    const file = path.join(dataDir, 'race-removed.json');
    writeFileSync(file, JSON.stringify(withItems([items[1]!])));
    const refused = await cli('add-race', file);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('entry item 10K has 2 entries: it cannot be removed or its code changed');
    const after = await settings();
    expect(after.version).toBe(view.version);
    expect(after.race.entry.items.map((i: EntryItemSettings) => i.code)).toEqual(['10K', '5K']);
    expect(after.places).toContainEqual({ itemCode: '10K', pool: 'main', capacity: 100, taken: 2 });

    // Raising a fee and a capacity is fine, and the public sign-up information follows.
    const raised = await save(withItems([{ ...items[0]!, capacity: 150, feeFen: 9900 }, items[1]!]), view.version);
    expect(raised).toMatchObject({ code: 0, data: { version: view.version + 1 } });
    const info = await app.inject({ method: 'GET', url: `${API_PATHS.entryInfo}?raceId=${NEW_RACE}` });
    expect(info.json().data.items.find((i: { code: string }) => i.code === '10K')).toMatchObject({ feeFen: 9900 });
  });

  it('removes an item without entries, and its places with it', async () => {
    const view = await settings();
    const race = view.race as RaceInfo;
    const extra = { ...race, entry: { ...race.entry!, items: [...race.entry!.items, item('3K')] } };
    expect(await save(extra, view.version)).toMatchObject({ code: 0 });
    expect((await settings()).places.map((p: { itemCode: string }) => p.itemCode)).toContain('3K');
    expect(await save(race, view.version + 1)).toMatchObject({ code: 0 });
    expect((await settings()).places.map((p: { itemCode: string }) => p.itemCode)).not.toContain('3K');
  });
});

describe('domains', () => {
  it('binds a host name, refuses another race’s domain unless moved (naming the race), unbinds; all in the log', async () => {
    expect(await call(owner, 'POST', '/domains/bind', { domain: 'http://x', raceId: NEW_RACE })).toMatchObject({
      code: 400,
      msgCode: 'domainInvalid',
    });
    expect(await call(owner, 'POST', '/domains/bind', { domain: '10.0.0.1', raceId: NEW_RACE })).toMatchObject({
      code: 400,
      msgCode: 'domainInvalid',
    });
    expect(await call(owner, 'POST', '/domains/bind', { domain: 'x.example', raceId: 'nope' })).toMatchObject({
      code: 404,
    });
    expect(
      await call(owner, 'POST', '/domains/bind', { domain: 'Run.Riverside.Example.', raceId: NEW_RACE }),
    ).toMatchObject({ code: 0, data: { domain: 'run.riverside.example', previousRaceId: null } });
    const list = await call(owner, 'GET', '/organiser/races');
    expect(list.data.races.find((r: { raceId: string }) => r.raceId === NEW_RACE).domains).toMatchObject([
      { domainName: 'run.riverside.example', publishedAt: null },
    ]);
    const lookup = await app.inject({
      method: 'GET',
      url: `${API_PATHS.raceByDomain}?domainName=run.riverside.example`,
    });
    expect(lookup.json().data).toMatchObject({ raceId: NEW_RACE });

    // The fixture race's domain: refused without move, naming its race; a limited member may not take it.
    const [fixtureDomain] = (await app.repos.bindings.list()).filter((b) => b.raceId === FIXTURE_RACE_ID);
    const domain = fixtureDomain!.domainName;
    expect(await call(owner, 'POST', '/domains/bind', { domain, raceId: NEW_RACE })).toMatchObject({
      code: 409,
      msgCode: 'domainBoundElsewhere',
      msgParams: { domain, race: FIXTURE_RACE_ID },
    });
    const limited = await consoleMember(app, 'owner', clock.now, [NEW_RACE]);
    expect(await call(limited, 'POST', '/domains/bind', { domain, raceId: NEW_RACE, move: true })).toMatchObject({
      code: 403,
      msgCode: 'staffRaceForbidden',
    });
    expect(await call(limited, 'POST', '/domains/unbind', { domain })).toMatchObject({ code: 403 });
    expect(await call(owner, 'POST', '/domains/bind', { domain, raceId: NEW_RACE, move: true })).toMatchObject({
      code: 0,
      data: { previousRaceId: FIXTURE_RACE_ID },
    });
    expect((await audits('domain.bind'))[0]).toMatchObject({ target: domain, raceId: NEW_RACE });
    expect(JSON.parse((await audits('domain.bind'))[0]!.before!)).toEqual({ raceId: FIXTURE_RACE_ID });
    // Back where it was, through the CLI (self-audited, as the console's).
    expect((await cli('bind', domain, FIXTURE_RACE_ID)).code).toBe(0);

    expect(await call(owner, 'POST', '/domains/unbind', { domain: 'run.riverside.example' })).toMatchObject({
      code: 0,
      data: { raceId: NEW_RACE },
    });
    expect(await call(owner, 'POST', '/domains/unbind', { domain: 'run.riverside.example' })).toMatchObject({
      code: 404,
      msgCode: 'domainNotBound',
    });
    expect(await audits('domain.unbind')).toMatchObject([{ target: 'run.riverside.example', raceId: NEW_RACE }]);
  });

  it('the CLI’s add-race, bind and unbind write race.add / race.save / domain.bind / domain.unbind themselves', async () => {
    const file = path.join(dataDir, 'cli-race.json');
    writeFileSync(file, JSON.stringify({ raceId: 'cli-race-2027', raceName: '命令行赛事' }));
    expect((await cli('add-race', file)).code).toBe(0);
    writeFileSync(file, JSON.stringify({ raceId: 'cli-race-2027', raceName: '命令行赛事（改）' }));
    expect((await cli('add-race', file)).code).toBe(0);
    expect((await cli('bind', 'cli.example', 'cli-race-2027')).code).toBe(0);
    expect((await cli('unbind', 'cli.example')).code).toBe(0);
    const cliRecord = { raceId: 'cli-race-2027', staffId: null, source: 'cli' };
    expect((await audits('race.add'))[0]).toMatchObject(cliRecord);
    expect((await audits('race.save'))[0]).toMatchObject(cliRecord);
    expect(JSON.parse((await audits('race.save'))[0]!.after!)).toEqual({ raceName: '命令行赛事（改）' });
    expect((await audits('domain.bind'))[0]).toMatchObject({ ...cliRecord, target: 'cli.example' });
    expect((await audits('domain.unbind'))[0]).toMatchObject({ ...cliRecord, target: 'cli.example' });
    for (const command of ['add-race', 'bind', 'unbind']) expect(await audits(`cli.${command}`)).toEqual([]);
  });
});
