/**
 * The console's mailing and letters pages (issue 32; routes/admin/mailing.ts over services/after-entry/mailing.ts
 * and letter.ts, the CLI's functions): every role against every call, the mailing list's counts, filter and
 * masked phones, the tracking file's preview (every bad row by its line, nothing written), its import (the
 * counts after it, the runner messaged, the audit record, the same file again changing nothing), the exports in
 * the audit log, and the letters roster filtered by signed / not signed / an older version. Both engines.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { letterVersionHash } from '#contract/after-entry';
import type {
  LettersPageAnswer,
  MailingPageAnswer,
  TrackingImportAnswer,
  TrackingPreviewAnswer,
} from '#contract/console-mailing';
import { STAFF_ROLES, type StaffRole } from '#contract/staff';
import { sql } from '../src/db/engine.ts';
import { parseCsv } from '../src/lib/csv.ts';
import { ADMIN_PREFIX, CSRF_HEADER } from '../src/routes/admin/index.ts';
import { mailingPage } from '../src/services/after-entry/mailing.ts';
import { raceById } from '../src/services/races.ts';
import {
  afterEntryClock,
  DEMO_RACE_ID,
  demoRace,
  demoRaceApp,
  newRunner,
  saveDemoRace,
  wonPaidEntry,
  type TestEntry,
  type TestRunner,
} from './after-entry-helpers.ts';
import { removeTempDirs } from './helpers.ts';
import { memberSession } from './console-helpers.ts';

const ALLOWED: StaffRole[] = ['owner', 'service'];

const clock = afterEntryClock();
let app: FastifyInstance;
type Session = { cookie: string; csrf: string; id: number };
const sessions = new Map<StaffRole, Session>();
let otherRace: Session;

async function member(email: string, role: StaffRole, races: string[] | null = null): Promise<Session> {
  return memberSession(app, { email, role, races, now: clock.now });
}

const call = (who: Session, method: 'GET' | 'POST', url: string, payload?: object) =>
  app.inject({
    method,
    url: `${ADMIN_PREFIX}/races/${DEMO_RACE_ID}${url}`,
    headers: { cookie: who.cookie, [CSRF_HEADER]: who.csrf },
    ...(payload ? { payload } : {}),
  });
const as = (role: StaffRole) => sessions.get(role)!;
const data = async <T>(res: Promise<{ json: () => { code: number; data: T } }>): Promise<T> => {
  const body = (await res).json();
  expect(body, JSON.stringify(body)).toMatchObject({ code: 0 });
  return body.data;
};
const mailing = (query = '') => data<MailingPageAnswer>(call(as('owner'), 'GET', `/mailing${query}`));
const letters = (query = '') => data<LettersPageAnswer>(call(as('service'), 'GET', `/letters${query}`));
const audits = (action: string) => app.repos.audit.find({ action, limit: 50 });
const shippedMessages = () =>
  app.repos.db.all<{ destination: string; body: string }>(
    sql`SELECT destination, body FROM outbox WHERE subject LIKE '%Race pack shipped%' ORDER BY id`,
  );

/** `mailer` has a won entry and chose mailing; `second` chose mailing too; `collector` collects on site. */
let mailer: TestRunner;
let second: TestRunner;
let collector: TestRunner;
let mailerEntry: TestEntry;

const chooseMail = (who: TestRunner, phone: string, street: string) =>
  app.inject({
    method: 'POST',
    url: API_PATHS.mailingSave,
    headers: { token: who.token },
    payload: {
      raceId: DEMO_RACE_ID,
      method: 'mail',
      name: `收件人${who.id}`,
      phone,
      region: ['320000', '320100', '320102'],
      address: street,
    },
  });

beforeAll(async () => {
  app = await demoRaceApp(clock);
  for (const role of STAFF_ROLES) sessions.set(role, await member(`${role}@example.org`, role));
  await saveDemoRace(app, clock.now(), { raceId: 'another-race-2027' });
  otherRace = await member('elsewhere@example.org', 'service', ['another-race-2027']);
  mailer = await newRunner(app, clock.now());
  second = await newRunner(app, clock.now());
  collector = await newRunner(app, clock.now());
  mailerEntry = await wonPaidEntry(app, mailer, clock.now());
  expect((await chooseMail(mailer, '13611112222', '中山路1号')).json().code).toBe(0);
  expect((await chooseMail(second, '13633334444', '北京东路2号')).json().code).toBe(0);
  const pickup = await app.inject({
    method: 'POST',
    url: API_PATHS.mailingSave,
    headers: { token: collector.token },
    payload: { raceId: DEMO_RACE_ID, method: 'pickup' },
  });
  expect(pickup.json().code).toBe(0);
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

const tracking = () =>
  [
    'key,carrier,trackingNo',
    `${mailer.id},顺丰速运,sf1234567890123`,
    '999999,顺丰速运,SF0000000000001',
    `${collector.id},顺丰速运,SF0000000000002`,
    `${second.id},,SF0000000000003`,
    `${second.id},EMS,单号`,
    `${mailer.id},顺丰速运,SF1234567890123`,
    ',EMS,1234',
    `${second.id},EMS`,
  ].join('\n');

describe('every role against every call', () => {
  const CALLS: { method: 'GET' | 'POST'; url: string; payload?: object }[] = [
    { method: 'GET', url: '/mailing' },
    { method: 'GET', url: '/mailing/export?format=csv' },
    { method: 'POST', url: '/mailing/tracking/preview', payload: { content: 'key,carrier\n1,EMS\n' } },
    { method: 'POST', url: '/mailing/tracking/import', payload: { content: 'key,carrier\n1,EMS\n' } },
    { method: 'GET', url: '/letters' },
    { method: 'GET', url: '/letters/export?format=csv' },
  ];
  for (const { method, url, payload } of CALLS) {
    it.each([...STAFF_ROLES])(`${method} ${url}: %s`, async (role) => {
      const res = await call(as(role), method, url, payload);
      expect(res.headers['cache-control']).toBe('no-store');
      if (!ALLOWED.includes(role)) {
        expect(res.json()).toMatchObject({ code: 403, msgCode: 'staffForbidden' });
      } else if (url.includes('/tracking/')) {
        // Past the permission check: the file without its trackingNo column is refused whole.
        expect(res.json()).toMatchObject({ code: 400, msgCode: 'mailingFileUnreadable' });
        expect(res.json().msgParams.problem).toContain('missing column(s): trackingNo');
      } else {
        expect(res.statusCode).toBe(200);
      }
    });
  }

  it('refuses a member limited to another race, and answers an unknown race 404', async () => {
    for (const { method, url, payload } of CALLS) {
      expect((await call(otherRace, method, url, payload)).json()).toMatchObject({
        code: 403,
        msgCode: 'staffRaceForbidden',
      });
    }
    const unknown = await app.inject({
      method: 'GET',
      url: `${ADMIN_PREFIX}/races/no-such-race/mailing`,
      headers: { cookie: as('owner').cookie },
    });
    expect(unknown.json()).toMatchObject({ code: 404, msgCode: 'raceNotFound' });
  });

  it('refuses a changing call without the CSRF header', async () => {
    const res = await app.inject({
      method: 'POST',
      url: `${ADMIN_PREFIX}/races/${DEMO_RACE_ID}/mailing/tracking/import`,
      headers: { cookie: as('owner').cookie },
      payload: { content: tracking() },
    });
    expect(res.json()).toMatchObject({ code: 403, msgCode: 'staffCsrf' });
    expect((await mailing()).counts.shipped).toBe(0);
  });
});

describe('the mailing list', () => {
  it('counts the runners to send to, lists them with their entries, filters by state, refuses a bad filter', async () => {
    const page = await mailing();
    expect(page.counts).toEqual({ toSend: 2, shipped: 0, waiting: 2, pickups: 1 });
    expect(page.total).toBe(2);
    expect(page.wholePhones).toBe(true);
    const row = page.rows.find((r) => r.key === String(mailer.id))!;
    expect(row).toMatchObject({
      name: `收件人${mailer.id}`,
      phone: '13611112222',
      region: ['江苏省', '南京市', '玄武区'],
      address: '中山路1号',
      state: 'waiting',
      carrier: null,
    });
    expect(row.entries[0]).toContain(mailerEntry.entryNo);
    expect((await mailing('?state=shipped')).rows).toEqual([]);
    expect((await mailing('?state=waiting')).total).toBe(2);
    expect((await call(as('owner'), 'GET', '/mailing?state=lost')).json()).toMatchObject({
      code: 400,
      msgCode: 'staffBadQuery',
      msgParams: { field: 'state' },
    });
  });

  it('masks the phones for a member without entries.personal', async () => {
    const race = (await raceById(app.repos, DEMO_RACE_ID))!;
    const listed = await mailingPage(app.repos, race, {}, false);
    expect(listed.ok && listed.answer.rows.map((r) => r.phone).sort()).toEqual(['136****2222', '136****4444']);
    expect(listed.ok && listed.answer.wholePhones).toBe(false);
  });
});

describe('the tracking import', () => {
  it('previews the good rows and every bad row by its line, and writes nothing', async () => {
    const auditsBefore = (await audits('mailing.import')).length;
    const preview = await data<TrackingPreviewAnswer>(
      call(as('service'), 'POST', '/mailing/tracking/preview', { content: tracking() }),
    );
    expect(preview.rows).toEqual([
      {
        line: 2,
        key: String(mailer.id),
        name: `收件人${mailer.id}`,
        carrier: '顺丰速运',
        trackingNo: 'SF1234567890123',
        change: 'new',
      },
    ]);
    expect(preview.problems.map((p) => [p.line, p.code, p.params])).toEqual([
      [3, 'keyUnknown', { key: '999999' }],
      [4, 'keyPickup', { key: String(collector.id) }],
      [5, 'carrierEmpty', {}],
      [6, 'trackingInvalid', {}],
      [7, 'keyDuplicate', { key: String(mailer.id), first: 2 }],
      [8, 'keyEmpty', {}],
      [9, 'fieldCount', {}],
    ]);
    expect(preview.problems[0]!.text).toBe(`line 3: key: 999999 has no mailing choice in ${DEMO_RACE_ID}`);
    expect(preview.problems[6]!.text).toBe('line 9: expected 3 fields, found 2');
    // Nothing written: no parcel shipped, no message, no audit record.
    expect((await mailing()).counts).toMatchObject({ shipped: 0, waiting: 2 });
    expect(await shippedMessages()).toEqual([]);
    expect(await audits('mailing.import')).toHaveLength(auditsBefore);
  });

  it('refuses a bad tracking number by its line', async () => {
    const preview = await data<TrackingPreviewAnswer>(
      call(as('owner'), 'POST', '/mailing/tracking/preview', {
        content: `key,carrier,trackingNo\n${second.id},EMS,单号\n`,
      }),
    );
    expect(preview.rows).toEqual([]);
    expect(preview.problems).toEqual([
      { line: 2, code: 'trackingInvalid', params: {}, text: 'line 2: trackingNo: 4-40 letters, digits or "-"' },
    ]);
  });

  it('imports the good rows, then the counts, the list, the message and the audit record show it', async () => {
    const outcome = await data<TrackingImportAnswer>(
      call(as('service'), 'POST', '/mailing/tracking/import', { content: tracking() }),
    );
    expect(outcome).toMatchObject({ shipped: 1, unchanged: 0 });
    expect(outcome.problems.map((p) => p.line)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    const page = await mailing('?state=shipped');
    expect(page.counts).toEqual({ toSend: 2, shipped: 1, waiting: 1, pickups: 1 });
    expect(page.rows).toHaveLength(1);
    expect(page.rows[0]).toMatchObject({
      key: String(mailer.id),
      state: 'shipped',
      carrier: '顺丰速运',
      trackingNo: 'SF1234567890123',
      shippedAt: clock.now(),
    });
    const messages = await shippedMessages();
    expect(messages).toHaveLength(1);
    expect(messages[0]!.body).toContain('运单号 SF1234567890123');
    const [record] = await audits('mailing.import');
    expect(record).toMatchObject({ actor: `staff:${as('service').id}`, raceId: DEMO_RACE_ID });
    expect(JSON.parse(record!.after!)).toEqual({ shipped: 1, unchanged: 0, refused: 7 });

    // The same file again: previewed as unchanged, imported as unchanged, nobody messaged twice.
    const again = await data<TrackingPreviewAnswer>(
      call(as('service'), 'POST', '/mailing/tracking/preview', { content: tracking() }),
    );
    expect(again.rows.map((r) => r.change)).toEqual(['same']);
    const repeat = await data<TrackingImportAnswer>(
      call(as('service'), 'POST', '/mailing/tracking/import', { content: tracking() }),
    );
    expect(repeat).toMatchObject({ shipped: 0, unchanged: 1 });
    expect(await shippedMessages()).toHaveLength(1);
  });

  it('refuses an unreadable file whole', async () => {
    for (const content of ['', 'key,carrier,trackingNo\n', 'key,carrier,trackingNo\n"1,EMS,SF1234\n']) {
      const res = await call(as('owner'), 'POST', '/mailing/tracking/import', { content });
      expect(res.json(), content).toMatchObject({ code: 400, msgCode: 'mailingFileUnreadable' });
    }
    expect((await mailing()).counts.shipped).toBe(1);
  });
});

describe('the exports', () => {
  it('downloads the mailing list as .csv and .xlsx, each in the audit log', async () => {
    const before = (await audits('mailing.export')).length;
    const res = await call(as('owner'), 'GET', '/mailing/export?format=csv');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /attachment; filename="qc-marathon-2027-mailing-\d{8}-\d{4}\.csv"/,
    );
    const rows = parseCsv(res.body).map((r) => r.fields);
    expect(rows[0]!.slice(0, 3)).toEqual(['key', 'name', 'phone']);
    expect(rows.find((r) => r[0] === String(mailer.id))!.slice(2, 10)).toEqual([
      '13611112222',
      '江苏省',
      '南京市',
      '玄武区',
      '中山路1号',
      expect.stringContaining(mailerEntry.entryNo),
      '顺丰速运',
      'SF1234567890123',
    ]);
    const xlsx = await call(as('service'), 'GET', '/mailing/export');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const logged = await audits('mailing.export');
    expect(logged).toHaveLength(before + 2);
    expect(JSON.parse(logged[1]!.after!)).toEqual({ format: 'csv', rows: 2, wholePhones: true });
    expect(logged[1]).toMatchObject({ actor: `staff:${as('owner').id}`, raceId: DEMO_RACE_ID });
    expect((await call(as('owner'), 'GET', '/mailing/export?format=pdf')).json()).toMatchObject({
      code: 400,
      msgParams: { field: 'format' },
    });
  });
});

describe('the letters roster', () => {
  const LETTER = demoRace().commitmentLetter!;
  const sign = (who: TestRunner, entry: TestEntry, versionHash: string, statements: number) =>
    app.inject({
      method: 'POST',
      url: API_PATHS.letterSign,
      headers: { token: who.token },
      payload: {
        raceId: DEMO_RACE_ID,
        entryNo: entry.entryNo,
        signerName: entry.name,
        versionHash,
        accepted: [...Array(statements).keys()],
      },
    });

  it('shows the version, counts and filters signed the current / an older version / not signed, and exports', async () => {
    const oldSigner = await newRunner(app, clock.now());
    const oldEntry = await wonPaidEntry(app, oldSigner, clock.now(), { name: '旧版签署' });
    const newSigner = await newRunner(app, clock.now());
    const newEntry = await wonPaidEntry(app, newSigner, clock.now(), { name: '新版签署' });
    expect((await sign(oldSigner, oldEntry, letterVersionHash(LETTER), LETTER.statements.length)).json().code).toBe(0);
    const changed = { ...LETTER, statements: [...LETTER.statements, { zh: '新增条款。', en: 'A new statement.' }] };
    await saveDemoRace(app, clock.now(), { commitmentLetter: changed });
    const hash = letterVersionHash(changed);
    expect((await sign(newSigner, newEntry, hash, changed.statements.length)).json().code).toBe(0);

    const all = await letters();
    expect(all.letter).toMatchObject({ versionHash: hash, state: 'open', title: LETTER.title });
    expect(all.counts).toEqual({ current: 1, older: 1, unsigned: 1 });
    expect(all.total).toBe(3);
    expect((await letters('?standing=current')).rows.map((r) => r.entryNo)).toEqual([newEntry.entryNo]);
    const older = (await letters('?standing=older')).rows;
    expect(older.map((r) => r.entryNo)).toEqual([oldEntry.entryNo]);
    expect(older[0]).toMatchObject({ name: '旧版签署', signerName: '旧版签署', itemCode: '10K' });
    expect(older[0]!.certificate).not.toBe(oldEntry.certNumber);
    expect((await letters('?standing=unsigned')).rows.map((r) => r.entryNo)).toEqual([mailerEntry.entryNo]);
    expect((await letters('?item=10K&standing=unsigned')).total).toBe(1);
    expect((await letters(`?q=${newEntry.entryNo.toLowerCase()}`)).rows.map((r) => r.name)).toEqual(['新版签署']);
    expect((await letters(`?q=${encodeURIComponent('旧版')}`)).rows.map((r) => r.entryNo)).toEqual([oldEntry.entryNo]);
    for (const [query, field] of [
      ['?standing=maybe', 'standing'],
      ['?item=NOPE', 'item'],
    ] as const) {
      expect((await call(as('owner'), 'GET', `/letters${query}`)).json()).toMatchObject({
        code: 400,
        msgParams: { field },
      });
    }

    const before = (await audits('letters.export')).length;
    const file = await call(as('service'), 'GET', '/letters/export?format=csv&standing=unsigned');
    const lines = parseCsv(file.body).map((r) => r.fields);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.slice(0, 1)).toEqual([mailerEntry.entryNo]);
    expect(lines[1]![4]).toBe('not signed');
    const logged = await audits('letters.export');
    expect(logged).toHaveLength(before + 1);
    expect(JSON.parse(logged[0]!.after!)).toEqual({ format: 'csv', filters: { standing: 'unsigned' }, rows: 1 });
    await saveDemoRace(app, clock.now());
  });
});
