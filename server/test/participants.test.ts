/**
 * Saved participants (issue 15 §3; routes/user-center/participants.ts, services/after-entry/participants.ts):
 * list, save and delete with the §5 rules of the registration form, numbers encrypted and answered masked,
 * a masked number sent back standing for the stored one, one certificate per account, the limit, no access to
 * another account's participants, and a sign-up that picks a saved participant (savedParticipantId) storing the
 * full numbers. Runs on both engines.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SAVED_PARTICIPANTS, type SavedParticipant } from '#contract/after-entry';
import { API_PATHS } from '#contract/api';
import type { EntrySettings, EntrySubmitAnswer } from '#contract/entry';
import type { RaceInfo } from '#contract/site-config/race-types';
import { sql } from '../src/db/engine.ts';
import { publishRegistrationForm } from '../src/db/registration-form-publisher.ts';
import { idCard } from '../src/db/seed-runners.ts';
import { hashPassword } from '../src/lib/password-hash.ts';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, passedSlider, removeTempDirs, tempDir } from './helpers.ts';

const RACE = FIXTURE_RACE_ID;
// The app's clock stands at 2025-06-16 10:00 China time; the race is on 2025-11-02.
const OPEN = { signUpStartTime: '2025-06-01 10:00:00', signUpEndTime: '2025-07-01 18:00:00', signUpOpenStatus: 1 };
const name = (zh: string, en = zh) => ({ zh, en });
const ENTRY: EntrySettings = {
  allowMultiple: true,
  items: [{ code: '10K', name: name('10公里', '10 km'), capacity: 50, feeFen: 8000, model: 'firstCome', minAge: 12 }],
};
const FORM = {
  version: 1,
  raceId: RACE,
  channel: 'public',
  fields: [
    {
      key: 'item',
      type: 'radio',
      label: name('项目'),
      required: true,
      options: [{ value: '10K', label: name('10K') }],
    },
    { key: 'name', type: 'input', label: name('姓名'), required: true },
    { key: 'gender', type: 'gender', label: name('性别'), required: true },
    { key: 'certificateType', type: 'certificateType', label: name('证件类型'), required: true },
    {
      key: 'certificateNumber',
      type: 'certificateNumber',
      typeField: 'certificateType',
      label: name('证件号码'),
      required: true,
    },
    { key: 'birthday', type: 'date', label: name('出生日期'), required: true },
    { key: 'phone', type: 'phone', label: name('手机'), required: true },
    { key: 'emergencyName', type: 'input', label: name('紧急联系人'), required: true },
    { key: 'emergencyPhone', type: 'phone', label: name('紧急联系人电话'), required: true },
  ],
};

const clock = fakeClock();
const dataDir = tempDir();
let app: FastifyInstance;
let passwordHash: string;
let phoneSeq = 0;
let personSeq = 0;
let keySeq = 0;

interface Account {
  id: number;
  token: string;
}

async function account(): Promise<Account> {
  phoneSeq += 1;
  const phone = `137${String(phoneSeq).padStart(8, '0')}`;
  const id = await app.repos.users.create({ phone, passwordHash }, clock.now());
  const { token } = await app.repos.tokens.issue(id, 3_600_000, clock.now());
  return { id, token };
}

/** A new person (a valid ID card number of their birthday). */
function person(birthday = '1990-05-20', extra: Record<string, unknown> = {}) {
  personSeq += 1;
  const seq = String(personSeq).padStart(3, '0');
  return {
    name: `参赛人${personSeq}`,
    gender: 2,
    certificateType: 1,
    certificateNumber: idCard(`110105${birthday.replaceAll('-', '')}${seq}`),
    birthday,
    phone: `1360000${String(personSeq).padStart(4, '0')}`,
    emergencyName: `联系人${personSeq}`,
    emergencyPhone: `1350000${String(personSeq).padStart(4, '0')}`,
    ...extra,
  };
}

const call = (who: Account | null, url: string, payload?: unknown) =>
  app.inject({
    method: payload === undefined ? 'GET' : 'POST',
    url,
    headers: who ? { token: who.token } : {},
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
const list = async (who: Account) => (await call(who, API_PATHS.participantList)).json().data as SavedParticipant[];
const save = (who: Account, body: Record<string, unknown>) => call(who, API_PATHS.participantSave, body);
const remove = (who: Account, id: number) => call(who, API_PATHS.participantDelete, { id });

beforeAll(async () => {
  app = await buildTestApp({ dataDir, env: { RATE_LIMITS: 'off' }, now: clock.now });
  passwordHash = await hashPassword('Secret123');
  const race: RaceInfo = { ...(await app.repos.races.findById(RACE))!, ...OPEN, entry: ENTRY };
  await app.repos.races.save(race, clock.now());
  expect(await app.repos.entries.syncPlaces(RACE, ENTRY)).toEqual({ ok: true });
  await publishRegistrationForm({
    repos: app.repos,
    raceId: RACE,
    channel: 'public',
    bytes: Buffer.from(JSON.stringify(FORM)),
    now: clock.now(),
  });
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

describe('saved participants', () => {
  it('needs a login for every call', async () => {
    for (const [url, body] of [
      [API_PATHS.participantList, undefined],
      [API_PATHS.participantSave, person()],
      [API_PATHS.participantDelete, { id: 1 }],
    ] as const) {
      expect((await call(null, url, body)).json()).toMatchObject({ code: 401, msgCode: 'loginExpired' });
    }
  });

  it('creates, lists masked with age and adult, updates and deletes', async () => {
    const me = await account();
    expect(await list(me)).toEqual([]);
    const adult = person('1990-05-20');
    const created = (await save(me, adult)).json();
    expect(created.code).toBe(0);
    const answer = created.data as SavedParticipant;
    expect(answer).toMatchObject({
      name: adult.name,
      gender: 2,
      certificateType: 1,
      birthday: '1990-05-20',
      age: 35,
      adult: true,
      emergencyName: adult.emergencyName,
    });
    expect(answer.certificateNumber).toBe(
      `${adult.certificateNumber.slice(0, 4)}**********${adult.certificateNumber.slice(-4)}`,
    );
    expect(answer.phone).toBe(`${adult.phone.slice(0, 3)}****${adult.phone.slice(-4)}`);
    expect(answer.emergencyPhone).toBe(`${adult.emergencyPhone.slice(0, 3)}****${adult.emergencyPhone.slice(-4)}`);
    // The numbers are encrypted at rest: the plain number is nowhere in the row.
    const row = await app.db.get<Record<string, unknown>>(sql`SELECT * FROM participants WHERE id = ${answer.id}`);
    expect(JSON.stringify(row)).not.toContain(adult.certificateNumber);
    expect(JSON.stringify(row)).not.toContain(adult.phone);
    expect(row!.cert_hash).toBe(app.repos.raceCenter.certHash(adult.certificateNumber));

    const minor = person('2012-01-01', { certificateType: 2, certificateNumber: 'E12345678' });
    const second = (await save(me, minor)).json().data as SavedParticipant;
    expect(second).toMatchObject({ age: 13, adult: false, certificateNumber: 'E1*****78' });
    expect((await list(me)).map((p) => p.id)).toEqual([answer.id, second.id]);

    // An update sending the masked numbers back keeps the stored ones.
    const renamed = (await save(me, { ...answer, name: '改名字' })).json();
    expect(renamed).toMatchObject({ code: 0, data: { id: answer.id, name: '改名字' } });
    const stored = await app.repos.participants.find(me.id, answer.id);
    expect(stored).toMatchObject({
      certNumber: adult.certificateNumber,
      phone: adult.phone,
      emergencyPhone: adult.emergencyPhone,
    });
    // A new number replaces the stored one.
    await save(me, { ...answer, phone: '13912345678' });
    expect((await app.repos.participants.find(me.id, answer.id))!.phone).toBe('13912345678');

    expect((await remove(me, second.id)).json()).toMatchObject({ code: 0, data: null });
    expect((await list(me)).map((p) => p.id)).toEqual([answer.id]);
    expect((await remove(me, second.id)).json()).toMatchObject({ code: 404, msgCode: 'participantMissing' });
  });

  it('keeps a name as on a passport: inner spaces kept (one each), ends trimmed', async () => {
    const me = await account();
    const answer = (
      await save(me, person('1990-05-20', { name: '  ZHANG   Wei ', emergencyName: 'John Smith' }))
    ).json();
    expect(answer).toMatchObject({ code: 0 });
    const saved = (await list(me)).find((p) => p.id === answer.data.id)!;
    expect(saved).toMatchObject({ name: 'ZHANG Wei', emergencyName: 'John Smith' });
  });

  it('refuses values against the §5 rules field by field', async () => {
    const me = await account();
    const refusals = async (changes: Record<string, unknown>) => {
      const body = (await save(me, { ...person(), ...changes })).json();
      expect(body.code).toBe(400);
      return body.data.fields as Record<string, { code: string }>;
    };
    expect(await refusals({ name: '' })).toMatchObject({ name: { code: 'nameRequired' } });
    expect(await refusals({ name: ' "" ' })).toMatchObject({ name: { code: 'nameInvalid' } });
    expect(await refusals({ gender: 3 })).toMatchObject({ gender: { code: 'badChoice' } });
    expect(await refusals({ certificateType: 9 })).toMatchObject({ certificateType: { code: 'badCertificateType' } });
    expect(await refusals({ certificateNumber: '110105199005200001' })).toMatchObject({
      certificateNumber: { code: 'idCardInvalid' },
    });
    expect(await refusals({ certificateType: 3, certificateNumber: 'X1234' })).toMatchObject({
      certificateNumber: { code: 'hkMacaoPermitInvalid' },
    });
    expect(await refusals({ phone: '12345' })).toMatchObject({ phone: { code: 'badPhone' } });
    expect(await refusals({ emergencyPhone: '' })).toMatchObject({ emergencyPhone: { code: 'phoneRequired' } });
    expect(await refusals({ birthday: '1990-02-30' })).toMatchObject({ birthday: { code: 'badDate' } });
    expect(await refusals({ birthday: '2099-01-01' })).toMatchObject({ birthday: { code: 'dateTooLate' } });
    const same = person();
    expect(await refusals({ ...same, emergencyName: same.name, emergencyPhone: same.phone })).toMatchObject({
      emergencyName: { code: 'emergencyNameSame' },
      emergencyPhone: { code: 'emergencyPhoneSame' },
    });
    // A masked number of a new participant is no number.
    expect(await refusals({ certificateNumber: '1101**********0011' })).toMatchObject({
      certificateNumber: { code: 'idCardInvalid' },
    });
    expect(await list(me)).toEqual([]);
  });

  it('refuses the same certificate twice in an account, not in two accounts', async () => {
    const me = await account();
    const other = await account();
    const first = person();
    const saved = (await save(me, first)).json().data as SavedParticipant;
    const twice = (await save(me, { ...person(), certificateNumber: first.certificateNumber.toLowerCase() })).json();
    expect(twice).toMatchObject({ code: 400, msgCode: 'participantDuplicate' });
    expect(twice.data.fields).toEqual({ certificateNumber: { code: 'participantDuplicate' } });
    // Another participant of the account may not take it by an update either.
    const second = (await save(me, person())).json().data as SavedParticipant;
    const taken = (await save(me, { ...second, certificateNumber: first.certificateNumber })).json();
    expect(taken).toMatchObject({ code: 400, msgCode: 'participantDuplicate' });
    // Updating the participant that holds it keeps it.
    expect((await save(me, { ...saved, certificateNumber: first.certificateNumber })).json().code).toBe(0);
    expect((await save(other, first)).json().code).toBe(0);
  });

  it(`keeps at most ${MAX_SAVED_PARTICIPANTS} participants per account`, async () => {
    const me = await account();
    for (let i = 0; i < MAX_SAVED_PARTICIPANTS; i += 1) expect((await save(me, person())).json().code).toBe(0);
    expect((await save(me, person())).json()).toMatchObject({
      code: 400,
      msgCode: 'participantLimit',
      msgParams: { max: MAX_SAVED_PARTICIPANTS },
    });
    const all = await list(me);
    expect(all).toHaveLength(MAX_SAVED_PARTICIPANTS);
    // An update is no new participant.
    expect((await save(me, { ...all[0]!, name: '仍可修改' })).json().code).toBe(0);
  });

  it("never reads, updates or deletes another account's participant", async () => {
    const owner = await account();
    const intruder = await account();
    const theirs = (await save(owner, person())).json().data as SavedParticipant;
    expect(await list(intruder)).toEqual([]);
    expect((await save(intruder, { ...person(), id: theirs.id })).json()).toMatchObject({
      code: 404,
      msgCode: 'participantMissing',
    });
    expect((await save(intruder, { ...person(), id: 999_999 })).json()).toMatchObject({ code: 404 });
    expect((await remove(intruder, theirs.id)).json()).toMatchObject({ code: 404, msgCode: 'participantMissing' });
    expect(await list(owner)).toEqual([theirs]);
  });
});

describe('sign-up with a saved participant', () => {
  const submit = async (who: Account, participants: Record<string, unknown>[]) =>
    app.inject({
      method: 'POST',
      url: API_PATHS.entrySubmit,
      headers: { token: who.token },
      payload: {
        raceId: RACE,
        itemCode: '10K',
        channel: 'public',
        participants,
        idempotencyKey: `participants-${++keySeq}-${Date.now()}`,
        captcha: await passedSlider(app),
      },
    });

  it('stores the full numbers of a participant picked and sent back masked', async () => {
    const me = await account();
    const full = person('1988-08-08');
    const saved = (await save(me, full)).json().data as SavedParticipant;
    const { id, age: _age, adult: _adult, updatedAt: _at, ...shown } = saved;
    const answer = await submit(me, [{ item: '10K', ...shown, savedParticipantId: id }]);
    expect(answer.json()).toMatchObject({ code: 0 });
    const [entry] = (answer.json().data as EntrySubmitAnswer).entries;
    const record = await app.repos.entries.findByNo(entry!.entryNo);
    expect(record).toMatchObject({
      name: full.name,
      certNumber: full.certificateNumber,
      phone: full.phone,
      certHash: app.repos.raceCenter.certHash(full.certificateNumber),
    });
    const values = await app.db.get<{ values_enc: string }>(
      sql`SELECT values_enc FROM entries WHERE entry_no = ${entry!.entryNo}`,
    );
    expect(values!.values_enc).not.toContain('savedParticipantId');
  });

  it('keeps what the runner typed over the masked answer, and refuses a masked number without the id', async () => {
    const me = await account();
    const saved = (await save(me, person('1991-01-01'))).json().data as SavedParticipant;
    const { id, age: _age, adult: _adult, updatedAt: _at, ...shown } = saved;
    const typed = await submit(me, [{ item: '10K', ...shown, phone: '13811112222', savedParticipantId: id }]);
    expect(typed.json().code).toBe(0);
    const entryNo = (typed.json().data as EntrySubmitAnswer).entries[0]!.entryNo;
    expect((await app.repos.entries.findByNo(entryNo))!.phone).toBe('13811112222');

    const other = (await save(me, person('1992-02-02'))).json().data as SavedParticipant;
    const { id: _id, age: _a, adult: _b, updatedAt: _c, ...masked } = other;
    const refused = (await submit(me, [{ item: '10K', ...masked }])).json();
    expect(refused.code).toBe(400);
    expect(refused.data.fields['0.certificateNumber']).toMatchObject({ code: 'idCardInvalid' });
  });

  it("refuses an unknown or another account's saved participant", async () => {
    const me = await account();
    const owner = await account();
    const theirs = (await save(owner, person('1993-03-03'))).json().data as SavedParticipant;
    const { id, age: _age, adult: _adult, updatedAt: _at, ...shown } = theirs;
    expect((await submit(me, [{ item: '10K', ...shown, savedParticipantId: id }])).json()).toMatchObject({
      code: 404,
      msgCode: 'participantMissing',
    });
    expect((await submit(me, [{ item: '10K', ...shown, savedParticipantId: 'x' }])).json()).toMatchObject({
      code: 404,
    });
  });
});
