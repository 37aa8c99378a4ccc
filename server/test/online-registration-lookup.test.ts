/**
 * Issue 28 §1: entries made on the site are registrations like the imported ones. The public registration
 * lookup (every query type) and /confirm find an entry made through the real submission and paid in the
 * sandbox, masked as an imported registration is; a status change shows in the next lookup; and one bib is one
 * runner's across both sources (bibs-assign skips imported bibs, the import refuses an entry's bib). Runs on
 * both engines.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { ENTRY_STATUSES, type EntrySubmitAnswer } from '#contract/entry';
import { sql } from '../src/db/engine.ts';
import { publishRegistrationForm } from '../src/db/registration-form-publisher.ts';
import { idCard } from '../src/db/seed-runners.ts';
import { maskCertNo, maskMobile, maskName } from '../src/lib/race-center.ts';
import { importCsv } from '../src/services/race-center-import/import-csv.ts';
import { sliderFields } from './account-helpers.ts';
import {
  afterEntryClock,
  DEMO_RACE_ID,
  demoRaceApp,
  newRunner,
  payInSandbox,
  type TestRunner,
} from './after-entry-helpers.ts';
import { passedSlider, removeTempDirs, siteCli, tempDir } from './helpers.ts';

const clock = afterEntryClock();
const dataDir = tempDir();
let app: FastifyInstance;

const text = (zh: string, en: string) => ({ zh, en });
const FORM = {
  version: 1,
  raceId: DEMO_RACE_ID,
  channel: 'public',
  title: text('报名信息', 'Entry form'),
  fields: [
    {
      key: 'item',
      type: 'radio',
      label: text('项目', 'Item'),
      required: true,
      options: [
        { value: 'M', label: text('马拉松', 'Marathon') },
        { value: '10K', label: text('10公里', '10 km') },
      ],
    },
    {
      key: 'name',
      type: 'input',
      label: text('姓名', 'Name'),
      required: true,
      rules: [{ rule: 'requiredText', message: 'nameInvalid' }],
    },
    { key: 'gender', type: 'gender', label: text('性别', 'Gender'), required: true },
    { key: 'certificateType', type: 'certificateType', label: text('证件类型', 'Type'), required: true },
    {
      key: 'certificateNumber',
      type: 'certificateNumber',
      typeField: 'certificateType',
      label: text('证件号码', 'Number'),
      required: true,
    },
    { key: 'birthday', type: 'date', label: text('出生日期', 'Birthday'), required: true },
    { key: 'phone', type: 'phone', label: text('手机', 'Phone'), required: true },
    { key: 'emergencyName', type: 'input', label: text('紧急联系人', 'Emergency contact'), required: true },
    { key: 'emergencyPhone', type: 'phone', label: text('紧急联系电话', 'Emergency phone'), required: true },
  ],
};

/** An imported runner of the demo race (web channel, bib A00001). */
const IMPORTED = {
  name: '王导入',
  certNo: idCard('32010219850607001'),
  phone: '13511112222',
};
const IMPORT_HEADER =
  'name,gender,birthday,certificateType,certificateNumber,phone,emergencyName,emergencyPhone,item,status,bib,orderNo,amountPaid,orderAmount';

let personSeq = 0;

interface Person {
  item: string;
  name: string;
  gender: number;
  certificateType: number;
  certificateNumber: string;
  birthday: string;
  phone: string;
  emergencyName: string;
  emergencyPhone: string;
}

function person(item: string, name: string): Person {
  personSeq += 1;
  const seq = String(personSeq).padStart(3, '0');
  return {
    item,
    name,
    gender: 2,
    certificateType: 1,
    certificateNumber: idCard(`32010219920304${seq}`),
    birthday: '1992-03-04',
    phone: `1391234${String(personSeq).padStart(4, '0')}`,
    emergencyName: '林大山',
    emergencyPhone: `1369876${String(personSeq).padStart(4, '0')}`,
  };
}

/** Signs up through the real submission (entrySubmit), as the sign-up page does. */
async function signUp(runner: TestRunner, who: Person): Promise<EntrySubmitAnswer> {
  const res = await app.inject({
    method: 'POST',
    url: API_PATHS.entrySubmit,
    headers: { token: runner.token },
    payload: {
      raceId: DEMO_RACE_ID,
      itemCode: who.item,
      channel: 'public',
      idempotencyKey: `lookup-${who.certificateNumber}-${clock.now()}`,
      participants: [who],
      captcha: await passedSlider(app),
    },
  });
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as EntrySubmitAnswer;
}

const lookUp = (who: { name: string; certificateNumber: string }, queryType?: number) =>
  app.inject({
    method: 'POST',
    url: API_PATHS.searchRegistration,
    payload: {
      raceId: DEMO_RACE_ID,
      name: who.name,
      certificateNumber: who.certificateNumber,
      ...(queryType === undefined ? {} : { queryType }),
    },
  });

/** The organiser CLI on this file's data folder, at the test clock's time. */
const cli = (...argv: string[]) => siteCli(dataDir, clock.now)(...argv);

const bibOf = async (entryNo: string) =>
  (await app.repos.db.get<{ bib: string | null }>(sql`SELECT bib FROM entries WHERE entry_no = ${entryNo}`))?.bib;

beforeAll(async () => {
  app = await demoRaceApp(clock, { dataDir });
  await publishRegistrationForm({
    repos: app.repos,
    raceId: DEMO_RACE_ID,
    channel: 'public',
    bytes: Buffer.from(JSON.stringify(FORM)),
    now: clock.now(),
  });
  const imported = await importCsv(
    app.repos,
    'registrations',
    DEMO_RACE_ID,
    `${IMPORT_HEADER}\n${IMPORTED.name},1,1985-06-07,1,${IMPORTED.certNo},${IMPORTED.phone},王家人,13622223333,10K,1,A00001,QC1,80,80\n`,
  );
  expect(imported).toMatchObject({ ok: true, rows: 1 });
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

describe('an entry made on the site in the registration lookup', () => {
  const paid = person('10K', '林小雨');
  let entryNo = '';
  let orderNo = '';

  beforeAll(async () => {
    const runner = await newRunner(app, clock.now());
    const answer = await signUp(runner, paid);
    entryNo = answer.entries[0]!.entryNo;
    orderNo = answer.order!.orderNo;
    await payInSandbox(app, runner, orderNo);
  });

  it('answers its status (query type 1) as it answers an imported registration', async () => {
    const res = await lookUp(paid);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.code, res.body).toBe(0);
    expect(body.data).toEqual({
      queryType: 1,
      raceId: DEMO_RACE_ID,
      raceName: expect.any(String),
      raceNameEn: expect.any(String),
      status: ENTRY_STATUSES.won,
      statusKey: 'won',
      item: '10K',
      itemName: '10公里',
      itemNameEn: '10 km',
      model: 'firstCome',
      bib: '',
      channel: 3,
      channelKey: 'web',
      channelName: '',
      channelNameEn: '',
      participant: { name: maskName(paid.name) },
    });
    // The same answer's shape as an imported runner's.
    const imported = (await lookUp({ name: IMPORTED.name, certificateNumber: IMPORTED.certNo })).json();
    expect(imported.code).toBe(0);
    expect(Object.keys(body.data).sort()).toEqual(Object.keys(imported.data).sort());
  });

  it('answers its web registration info (query type 3) with the numbers masked and its paid order', async () => {
    const res = await lookUp({ name: paid.name, certificateNumber: paid.certificateNumber.toLowerCase() }, 3);
    const body = res.json();
    expect(body.code, res.body).toBe(0);
    expect(body.data).toMatchObject({ queryType: 3, status: 1, statusKey: 'won', channel: 3, item: '10K' });
    expect(body.data.participant).toEqual({
      name: paid.name,
      gender: 2,
      certificateType: 1,
      certificateNumber: maskCertNo(paid.certificateNumber),
      phone: maskMobile(paid.phone),
      emergencyName: paid.emergencyName,
      emergencyPhone: maskMobile(paid.emergencyPhone),
      birthday: paid.birthday,
      age: 35,
      adult: true,
    });
    expect(body.data.participant.certificateNumber).toMatch(/^3201\*{10}\w{4}$/);
    expect(body.data.orders).toEqual([
      {
        orderNo,
        subOrderNo: expect.stringContaining(orderNo),
        createTime: '2026-12-01 10:00:00',
        serialNo: expect.stringMatching(/\S/),
        payTime: '2026-12-01 10:00:00',
        amountPaid: 80,
        orderAmount: 80,
        coupon: '',
        discount: 0,
      },
    ]);
    // Masked as an imported registration is: the same keys, the same masks.
    const imported = (await lookUp({ name: IMPORTED.name, certificateNumber: IMPORTED.certNo }, 3)).json();
    expect(Object.keys(body.data).sort()).toEqual(Object.keys(imported.data).sort());
    expect(Object.keys(body.data.participant).sort()).toEqual(Object.keys(imported.data.participant).sort());
    expect(imported.data.participant.certificateNumber).toBe(maskCertNo(IMPORTED.certNo));
    expect(imported.data.participant.phone).toBe(maskMobile(IMPORTED.phone));
    // Nothing of the numbers in clear.
    for (const secret of [paid.certificateNumber, paid.phone, paid.emergencyPhone])
      expect(res.body).not.toContain(secret);
  });

  it('takes a name as on a passport (inner spaces), keeps it single-spaced and finds the entry by it', async () => {
    const runner = await newRunner(app, clock.now());
    const passport = person('10K', '  ZHANG   Wei ');
    const answer = await signUp(runner, passport);
    await payInSandbox(app, runner, answer.order!.orderNo);
    const found = (await lookUp({ name: 'ZHANG Wei', certificateNumber: passport.certificateNumber }, 3)).json();
    expect(found.code, JSON.stringify(found)).toBe(0);
    expect(found.data.participant.name).toBe('ZHANG Wei');
    // Nothing but spaces and double quotes is still no name.
    const refused = await app.inject({
      method: 'POST',
      url: API_PATHS.entrySubmit,
      headers: { token: runner.token },
      payload: {
        raceId: DEMO_RACE_ID,
        itemCode: '10K',
        channel: 'public',
        idempotencyKey: `quotes-${clock.now()}`,
        participants: [person('10K', ' "" ')],
        captcha: await passedSlider(app),
      },
    });
    expect(refused.json()).toMatchObject({ code: 400, msgCode: 'nameInvalid' });
  });

  it('answers the info of another channel (third party, app) as missing, and a wrong name or number too', async () => {
    for (const queryType of [2, 5]) {
      expect((await lookUp(paid, queryType)).json()).toMatchObject({ code: 404, msgCode: 'registrationMissing' });
    }
    expect((await lookUp({ ...paid, name: '林小雪' })).json().msgCode).toBe('registrationMissing');
    const other = person('10K', paid.name).certificateNumber;
    expect((await lookUp({ ...paid, certificateNumber: other })).json().msgCode).toBe('registrationMissing');
  });

  it('is found by /confirm after the slider, masked, and confirmed', async () => {
    const runner = await newRunner(app, clock.now());
    const key = {
      raceId: DEMO_RACE_ID,
      name: paid.name,
      certificateType: 1,
      certificateNumber: paid.certificateNumber,
    };
    const s = await sliderFields(app);
    const captcha = { token: s.nc_token, sig: s.sig, sessionId: s.sessionId, scene: s.scene };
    const post = (url: string, payload: object) =>
      app.inject({ method: 'POST', url, payload, headers: { token: runner.token } });
    const found = await post(API_PATHS.confirmSearch, { ...key, captcha });
    expect(found.json().code, found.body).toBe(0);
    expect(found.json().data).toMatchObject({
      raceId: DEMO_RACE_ID,
      status: 1,
      item: '10K',
      channel: 3,
      participant: {
        name: paid.name,
        certificateNumber: maskCertNo(paid.certificateNumber),
        phone: maskMobile(paid.phone),
        emergencyPhone: maskMobile(paid.emergencyPhone),
      },
    });
    expect(found.body).not.toContain(paid.certificateNumber);
    const confirmed = await post(API_PATHS.confirm, key);
    expect(confirmed.json().data).toMatchObject({ raceId: DEMO_RACE_ID, status: 1, confirmedAt: clock.now() });
  });

  it('gets its bib after every bib imported runners hold; the import refuses a bib an entry holds', async () => {
    const assigned = await cli('bibs-assign', DEMO_RACE_ID, '10K', '--prefix', 'A', '--from', '1');
    expect(assigned.code, assigned.err).toBe(0);
    // A00001 is the imported runner's: the entry gets the next one.
    expect(assigned.out).toContain(`  ${entryNo}  A00002`);
    expect(await bibOf(entryNo)).toBe('A00002');
    expect((await lookUp(paid)).json().data.bib).toBe('A00002');

    const other = { name: '赵另一', certNo: idCard('32010219800101002') };
    const file =
      `${IMPORT_HEADER}\n` +
      `${IMPORTED.name},1,1985-06-07,1,${IMPORTED.certNo},${IMPORTED.phone},王家人,13622223333,10K,1,A00001,QC1,80,80\n` +
      `${other.name},1,1980-01-01,1,${other.certNo},13533334444,赵家人,13644445555,10K,1,A00002,QC2,80,80\n`;
    const refused = await importCsv(app.repos, 'registrations', DEMO_RACE_ID, file);
    expect(refused).toEqual({
      ok: false,
      problems: [
        `line 3: bib: A00002 is already given to another runner (entry ${entryNo}, made on the site); choose another bib or leave it blank`,
      ],
    });
    // Nothing of the file was written.
    expect((await lookUp({ name: other.name, certificateNumber: other.certNo })).json().msgCode).toBe(
      'registrationMissing',
    );
    // The entry's own runner may be imported with their bib (one bib, one runner).
    const own = `${IMPORT_HEADER}\n${paid.name},2,${paid.birthday},1,${paid.certificateNumber},${paid.phone},林大山,${paid.emergencyPhone},10K,1,A00002,,,\n`;
    expect(await importCsv(app.repos, 'registrations', DEMO_RACE_ID, own)).toMatchObject({ ok: true, rows: 1 });
  });
});

describe('the next lookup after a status change', () => {
  it('answers the entry as it is now: awaiting the draw, won, cancelled, then the new live entry', async () => {
    const runner = await newRunner(app, clock.now());
    const balloted = person('M', '周抽签');
    const first = (await signUp(runner, balloted)).entries[0]!;
    const status = async () => {
      const body = (await lookUp(balloted)).json();
      expect(body.code, JSON.stringify(body)).toBe(0);
      return { status: body.data.status, model: body.data.model, item: body.data.item };
    };
    expect(await status()).toEqual({ status: ENTRY_STATUSES.submitted, model: 'ballot', item: 'M' });

    const id = (await app.repos.entries.findByNo(first.entryNo))!.id;
    const { submitted, won, cancelled } = ENTRY_STATUSES;
    expect(await app.repos.entries.setStatus(id, [submitted], won, 'won', clock.now())).toBe(true);
    expect(await status()).toMatchObject({ status: won });
    expect(await app.repos.entries.setStatus(id, [won], cancelled, 'cancelled', clock.now())).toBe(true);
    expect(await status()).toMatchObject({ status: cancelled });

    // Entered again: the live entry answers, not the cancelled one.
    clock.advance(60_000);
    await signUp(runner, { ...balloted, item: '10K' });
    expect(await status()).toEqual({ status: ENTRY_STATUSES.submitted, model: 'firstCome', item: '10K' });
  });
});
