/**
 * The personal centre's profile and password change (issue 14 §5; routes/user-center/profile.ts): every
 * refusal, the card set once and answered masked (encrypted in the database, never in a log line), the password
 * change that revokes every token, and the registration area /reg/ answering the SPA's index.html.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { sql } from '../src/db/engine.ts';
import { idCard } from '../src/db/seed-runners.ts';
import { hashPassword } from '../src/lib/password-hash.ts';
import { maskCertNo } from '../src/lib/race-center.ts';
import { enc, passwordLogin } from './account-helpers.ts';
import { buildTestApp, fakeClock, removeTempDirs, tempDir } from './helpers.ts';

const clock = fakeClock(Date.UTC(2026, 10, 20, 2, 0, 0));
const logLines: string[] = [];
const answers: string[] = [];
let app: FastifyInstance;
const CARD = idCard('11010519900307123');
const OTHER_CARD = idCard('32010219850505123');

function fakeDist() {
  const dir = tempDir('race-site-dist-');
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>race-site</title><div id="root"></div>');
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  return dir;
}

async function call(options: InjectOptions) {
  const res = await app.inject(options);
  answers.push(res.body);
  return res;
}
const getProfile = (token?: string) => call({ method: 'GET', url: API_PATHS.profile, headers: token ? { token } : {} });
const saveProfile = (payload: object, token?: string) =>
  call({ method: 'POST', url: API_PATHS.profile, payload, headers: token ? { token } : {} });
const changePassword = (payload: object, token?: string) =>
  call({ method: 'POST', url: API_PATHS.passwordChange, payload, headers: token ? { token } : {} });
const fieldCodes = (body: { data: { fields: Record<string, { code: string }> } }) =>
  Object.fromEntries(Object.entries(body.data.fields).map(([key, r]) => [key, r.code]));

async function newRunner(phone: string, password = 'Secret123') {
  await app.repos.users.create({ phone, passwordHash: await hashPassword(password) }, app.config.now());
  const login = await passwordLogin(app, phone, password);
  return login.json().data.token as string;
}

beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  app = await buildTestApp({
    env: { RATE_LIMITS: 'off' },
    now: clock.now,
    logger: 'info',
    logStream,
    staticDir: fakeDist(),
  });
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

describe('the registration area', () => {
  it('answers the SPA at /reg/ (the banner opens reg/#/my/my-index)', async () => {
    for (const url of ['/reg/', '/reg']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<div id="root">');
    }
  });
});

describe('profile', () => {
  it('answers 401 loginExpired without a valid token', async () => {
    for (const token of [undefined, 'not-a-token']) {
      expect((await getProfile(token)).json()).toMatchObject({ code: 401, msgCode: 'loginExpired' });
      expect((await saveProfile({ userName: '张三' }, token)).json()).toMatchObject({ code: 401 });
      const res = await changePassword({}, token);
      expect(res.json()).toMatchObject({ code: 401, msgCode: 'loginExpired' });
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('answers the userData shape of the login, with empty userInfo fields at first', async () => {
    const token = await newRunner('13900139101');
    const res = await getProfile(token);
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.json().data;
    expect(data.token).toBe(token);
    expect(data.accountInfo.accountPhone).toBe('139****9101');
    expect(data.userInfo).toMatchObject({ userName: '', cardNumber: '', cardType: '', userHeight: 0 });
  });

  it('saves the fields, checked with the contract rules, and answers them', async () => {
    const token = await newRunner('13900139102');
    const fields = {
      userName: '李四',
      userGender: 1,
      birthday: '1990-03-07',
      userEmail: 'Li.Si@Example.com',
      userHeight: 175,
      userWeight: 68,
      educationLevel: 'bachelor',
      graduateInstitution: '南京大学',
      major: '计算机科学',
      residentialProvinceCode: '320000',
      residentialCityCode: '320100',
      residentialDistrictCode: '320102',
      residentialAddress: '中山路 1 号',
    };
    const res = await saveProfile(fields, token);
    expect(res.json().code, res.body).toBe(0);
    expect(res.json().data.userInfo).toMatchObject({ ...fields, userEmail: 'li.si@example.com', userAge: 36 });
    expect((await getProfile(token)).json().data.userInfo).toMatchObject({ userName: '李四', userHeight: 175 });
    // The login answers the same userInfo.
    const login = await passwordLogin(app, '13900139102', 'Secret123');
    expect(login.json().data.userInfo).toMatchObject({ ...fields, userEmail: 'li.si@example.com' });
    // A partial save keeps the others; an empty value clears one.
    const again = await saveProfile({ major: '', userWeight: 0 }, token);
    expect(again.json().data.userInfo).toMatchObject({ userName: '李四', major: '', userWeight: 0, userHeight: 175 });
  });

  it('keeps a name as on a passport: inner spaces kept (one each), ends trimmed', async () => {
    const token = await newRunner('13900139199');
    const res = await saveProfile({ userName: '  ZHANG   Wei ' }, token);
    expect(res.json().code, res.body).toBe(0);
    expect((await getProfile(token)).json().data.userInfo).toMatchObject({ userName: 'ZHANG Wei' });
  });

  it('refuses every bad field with its rule, and unknown fields', async () => {
    const token = await newRunner('13900139103');
    const res = await saveProfile(
      {
        userName: '" "',
        userGender: 3,
        birthday: '2030-01-01',
        userEmail: 'not-an-email',
        userHeight: 300,
        userWeight: 10,
        educationLevel: 'kindergarten',
        graduateInstitution: 'x'.repeat(101),
        residentialProvinceCode: '320000',
        residentialCityCode: '330100',
        residentialDistrictCode: '320102',
        password: 'x',
        userId: 5,
      },
      token,
    );
    expect(res.json()).toMatchObject({ code: 400 });
    expect(fieldCodes(res.json())).toEqual({
      userName: 'nameInvalid',
      userGender: 'badChoice',
      birthday: 'dateTooLate',
      userEmail: 'badEmail',
      userHeight: 'numberTooLarge',
      userWeight: 'numberTooSmall',
      educationLevel: 'badChoice',
      graduateInstitution: 'textTooLong',
      residentialProvinceCode: 'regionUnknown',
      password: 'profileFieldUnknown',
      userId: 'profileFieldUnknown',
    });
    const more = await saveProfile(
      { userName: '', birthday: '1990-02-30', userHeight: 170.5, residentialProvinceCode: '320000' },
      token,
    );
    expect(fieldCodes(more.json())).toEqual({
      userName: 'nameRequired',
      birthday: 'badDate',
      userHeight: 'badNumber',
      residentialProvinceCode: 'regionIncomplete',
    });
    expect((await saveProfile([1, 2], token)).json()).toMatchObject({ code: 400, msgCode: 'badRequest' });
    // Nothing of a refused save was kept.
    expect((await getProfile(token)).json().data.userInfo.userName).toBe('');
  });

  it('sets the real-name card once: stored encrypted, answered masked, never changed', async () => {
    const token = await newRunner('13900139104');
    expect(fieldCodes((await saveProfile({ cardType: 1, cardNumber: '123' }, token)).json())).toEqual({
      cardNumber: 'idCardInvalid',
    });
    expect(fieldCodes((await saveProfile({ cardNumber: CARD }, token)).json())).toEqual({
      cardType: 'badCertificateType',
    });
    expect(fieldCodes((await saveProfile({ cardType: 9, cardNumber: CARD }, token)).json())).toEqual({
      cardType: 'badCertificateType',
    });
    expect(fieldCodes((await saveProfile({ cardType: 1 }, token)).json())).toEqual({
      cardNumber: 'certificateRequired',
    });

    const set = await saveProfile({ userName: '王五', cardType: 1, cardNumber: CARD.toLowerCase() }, token);
    expect(set.json().code, set.body).toBe(0);
    expect(set.json().data.userInfo).toMatchObject({ cardType: 1, cardNumber: maskCertNo(CARD), userName: '王五' });
    expect(set.body).not.toContain(CARD);

    // The same card again changes nothing; another one, or another type, is refused.
    expect((await saveProfile({ cardType: 1, cardNumber: CARD }, token)).json().code).toBe(0);
    expect(fieldCodes((await saveProfile({ cardType: 1, cardNumber: OTHER_CARD }, token)).json())).toEqual({
      cardNumber: 'cardLocked',
    });
    expect(fieldCodes((await saveProfile({ cardType: 2, cardNumber: 'E12345678' }, token)).json())).toEqual({
      cardNumber: 'cardLocked',
    });
    expect((await getProfile(token)).json().data.userInfo.cardNumber).toBe(maskCertNo(CARD));

    const rows = await app.repos.db.all<Record<string, unknown>>(sql`SELECT * FROM users`);
    expect(JSON.stringify(rows)).not.toContain(CARD);
    expect(rows.some((r) => typeof r.card_number_enc === 'string' && r.card_number_enc.startsWith('v1.'))).toBe(true);
  });
});

describe('password change', () => {
  it('refuses a missing or wrong current password and a new one against the rules', async () => {
    const token = await newRunner('13900139105');
    const body = (old: string, next: string, confirm = next) => ({
      oldPassword: enc(old),
      loginPassword: enc(next),
      confirmPassword: enc(confirm),
      encryptType: '1',
    });
    const cases: [object, string][] = [
      [{ ...body('Secret123', 'NewPass456'), oldPassword: '' }, 'oldPasswordRequired'],
      [{ ...body('Secret123', 'NewPass456'), encryptType: '0' }, 'oldPasswordRequired'],
      [{ ...body('Secret123', 'NewPass456'), oldPassword: 'Secret123' }, 'oldPasswordRequired'],
      [body('Secret123', 'short1'.slice(0, 5)), 'passwordRule'],
      [body('Secret123', 'onlyletters'), 'passwordRule'],
      [body('Secret123', 'NewPass456', 'NewPass457'), 'passwordsDiffer'],
      [body('Wrong1234', 'NewPass456'), 'oldPasswordWrong'],
      [body('Secret123', 'Secret123'), 'newPasswordSame'],
    ];
    for (const [payload, code] of cases) {
      expect((await changePassword(payload, token)).json(), code).toMatchObject({ code: 400, msgCode: code });
    }
    // Still logged in with the old password.
    expect((await getProfile(token)).json().code).toBe(0);
  });

  it('changes the password and revokes every token of the account', async () => {
    const phone = '13900139106';
    const first = await newRunner(phone);
    const second = (await passwordLogin(app, phone, 'Secret123')).json().data.token as string;
    const res = await changePassword(
      {
        oldPassword: enc('Secret123'),
        loginPassword: enc('NewPass456'),
        confirmPassword: enc('NewPass456'),
        encryptType: '1',
      },
      first,
    );
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    for (const token of [first, second]) {
      expect((await getProfile(token)).json()).toMatchObject({ code: 401, msgCode: 'loginExpired' });
    }
    expect((await passwordLogin(app, phone, 'Secret123')).json().code).not.toBe(0);
    const login = await passwordLogin(app, phone, 'NewPass456');
    expect(login.json().code).toBe(0);
    expect((await getProfile(login.json().data.token)).json().code).toBe(0);
  });
});

describe('personal numbers', () => {
  it('never show the whole card number in an answer or a log line', () => {
    for (const number of [CARD, CARD.toLowerCase(), OTHER_CARD]) {
      expect(answers.filter((a) => a.includes(number))).toEqual([]);
      expect(logLines.filter((l) => l.includes(number))).toEqual([]);
    }
    expect(logLines.some((l) => l.includes('profile saved'))).toBe(true);
  });
});
