/**
 * Race-pack mailing after sign-up (issue 15 §5): the organiser's mailing list (mailing-export, whole phones in
 * the file only), the tracking-number import (mailing-import: good rows in, bad rows reported by line, the same
 * file again changes nothing), the parcel a runner follows in mailingGet, and the message sent when it ships.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { sql } from '../src/db/engine.ts';
import { parseCsv } from '../src/lib/csv.ts';
import {
  afterEntryClock,
  DEMO_RACE_ID,
  demoRaceApp,
  newRunner,
  wonPaidEntry,
  type TestEntry,
  type TestRunner,
} from './after-entry-helpers.ts';
import { removeTempDirs, siteCli, tempDir } from './helpers.ts';

const clock = afterEntryClock();
const dataDir = tempDir();
const run = siteCli(dataDir);
let app: FastifyInstance;

/** Runners: `mailer` has a won 10K entry and chose mailing; `noEntry` chose mailing too; `collector` chose pick-up. */
let mailer: TestRunner;
let noEntry: TestRunner;
let collector: TestRunner;
let entry: TestEntry;

const NANJING = ['320000', '320100', '320102'];
const address = (who: TestRunner, phone: string, street: string) => ({
  raceId: DEMO_RACE_ID,
  method: 'mail',
  name: `收件人${who.id}`,
  phone,
  region: NANJING,
  address: street,
});

const get = (who: TestRunner) =>
  app.inject({ method: 'GET', url: `${API_PATHS.mailingGet}?raceId=${DEMO_RACE_ID}`, headers: { token: who.token } });
const save = (who: TestRunner, body: object) =>
  app.inject({ method: 'POST', url: API_PATHS.mailingSave, payload: body, headers: { token: who.token } });
const outbox = () =>
  app.repos.db.all<{ destination: string; subject: string; body: string }>(
    sql`SELECT destination, subject, body FROM outbox WHERE subject LIKE '%Race pack shipped%' ORDER BY id`,
  );
const file = (name: string, text: string) => {
  const at = path.join(dataDir, name);
  writeFileSync(at, text);
  return at;
};

beforeAll(async () => {
  app = await demoRaceApp(clock, { dataDir });
  mailer = await newRunner(app, clock.now());
  noEntry = await newRunner(app, clock.now());
  collector = await newRunner(app, clock.now());
  entry = await wonPaidEntry(app, mailer, clock.now());
  expect((await save(mailer, address(mailer, '13611112222', '中山路1号'))).json().code).toBe(0);
  expect((await save(noEntry, address(noEntry, '13633334444', '北京东路2号'))).json().code).toBe(0);
  expect((await save(collector, { raceId: DEMO_RACE_ID, method: 'pickup' })).json().code).toBe(0);
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

describe('the parcel in mailingGet', () => {
  it('waits for dispatch once the runner chose mailing, the phone masked', async () => {
    const res = await get(mailer);
    expect(res.body).not.toContain('13611112222');
    expect(res.json().data.choice).toMatchObject({ method: 'mail', phone: '136****2222', address: '中山路1号' });
    expect(res.json().data.parcel).toEqual({ state: 'waiting', carrier: null, trackingNo: null, shippedAt: null });
  });

  it('has no parcel for a runner who collects the pack', async () => {
    const data = (await get(collector)).json().data;
    expect(data.choice.method).toBe('pickup');
    expect(data).not.toHaveProperty('parcel');
  });
});

describe('mailing-export', () => {
  it('lists the runners who chose mailing with whole phones, region names and their entries, in the file only', async () => {
    const out = path.join(dataDir, 'mailing.csv');
    const res = await run('mailing-export', '--race', DEMO_RACE_ID, '--out', out);
    expect(res.code, res.err).toBe(0);
    expect(res.out).toContain('2 runners who chose mailing');
    expect(res.out).toContain('1 runner collect on site');
    expect(res.out).not.toContain('13611112222');
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const [header, ...rows] = parseCsv(readFileSync(out, 'utf8')).map((r) => r.fields);
    expect(header).toEqual([
      'key',
      'name',
      'phone',
      'province',
      'city',
      'district',
      'address',
      'entries',
      'carrier',
      'trackingNo',
      'shippedAt',
      'updatedAt',
    ]);
    expect(rows).toHaveLength(2);
    const row = rows.find((r) => r[0] === String(mailer.id))!;
    expect(row.slice(0, 7)).toEqual([
      String(mailer.id),
      `收件人${mailer.id}`,
      '13611112222',
      '江苏省',
      '南京市',
      '玄武区',
      '中山路1号',
    ]);
    expect(row[7]).toContain(entry.entryNo);
    expect(row[7]).toContain('10K');
    expect(row.slice(8, 11)).toEqual(['', '', '']);
    expect(rows.find((r) => r[0] === String(noEntry.id))![7]).toBe('');
    expect(rows.some((r) => r[0] === String(collector.id))).toBe(false);
  });

  it('writes an Excel workbook for .xlsx and refuses other names and unknown races', async () => {
    const out = path.join(dataDir, 'mailing.xlsx');
    expect((await run('mailing-export', '--race', DEMO_RACE_ID, '--out', out)).code).toBe(0);
    expect(readFileSync(out).subarray(0, 2).toString('latin1')).toBe('PK');
    expect((await run('mailing-export', '--race', DEMO_RACE_ID, '--out', path.join(dataDir, 'x.txt'))).code).toBe(1);
    expect((await run('mailing-export', '--race', 'no-such-race', '--out', out)).code).toBe(1);
    // The race id may be given plainly, as the older commands take it; anything more is a usage error.
    expect((await run('mailing-export', DEMO_RACE_ID, '--out', out)).code).toBe(0);
    expect((await run('mailing-export', DEMO_RACE_ID, 'other')).code).toBe(2);
  });
});

describe('mailing-import', () => {
  const tracking = () =>
    file(
      'tracking.csv',
      [
        'key,carrier,trackingNo',
        `${mailer.id},顺丰速运,sf1234567890123`,
        '999999,顺丰速运,SF0000000000001',
        `${collector.id},顺丰速运,SF0000000000002`,
        `${noEntry.id},,SF0000000000003`,
        `${noEntry.id},顺丰速运,`,
        `${mailer.id},顺丰速运,SF1234567890123`,
        ',EMS,1234',
      ].join('\n'),
    );

  it('ships the good rows, messages the runner and reports each bad row by its line', async () => {
    const res = await run('mailing-import', '--race', DEMO_RACE_ID, '--file', tracking());
    expect(res.code).toBe(1);
    expect(res.err).toContain('1 parcel marked shipped (runners messaged), 0 unchanged');
    expect(res.err).toContain('6 rows refused');
    expect(res.err).toContain('line 3: key: 999999 has no mailing choice');
    expect(res.err).toContain(`line 4: key: ${collector.id} chose to collect the pack (pick-up)`);
    expect(res.err).toContain('line 5: carrier: empty');
    expect(res.err).toContain('line 6: trackingNo: empty');
    expect(res.err).toContain(`line 7: key: ${mailer.id} is already on line 2`);
    expect(res.err).toContain('line 8: key: empty');

    const data = (await get(mailer)).json().data;
    expect(data.parcel).toEqual({
      state: 'shipped',
      carrier: '顺丰速运',
      trackingNo: 'SF1234567890123',
      shippedAt: Date.UTC(2025, 5, 16, 2, 0, 0),
    });
    expect((await get(noEntry)).json().data.parcel.state).toBe('waiting');
    const messages = await outbox();
    expect(messages).toHaveLength(1);
    expect(messages[0]!.destination).toBe(mailer.phone);
    expect(messages[0]!.body).toContain('顺丰速运');
    expect(messages[0]!.body).toContain('运单号 SF1234567890123');
    expect(messages[0]!.body).toContain('tracking number SF1234567890123');
    // One audit record, the service's (the console's import writes the same one).
    const [record] = await app.repos.audit.find({ action: 'mailing.import', limit: 5 });
    expect(record!.actor).toMatch(/^cli:/);
    expect(JSON.parse(record!.after!)).toEqual({ shipped: 1, unchanged: 0, refused: 6 });
    expect(await app.repos.audit.find({ action: 'cli.mailing-import', limit: 5 })).toEqual([]);
  });

  it('changes nothing and sends nothing when the same file comes again', async () => {
    const before = (await get(mailer)).json().data.parcel;
    const res = await run('mailing-import', '--race', DEMO_RACE_ID, '--file', tracking());
    expect(res.err).toContain('0 parcels marked shipped (runners messaged), 1 unchanged');
    expect((await get(mailer)).json().data.parcel).toEqual(before);
    expect(await outbox()).toHaveLength(1);
  });

  it('exports the carrier and tracking number of a shipped parcel', async () => {
    const out = path.join(dataDir, 'mailing-2.csv');
    expect((await run('mailing-export', '--race', DEMO_RACE_ID, '--out', out)).code).toBe(0);
    const rows = parseCsv(readFileSync(out, 'utf8')).map((r) => r.fields);
    expect(rows.find((r) => r[0] === String(mailer.id))!.slice(8, 11)).toEqual([
      '顺丰速运',
      'SF1234567890123',
      '2025-06-16 10:00:00',
    ]);
  });

  it('refuses a file without the columns, or with a bad tracking number, and imports a clean file with exit 0', async () => {
    const missing = await run(
      'mailing-import',
      '--race',
      DEMO_RACE_ID,
      '--file',
      file('bad.csv', 'key,carrier\n1,EMS\n'),
    );
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('Nothing imported');
    expect(missing.err).toContain('missing column(s): trackingNo');
    const bad = await run(
      'mailing-import',
      '--race',
      DEMO_RACE_ID,
      '--file',
      file('bad-no.csv', `key,carrier,trackingNo\n${noEntry.id},EMS,单号\n`),
    );
    expect(bad.err).toContain('line 2: trackingNo: 4-40 letters, digits or "-"');
    const clean = await run(
      'mailing-import',
      '--race',
      DEMO_RACE_ID,
      '--file',
      file('clean.csv', `"key","carrier","trackingNo"\r\n${noEntry.id},EMS,1180000000001\r\n`),
    );
    expect(clean.code, clean.err).toBe(0);
    expect(clean.out).toContain('1 parcel marked shipped');
    expect((await get(noEntry)).json().data.parcel).toMatchObject({ state: 'shipped', trackingNo: '1180000000001' });
  });

  it('lists both commands in the help', async () => {
    const help = await run('help');
    expect(help.out).toContain('mailing-export --race <raceId> --out <file.xlsx|file.csv>');
    expect(help.out).toContain('mailing-import --race <raceId> --file <tracking.csv>');
    expect(help.out).toContain('WHOLE phone numbers');
  });
});

describe('after shipping', () => {
  it('refuses to change the mailing details of a shipped parcel', async () => {
    const res = await save(mailer, address(mailer, '13611112222', '中山路9号'));
    expect(res.json()).toMatchObject({ code: 400, msgCode: 'parcelShipped' });
    const pickup = await save(mailer, { raceId: DEMO_RACE_ID, method: 'pickup' });
    expect(pickup.json()).toMatchObject({ code: 400, msgCode: 'parcelShipped' });
    // Even with fields that would be refused: the parcel is what counts.
    const empty = await save(mailer, { raceId: DEMO_RACE_ID, method: 'mail' });
    expect(empty.json()).toMatchObject({ code: 400, msgCode: 'parcelShipped' });
    expect((await get(mailer)).json().data.choice).toMatchObject({ method: 'mail', address: '中山路1号' });
  });

  it("answers another runner's mailing without the parcel of someone else", async () => {
    const stranger = await newRunner(app, clock.now());
    const data = (await get(stranger)).json().data;
    expect(data).not.toHaveProperty('choice');
    expect(data).not.toHaveProperty('parcel');
  });
});
