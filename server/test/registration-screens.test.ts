/**
 * The registration screens' API (issue 13 §4; contract/registration-screens.ts): /direct (directMine,
 * directSave, the organiser's review with the CLI), the form lookups (myResults, sizeStock), /confirm, /post
 * and /upload. Every call accepted and refused; personal numbers never whole in an answer or a log line.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { messageText } from '#contract/messages';
import { checkSubmission, type RegistrationForm } from '#contract/registration-form';
import type {
  DirectApplicationSettings,
  DocumentUploadSettings,
  PackMailingSettings,
} from '#contract/registration-screens';
import type { RaceInfo } from '#contract/site-config/race-types';
import { sql } from '../src/db/engine.ts';
import { validateRaceInfo } from '../src/db/race-schema.ts';
import { publishRegistrationForm } from '../src/db/registration-form-publisher.ts';
import { idCard } from '../src/db/seed-runners.ts';
import { hashPassword } from '../src/lib/password-hash.ts';
import { maskCertNo } from '../src/lib/race-center.ts';
import { serverSubmissionContext } from '../src/services/registration/check-submission.ts';
import { DEMO, passwordLogin, sliderFields } from './account-helpers.ts';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, multipart, removeTempDirs, siteCli, tempDir } from './helpers.ts';
import { oneFinisherResult, PAST_RACE_ID, seedRaceCenterFixture, ZHANG } from './race-center-fixture.ts';
import { pngOf } from './png.ts';

const REPO = path.resolve(import.meta.dirname, '../..');
const DIRECT_FORM = JSON.parse(
  readFileSync(path.join(REPO, 'server/seed/registration-forms/qc-marathon-2027.direct.json'), 'utf8'),
) as RegistrationForm;

const pdf = (bytes: number) => Buffer.concat([Buffer.from('%PDF-1.7\n', 'latin1'), Buffer.alloc(bytes, 0x20)]);

// The race's settings in the tests: the app's clock stands at 2025-06-16 10:00 China time.
const WINDOW: DirectApplicationSettings = { startTime: '2025-06-01 10:00:00', endTime: '2025-07-01 18:00:00' };
const MAILING: PackMailingSettings = {
  enabled: true,
  deadline: '2025-07-15 18:00:00',
  notice: { zh: '快递到付，报名截止后15个工作日内寄出', en: 'Cash on delivery, sent within 15 working days' },
};
const DOCUMENTS: DocumentUploadSettings = {
  enabled: true,
  deadline: '2025-07-20 18:00:00',
  maxSize: { size: 1, unit: 'MB' },
  maxCount: 2,
  note: { zh: '请上传体检报告', en: 'Upload your medical report' },
};
const ORG = 'org-fixture';
const OTHER_ORG_RACE = 'other-org-race-2024';

const clock = fakeClock();
const dataDir = tempDir();
const logLines: string[] = [];
/** Every answer body of the suite, for the masking check. */
const answers: string[] = [];
let app: FastifyInstance;
let fixtureRace: RaceInfo;

interface Runner {
  id: number;
  token: string;
  photo: string;
  report: string;
}
const runners: Runner[] = [];

async function call(options: InjectOptions) {
  const res = await app.inject(options);
  answers.push(res.body);
  return res;
}
const get = (url: string, who?: Runner) => call({ method: 'GET', url, headers: who ? { token: who.token } : {} });
const post = (url: string, payload: object, who?: Runner) =>
  call({ method: 'POST', url, payload, headers: who ? { token: who.token } : {} });

async function upload(who: { token: string }, url: string, filename: string, content: Buffer) {
  const body = multipart(filename, content);
  const res = await app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, token: who.token },
  });
  expect(res.json().code, res.body).toBe(0);
  return res.json().data.url as string;
}

async function newRunner(phone: string): Promise<Runner> {
  if (phone !== DEMO.phone) {
    await app.repos.users.create({ phone, passwordHash: await hashPassword('Secret123') }, app.config.now());
  }
  const login = await passwordLogin(app, phone, phone === DEMO.phone ? DEMO.password : 'Secret123');
  const token = login.json().data.token as string;
  const id = (await app.repos.users.findByPhone(phone))!.id;
  const who = { token };
  return {
    id,
    token,
    photo: await upload(who, API_PATHS.uploadImage, 'photo.png', pngOf(358, 441)),
    report: await upload(who, API_PATHS.uploadFile, 'report.pdf', pdf(2000)),
  };
}

async function saveRace(changes: Partial<RaceInfo>) {
  await app.repos.races.save({ ...fixtureRace, ...changes }, app.config.now());
}

const publishDirect = (form: RegistrationForm) =>
  publishRegistrationForm({
    repos: app.repos,
    raceId: FIXTURE_RACE_ID,
    channel: 'direct',
    bytes: Buffer.from(JSON.stringify({ ...form, raceId: FIXTURE_RACE_ID })),
    now: app.config.now(),
  });

/** A complete application of a runner (the demo direct form), with their own uploads and an outside result. */
function application(who: Runner, certNo: string, name = '赵六', extra: Record<string, unknown> = {}) {
  return {
    item: 'M',
    name,
    gender: 1,
    certificateType: 1,
    certificateNumber: certNo,
    birthday: '1990-01-01',
    nationality: 'CN',
    phone: '13811112222',
    email: 'elite@example.com',
    region: ['320000', '320100', '320102'],
    address: '运河中路1号',
    emergencyName: '李红',
    emergencyPhone: '13922223333',
    targetTime: '240-250',
    marathonsFinished: 12,
    eliteShirtSize: 'M',
    qualifyingResult: {
      source: 'outside',
      raceName: '2025 上海马拉松',
      item: 'M',
      chipTime: '2:45:10',
      raceDate: '2025-03-30',
      certificateImage: who.photo,
    },
    photo: who.photo,
    healthCertificate: who.report,
    eliteServices: ['fastPickup'],
    trainingProfile: 'https://www.strava.com/athletes/1',
    ...extra,
  };
}

const saveDirect = (who: Runner, values: Record<string, unknown>, submit: boolean) =>
  post(API_PATHS.directSave, { raceId: FIXTURE_RACE_ID, values, submit }, who);
const mine = async (who: Runner) => (await get(`${API_PATHS.directMine}?raceId=${FIXTURE_RACE_ID}`, who)).json().data;
const fieldCodes = (body: { data: { fields: Record<string, { code: string }> } }) =>
  Object.fromEntries(Object.entries(body.data.fields).map(([key, r]) => [key, r.code]));

let zhangBib: string;

beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  app = await buildTestApp({ dataDir, env: { RATE_LIMITS: 'off' }, now: clock.now, logger: 'info', logStream });
  await seedRaceCenterFixture(app);
  fixtureRace = {
    ...(await app.repos.races.findById(FIXTURE_RACE_ID))!,
    organizationId: ORG,
    directApplication: WINDOW,
    packMailing: MAILING,
    documentUpload: DOCUMENTS,
  };
  await saveRace({});
  const past = (await app.repos.races.findById(PAST_RACE_ID))!;
  await app.repos.races.save({ ...past, organizationId: ORG }, app.config.now());
  // ZHANG also finished a race of another organiser: not one of this organiser's results.
  await app.repos.races.save(
    {
      raceId: OTHER_ORG_RACE,
      raceName: '2024 别家马拉松',
      organizationId: 'org-other',
      startTime: '2024-04-01 07:30:00',
    },
    app.config.now(),
  );
  await app.repos.raceCenter.upsertResult(
    oneFinisherResult(OTHER_ORG_RACE, 'Z1', ZHANG.name, app.repos.raceCenter.certHash(ZHANG.certNo)),
  );
  await publishDirect(DIRECT_FORM);
  runners.push(await newRunner(DEMO.phone));
  for (const phone of ['13900139001', '13900139002', '13900139003', '13900139004', '13900139005', '13900139006']) {
    runners.push(await newRunner(phone));
  }
  const own = await post(
    API_PATHS.myResults,
    { name: ZHANG.name, certificateType: 1, certificateNumber: ZHANG.certNo, raceId: FIXTURE_RACE_ID },
    runners[0],
  );
  zhangBib = (own.json().data as { raceId: string; resultId: string }[])
    .find((r) => r.raceId === PAST_RACE_ID)!
    .resultId.split(':')[1]!;
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

describe('login', () => {
  it('answers 401 loginExpired to every call of the screens without a valid token (sizeStock is public)', async () => {
    const calls: [string, string, object?][] = [
      ['GET', `${API_PATHS.directMine}?raceId=${FIXTURE_RACE_ID}`],
      ['POST', API_PATHS.directSave, { raceId: FIXTURE_RACE_ID, values: {}, submit: false }],
      ['POST', API_PATHS.myResults, { name: ZHANG.name, certificateType: 1, certificateNumber: ZHANG.certNo }],
      [
        'POST',
        API_PATHS.confirmSearch,
        { raceId: FIXTURE_RACE_ID, name: 'x', certificateType: 2, certificateNumber: 'E1234567' },
      ],
      [
        'POST',
        API_PATHS.confirm,
        { raceId: FIXTURE_RACE_ID, name: 'x', certificateType: 2, certificateNumber: 'E1234567' },
      ],
      ['GET', `${API_PATHS.mailingGet}?raceId=${FIXTURE_RACE_ID}`],
      ['POST', API_PATHS.mailingSave, { raceId: FIXTURE_RACE_ID, method: 'pickup' }],
      ['GET', `${API_PATHS.documentsGet}?raceId=${FIXTURE_RACE_ID}`],
      ['POST', API_PATHS.documentsSave, { raceId: FIXTURE_RACE_ID, files: '' }],
    ];
    for (const [method, url, payload] of calls) {
      for (const token of [undefined, 'not-a-token']) {
        const res = await call({ method: method as 'GET', url, payload, headers: token ? { token } : {} });
        expect(res.json(), `${method} ${url}`).toMatchObject({ code: 401, msgCode: 'loginExpired' });
        expect(res.headers['cache-control']).toBe('no-store');
      }
    }
    const sizes = await get(`${API_PATHS.sizeStock}?raceId=${FIXTURE_RACE_ID}&channel=direct&field=eliteShirtSize`);
    expect(sizes.json().code).toBe(0);
  });
});

describe('/direct: directMine and directSave', () => {
  it('answers the window on the race clock and no application yet', async () => {
    expect(await mine(runners[1]!)).toEqual({ window: { ...WINDOW, state: 'open' }, formChannel: 'direct' });
    const res = await get(`${API_PATHS.directMine}?raceId=no-such-race`, runners[1]);
    expect(res.json()).toMatchObject({ code: 404, msgCode: 'raceNotFound' });
  });

  it('saves a draft (status 0) checking only what is filled, and answers the personal numbers masked', async () => {
    const who = runners[1]!;
    const bad = await saveDirect(who, { name: ' "" ', phone: '12345' }, false);
    expect(bad.json()).toMatchObject({ code: 400, msg: messageText('nameInvalid'), msgCode: 'nameInvalid' });
    expect(fieldCodes(bad.json())).toEqual({ name: 'nameInvalid', phone: 'badPhone' });
    const certNo = idCard('32010219850505123');
    const res = await saveDirect(
      who,
      { name: '赵六', phone: '13811112222', certificateType: 1, certificateNumber: certNo },
      false,
    );
    expect(res.json().code, res.body).toBe(0);
    const app1 = res.json().data;
    expect(app1).toMatchObject({
      status: 0,
      values: { name: '赵六', phone: '138****2222', certificateNumber: maskCertNo(certNo) },
    });
    expect(app1.submittedAt).toBeUndefined();
    // The masked numbers sent back as answered stand for the stored ones.
    const again = await saveDirect(who, { ...app1.values, gender: 1 }, false);
    expect(again.json().data).toMatchObject({ id: app1.id, status: 0, values: { gender: 1 } });
    const stored = await app.repos.directApplications.findForUser(FIXTURE_RACE_ID, who.id);
    expect(stored?.values).toMatchObject({ phone: '13811112222', certificateNumber: certNo });
    expect((await mine(who)).application).toMatchObject({ id: app1.id, status: 0, values: { phone: '138****2222' } });
  });

  it('refuses an incomplete submission with the codes the contract (and so the SPA) gives', async () => {
    const who = runners[1]!;
    const values = {
      name: '赵六',
      phone: '13811112222',
      item: 'M',
      emergencyPhone: '13811112222',
      trainingProfile: 'strava',
    };
    const res = await saveDirect(who, values, true);
    const expected = checkSubmission({ ...DIRECT_FORM, raceId: FIXTURE_RACE_ID }, values, serverSubmissionContext());
    expect(res.json()).toMatchObject({ code: 400, msgCode: Object.values(expected)[0]!.code });
    expect(fieldCodes(res.json())).toEqual(Object.fromEntries(Object.entries(expected).map(([k, r]) => [k, r.code])));
    expect(fieldCodes(res.json())).toMatchObject({
      emergencyPhone: 'emergencyPhoneSame',
      trainingProfile: 'badUrl',
      photo: 'uploadRequired',
    });
    expect((await mine(who)).application.status).toBe(0);
  });

  it('submits a complete application (status 1) and then refuses every change', async () => {
    const who = runners[1]!;
    const values = application(who, idCard('32010219850505123'));
    const res = await saveDirect(who, values, true);
    expect(res.json().code, res.body).toBe(0);
    expect(res.json().data).toMatchObject({ status: 1, submittedAt: clock.now() });
    for (const submit of [false, true]) {
      const again = await saveDirect(who, values, submit);
      expect(again.json()).toMatchObject({
        code: 400,
        msgCode: 'directSubmitted',
        msg: messageText('directSubmitted'),
      });
    }
  });

  it("refuses another runner's uploads, results that are not the runner's own, and a certificate number already submitted", async () => {
    const [, first, who] = runners as [Runner, Runner, Runner];
    const certNo = idCard('11010519900101456');
    const othersFiles = await saveDirect(
      who,
      application(who, certNo, '钱七', { photo: first.photo, healthCertificate: first.report }),
      true,
    );
    expect(fieldCodes(othersFiles.json())).toEqual({ photo: 'badUpload', healthCertificate: 'badUpload' });
    // 钱七 has no results: ZHANG's result is not theirs, nor is one of another organiser's races.
    const notOwn = await saveDirect(
      who,
      application(who, certNo, '钱七', {
        pastEvents: [`${PAST_RACE_ID}:${zhangBib}`],
        qualifyingResult: { source: 'own', resultId: `${OTHER_ORG_RACE}:Z1` },
      }),
      true,
    );
    expect(fieldCodes(notOwn.json())).toEqual({ pastEvents: 'badPastEvent', qualifyingResult: 'badPastEvent' });
    const taken = await saveDirect(who, application(who, idCard('32010219850505123'), '赵六'), true);
    expect(taken.json()).toMatchObject({ code: 400, msgCode: 'directCertificateUsed' });
    expect(fieldCodes(taken.json())).toEqual({ certificateNumber: 'directCertificateUsed' });
  });

  it("accepts the runner's own results (own score claim, past events), from the organiser's races only", async () => {
    const who = runners[2]!;
    const values = application(who, ZHANG.certNo, ZHANG.name, {
      pastEvents: [`${PAST_RACE_ID}:${zhangBib}`],
      qualifyingResult: { source: 'own', resultId: `${PAST_RACE_ID}:${zhangBib}` },
    });
    const other = await saveDirect(who, { ...values, pastEvents: [`${OTHER_ORG_RACE}:Z1`] }, true);
    expect(fieldCodes(other.json())).toEqual({ pastEvents: 'badPastEvent' });
    const res = await saveDirect(who, values, true);
    expect(res.json().code, res.body).toBe(0);
    expect(res.json().data.values).toMatchObject({
      certificateNumber: maskCertNo(ZHANG.certNo),
      qualifyingResult: { source: 'own', resultId: `${PAST_RACE_ID}:${zhangBib}` },
    });
  });

  it('refuses outside the window with directNotOpen / directEnded, and mine says notYet / ended', async () => {
    const who = runners[3]!;
    const values = application(who, idCard('44010619751230777'), '孙八');
    await saveRace({ directApplication: { startTime: '2025-06-20 10:00:00', endTime: '2025-07-01 18:00:00' } });
    expect((await mine(who)).window.state).toBe('notYet');
    expect((await saveDirect(who, values, false)).json()).toMatchObject({ code: 400, msgCode: 'directNotOpen' });
    // The end is exclusive: at 10:00:00 on the end day the window has closed.
    await saveRace({ directApplication: { startTime: '2025-06-01 10:00:00', endTime: '2025-06-16 10:00:00' } });
    expect((await mine(who)).window).toMatchObject({ state: 'ended', endTime: '2025-06-16 10:00:00' });
    expect((await saveDirect(who, values, true)).json()).toMatchObject({
      code: 400,
      msgCode: 'directEnded',
      msg: 'Application ended',
    });
    // A race on another clock: the same instant is 03:00 in London, before a 09:00 start there.
    await saveRace({
      timeZone: 'Europe/London',
      directApplication: { startTime: '2025-06-16 09:00:00', endTime: '2025-07-01 18:00:00' },
    });
    expect((await mine(who)).window.state).toBe('notYet');
    await saveRace({});
    expect((await mine(who)).window.state).toBe('open');
    await saveRace({ directApplication: undefined });
    expect((await mine(who)).window).toEqual({ startTime: '', endTime: '', state: 'ended' });
    await saveRace({});
  });

  it('refuses a race without a published direct form, and a bad body', async () => {
    await app.repos.races.save({ raceId: 'no-form-race', raceName: 'x', directApplication: WINDOW }, app.config.now());
    const res = await post(API_PATHS.directSave, { raceId: 'no-form-race', values: {}, submit: false }, runners[3]);
    expect(res.json()).toMatchObject({ code: 404, msgCode: 'registrationFormMissing' });
    const bad = await post(API_PATHS.directSave, { raceId: FIXTURE_RACE_ID, values: 'x', submit: 'yes' }, runners[3]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 400, msgCode: 'invalidRequest' });
  });
});

describe('the organiser reviews with the CLI', () => {
  const run = siteCli(dataDir);

  it('lists the commands in the help, the export saying that its file holds whole phone numbers', async () => {
    const help = await run('help');
    for (const command of [
      'direct-list <raceId> [--status 0|1|2|3]',
      'direct-show <id>',
      'direct-approve <id>',
      'direct-reject <id> --reason',
      'mailing-export --race <raceId> --out <file.xlsx|file.csv>',
    ]) {
      expect(help.out).toContain(command);
    }
    expect(help.out).toContain('WHOLE phone numbers');
    expect((await run('direct-show')).code).toBe(2);
    expect((await run('direct-show', 'abc')).code).toBe(1);
  });

  it('lists, shows, rejects with a reason the runner reads, and approves after a corrected submission', async () => {
    const who = runners[1]!;
    const id = (await mine(who)).application.id as number;
    const list = await run('direct-list', FIXTURE_RACE_ID);
    expect(list.code, list.err).toBe(0);
    expect(list.out).toContain(`  ${id}  1 submitted, awaiting review  赵*  submitted 2025-06-16 10:00:00`);
    expect((await run('direct-list', FIXTURE_RACE_ID, '--status', '2')).out).toContain('No direct-pass application');
    expect((await run('direct-list', FIXTURE_RACE_ID, '--status', '7')).code).toBe(2);
    expect((await run('direct-list', 'no-such-race')).code).toBe(1);

    const show = await run('direct-show', String(id));
    expect(show.code, show.err).toBe(0);
    expect(show.out).toContain('status:    1 submitted, awaiting review');
    expect(show.out).toContain('outside result: 2025 上海马拉松 2025-03-30, M 2:45:10');
    expect(show.out).toContain('138****2222');
    expect(show.out).not.toContain('13811112222');
    expect(show.out).not.toContain(idCard('32010219850505123'));
    expect((await run('direct-show', '999999')).code).toBe(1);

    expect((await run('direct-reject', String(id))).code).toBe(2);
    const reject = await run('direct-reject', String(id), '--reason', '成绩证书不清晰，请重新上传');
    expect(reject.code, reject.err).toBe(0);
    expect((await mine(who)).application).toMatchObject({ status: 3, rejectReason: '成绩证书不清晰，请重新上传' });
    expect((await run('direct-approve', String(id))).code).toBe(1);

    // Rejected: corrected as a draft (still rejected), then submitted again.
    const values = application(who, idCard('32010219850505123'));
    const draft = await saveDirect(who, { ...values, statement: '已重新上传' }, false);
    expect(draft.json().data).toMatchObject({ status: 3, rejectReason: '成绩证书不清晰，请重新上传' });
    const again = await saveDirect(who, { ...values, statement: '已重新上传' }, true);
    expect(again.json().data).toMatchObject({ status: 1 });
    expect(again.json().data.rejectReason).toBeUndefined();

    const approve = await run('direct-approve', String(id));
    expect(approve.code, approve.err).toBe(0);
    expect((await mine(who)).application).toMatchObject({ status: 2, reviewedAt: Date.UTC(2025, 5, 16, 2, 0, 0) });
    expect((await saveDirect(who, values, true)).json()).toMatchObject({ code: 400, msgCode: 'directApproved' });
    expect((await run('direct-approve', String(id))).err).toContain('not awaiting review (status 2: approved)');
  });
});

describe('clothing-size stock', () => {
  it('never oversells the last piece to parallel submissions, and sizeStock counts what is left', async () => {
    const form = structuredClone(DIRECT_FORM);
    const shirt = form.fields.find((f) => f.key === 'eliteShirtSize') as { sizes: { code: string; stock?: number }[] };
    shirt.sizes.find((s) => s.code === 'XXL')!.stock = 1;
    await publishDirect(form);
    const url = `${API_PATHS.sizeStock}?raceId=${FIXTURE_RACE_ID}&channel=direct&field=eliteShirtSize`;
    const before = await get(url);
    expect(before.headers['cache-control']).toBe('public, max-age=10');
    // Two applications hold an M (one approved, one submitted).
    expect(before.json().data).toMatchObject({ XXL: 1, M: 78, XS: 20 });

    const contenders = runners.slice(3, 7);
    const results = await Promise.all(
      contenders.map((who, i) =>
        saveDirect(who, application(who, idCard(`32010219950101${i}00`), `选手${i}`, { eliteShirtSize: 'XXL' }), true),
      ),
    );
    const bodies = results.map((r) => r.json());
    expect(bodies.filter((b) => b.code === 0)).toHaveLength(1);
    for (const body of bodies.filter((b) => b.code !== 0)) {
      expect(fieldCodes(body)).toEqual({ eliteShirtSize: 'sizeSoldOut' });
    }
    expect((await get(url)).json().data).toMatchObject({ XXL: 0 });
    // The runners who missed it choose another size.
    const loser = contenders[bodies.findIndex((b) => b.code !== 0)]!;
    const retry = await saveDirect(
      loser,
      application(loser, idCard('32010219950109999'), '选手9', { eliteShirtSize: 'L' }),
      true,
    );
    expect(retry.json().code, retry.body).toBe(0);
    await publishDirect(DIRECT_FORM);
  });

  it('refuses an unknown field, a form that is not published, and answers the stock as it is for another channel', async () => {
    const base = `${API_PATHS.sizeStock}?raceId=${FIXTURE_RACE_ID}`;
    expect((await get(`${base}&channel=direct&field=name`)).json()).toMatchObject({ code: 404, msgCode: 'notFound' });
    expect((await get(`${base}&channel=nope&field=x`)).json()).toMatchObject({
      code: 404,
      msgCode: 'registrationFormMissing',
    });
    expect((await get(`${base}&field=bad-key!`)).statusCode).toBe(400);
  });
});

describe('myResults', () => {
  const body = { name: ZHANG.name, certificateType: 1, certificateNumber: ZHANG.certNo };

  it("answers the runner's own finishes, in the organiser's races when a race is named", async () => {
    const all = (await post(API_PATHS.myResults, body, runners[0])).json().data as { raceId: string }[];
    expect(all.map((r) => r.raceId).sort()).toEqual([OTHER_ORG_RACE, PAST_RACE_ID].sort());
    const res = await post(API_PATHS.myResults, { ...body, raceId: FIXTURE_RACE_ID }, runners[0]);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json().data).toEqual([
      expect.objectContaining({
        resultId: `${PAST_RACE_ID}:${zhangBib}`,
        raceId: PAST_RACE_ID,
        raceName: '2024 测试马拉松',
        raceDate: '2024-11-03',
        item: expect.any(String),
        chipTime: expect.stringMatching(/^\d+:\d\d:\d\d$/),
      }),
    ]);
    // Name and certificate number must both match.
    expect((await post(API_PATHS.myResults, { ...body, name: '张三' }, runners[0])).json().data).toEqual([]);
  });

  it('refuses a malformed name or certificate number with the rule messages', async () => {
    const res = await post(
      API_PATHS.myResults,
      { name: ' ', certificateType: 1, certificateNumber: '123' },
      runners[0],
    );
    expect(res.json()).toMatchObject({ code: 400, msgCode: 'nameRequired' });
    expect(fieldCodes(res.json())).toEqual({ name: 'nameRequired', certificateNumber: 'idCardInvalid' });
    const type = await post(API_PATHS.myResults, { ...body, certificateType: 9 }, runners[0]);
    expect(fieldCodes(type.json())).toEqual({ certificateNumber: 'badCertificateType' });
  });
});

describe('/confirm', () => {
  const key = { raceId: FIXTURE_RACE_ID, name: ZHANG.name, certificateType: 1, certificateNumber: ZHANG.certNo };
  const captchaOf = async () => {
    const s = await sliderFields(app);
    return { token: s.nc_token, sig: s.sig, sessionId: s.sessionId, scene: s.scene };
  };

  it('needs a passed slider (once) before it answers the registration, masked', async () => {
    const who = runners[4]!;
    expect((await post(API_PATHS.confirmSearch, key, who)).json()).toMatchObject({ code: 400, msgCode: 'slideFirst' });
    const forged = { token: 'x', sig: 'y', sessionId: 'z', scene: 'message_h5' };
    expect((await post(API_PATHS.confirmSearch, { ...key, captcha: forged }, who)).json()).toMatchObject({
      code: 400,
      msgCode: 'verificationFailed',
    });
    // Confirming before a search tells nothing.
    expect((await post(API_PATHS.confirm, key, who)).json()).toMatchObject({ code: 400, msgCode: 'slideFirst' });
    const captcha = await captchaOf();
    const res = await post(API_PATHS.confirmSearch, { ...key, captcha }, who);
    expect(res.json().code, res.body).toBe(0);
    expect(res.json().data).toMatchObject({
      raceId: FIXTURE_RACE_ID,
      status: ZHANG.status,
      participant: { certificateNumber: maskCertNo(ZHANG.certNo), phone: '138****5678' },
    });
    expect(res.json().data.confirmedAt).toBeUndefined();
    // The pass is single-use.
    expect((await post(API_PATHS.confirmSearch, { ...key, captcha }, who)).json().msgCode).toBe('verificationFailed');
    const missing = await post(API_PATHS.confirmSearch, { ...key, name: '张三', captcha: await captchaOf() }, who);
    expect(missing.json()).toMatchObject({ code: 404, msgCode: 'registrationMissing' });
  });

  it('records the confirmation after this account searched, and answers it from then on', async () => {
    const who = runners[4]!;
    expect((await post(API_PATHS.confirm, key, runners[5])).json().msgCode).toBe('slideFirst');
    const res = await post(API_PATHS.confirm, key, who);
    expect(res.json().data).toMatchObject({ raceId: FIXTURE_RACE_ID, confirmedAt: clock.now() });
    const again = await post(API_PATHS.confirmSearch, { ...key, captcha: await captchaOf() }, runners[5]);
    expect(again.json().data.confirmedAt).toBe(clock.now());
    const bad = await post(API_PATHS.confirm, { ...key, certificateNumber: '123' }, who);
    expect(fieldCodes(bad.json())).toEqual({ certificateNumber: 'idCardInvalid' });
  });
});

describe('/post: race-pack mailing', () => {
  const url = `${API_PATHS.mailingGet}?raceId=${FIXTURE_RACE_ID}`;
  const mail = {
    raceId: FIXTURE_RACE_ID,
    method: 'mail',
    name: '赵六',
    phone: '13611112222',
    region: ['320000', '320100', '320102'],
    address: '运河中路1号',
  };

  it('answers the settings and refuses each field with its rule', async () => {
    const who = runners[1]!;
    expect((await get(url, who)).json().data).toEqual({ settings: { ...MAILING, state: 'open' } });
    const res = await post(
      API_PATHS.mailingSave,
      { ...mail, name: '" "', phone: '123', region: ['320000', '320100'], address: '' },
      who,
    );
    expect(res.json()).toMatchObject({ code: 400, msgCode: 'nameInvalid', msg: messageText('nameInvalid') });
    expect(fieldCodes(res.json())).toEqual({
      name: 'nameInvalid',
      phone: 'badPhone',
      region: 'regionIncomplete',
      address: 'addressRequired',
    });
    const unknown = await post(
      API_PATHS.mailingSave,
      { ...mail, region: ['320000', '320100', '110101'], address: '" "' },
      who,
    );
    expect(fieldCodes(unknown.json())).toEqual({ region: 'regionUnknown', address: 'textInvalid' });
    expect((await post(API_PATHS.mailingSave, { ...mail, method: 'drone' }, who)).statusCode).toBe(400);
  });

  it('saves mailing with the phone encrypted and answered masked; pick-up clears the address', async () => {
    const who = runners[1]!;
    const res = await post(API_PATHS.mailingSave, mail, who);
    expect(res.json().data).toMatchObject({
      method: 'mail',
      phone: '136****2222',
      region: mail.region,
      address: '运河中路1号',
    });
    expect((await get(url, who)).json().data.choice).toMatchObject({ phone: '136****2222', updatedAt: clock.now() });
    // The masked phone sent back keeps the stored one.
    await post(API_PATHS.mailingSave, { ...mail, phone: '136****2222', address: '运河中路2号' }, who);
    expect((await app.repos.runnerChoices.mailing(FIXTURE_RACE_ID, who.id))?.phone).toBe('13611112222');
    const stored = await app.repos.db.all<Record<string, unknown>>(sql`SELECT * FROM mailing_choices`);
    expect(JSON.stringify(stored)).not.toContain('13611112222');
    const pickup = await post(API_PATHS.mailingSave, { raceId: FIXTURE_RACE_ID, method: 'pickup' }, runners[2]);
    expect(pickup.json().data).toMatchObject({ method: 'pickup', name: '', phone: '', region: [] });
  });

  it('exports the mailing list with whole phone numbers into the file only', async () => {
    // The list's columns, the tracking import and the parcel: server/test/mailing-parcel.test.ts (issue 15).
    const file = path.join(dataDir, 'mailing.csv');
    const res = await siteCli(dataDir)('mailing-export', '--race', FIXTURE_RACE_ID, '--out', file);
    expect(res.code, res.err).toBe(0);
    expect(res.out).toContain('1 runner who chose mailing');
    expect(res.out).toContain('1 runner collect on site');
    expect(res.out).not.toContain('13611112222');
    const csv = readFileSync(file, 'utf8');
    expect(csv).toContain(`${runners[1]!.id},赵六,13611112222,江苏省,南京市,玄武区,运河中路2号,`);
    expect(csv).not.toContain(`\r\n${runners[2]!.id},`);
    expect((await siteCli(dataDir)('mailing-export', '--race', 'no-such-race', '--out', file)).code).toBe(1);
  });

  it('refuses when the race offers no mailing, and after the deadline', async () => {
    await saveRace({ packMailing: { ...MAILING, enabled: false } });
    expect((await get(url, runners[1])).json().data.settings.state).toBe('closed');
    expect((await post(API_PATHS.mailingSave, mail, runners[1])).json()).toMatchObject({
      code: 400,
      msgCode: 'mailingClosed',
    });
    await saveRace({ packMailing: { ...MAILING, deadline: '2025-06-16 10:00:00' } });
    expect((await get(url, runners[1])).json().data.settings.state).toBe('ended');
    expect((await post(API_PATHS.mailingSave, mail, runners[1])).json()).toMatchObject({
      code: 400,
      msgCode: 'mailingEnded',
    });
    await saveRace({});
  });
});

describe('/upload: documents', () => {
  const url = `${API_PATHS.documentsGet}?raceId=${FIXTURE_RACE_ID}`;

  it("saves the runner's own files within the race's limits", async () => {
    const who = runners[1]!;
    expect((await get(url, who)).json().data).toEqual({ settings: { ...DOCUMENTS, state: 'open' }, files: '' });
    const save = (files: string) => post(API_PATHS.documentsSave, { raceId: FIXTURE_RACE_ID, files }, who);
    const res = await save(`${who.report},/files/${who.photo}`);
    expect(res.json().data).toEqual({ files: `${who.report},/files/${who.photo}`, updatedAt: clock.now() });
    expect((await get(url, who)).json().data).toMatchObject({
      files: `${who.report},/files/${who.photo}`,
      updatedAt: clock.now(),
    });
    expect(fieldCodes((await save(runners[2]!.report)).json())).toEqual({ files: 'badUpload' });
    expect(fieldCodes((await save(`${who.report},${who.photo},${who.report}`)).json())).toEqual({
      files: 'tooManyFiles',
    });
    const big = await upload(who, API_PATHS.uploadFile, 'big.pdf', pdf(1024 * 1024 + 10));
    const tooBig = (await save(big)).json();
    expect(tooBig).toMatchObject({ code: 400, msgCode: 'fileTooBig', msgParams: { size: 1, unit: 'MB' } });
    expect((await save('')).json().data.files).toBe('');
  });

  it('refuses when the race takes no documents, and after the deadline', async () => {
    const save = () => post(API_PATHS.documentsSave, { raceId: FIXTURE_RACE_ID, files: '' }, runners[1]);
    await saveRace({ documentUpload: undefined });
    expect((await get(url, runners[1])).json().data.settings).toMatchObject({ enabled: false, state: 'closed' });
    expect((await save()).json()).toMatchObject({ code: 400, msgCode: 'documentsClosed' });
    await saveRace({ documentUpload: { ...DOCUMENTS, deadline: '2025-06-16 09:59:59' } });
    expect((await save()).json()).toMatchObject({ code: 400, msgCode: 'documentsEnded' });
    await saveRace({});
  });
});

describe('personal numbers', () => {
  it('are stored encrypted, and never whole in an answer or a log line', async () => {
    const rows = await app.repos.db.all<Record<string, unknown>>(sql`SELECT * FROM direct_applications`);
    expect(rows.length).toBeGreaterThan(3);
    const whole = [ZHANG.certNo, idCard('32010219850505123'), '13811112222', '13922223333', '13611112222'];
    for (const number of whole) {
      expect(JSON.stringify(rows), number).not.toContain(number);
      expect(
        answers.filter((a) => a.includes(number)),
        number,
      ).toEqual([]);
      expect(
        logLines.filter((l) => l.includes(number)),
        number,
      ).toEqual([]);
    }
    expect(logLines.length).toBeGreaterThan(50);
  });
});

describe('race.json settings', () => {
  it('are validated where race.json is, with JSON paths', () => {
    const race = { raceId: 'r', raceName: 'R' };
    expect(
      validateRaceInfo({ ...race, directApplication: WINDOW, packMailing: MAILING, documentUpload: DOCUMENTS }),
    ).toMatchObject({ ok: true });
    const bad = validateRaceInfo({
      ...race,
      directApplication: { startTime: '2025-07-01 18:00:00', endTime: '2025-06-01 10:00:00' },
      packMailing: { enabled: 'yes', deadline: 'soon', notice: { zh: '到付' } },
      documentUpload: { ...DOCUMENTS, maxSize: { size: 1, unit: 'TB' }, maxCount: -1, extra: 1 },
    });
    expect(bad.ok).toBe(false);
    const paths = !bad.ok ? bad.problems.map((p) => p.path) : [];
    expect(paths).toEqual(
      expect.arrayContaining([
        '$.directApplication.endTime',
        '$.packMailing.enabled',
        '$.packMailing.deadline',
        '$.packMailing.notice.en',
        '$.documentUpload.maxSize.unit',
        '$.documentUpload.maxCount',
      ]),
    );
    const seed = JSON.parse(readFileSync(path.join(REPO, 'server/seed/race.json'), 'utf8')) as { race: unknown };
    expect(validateRaceInfo(seed.race)).toMatchObject({
      ok: true,
      race: {
        directApplication: { startTime: expect.any(String) },
        packMailing: { enabled: true },
        documentUpload: { maxCount: 5 },
      },
    });
  });
});
