import type { FastifyInstance } from 'fastify';
import { sql } from '../src/db/engine.ts';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { maskEmail, maskPersonalData, maskPhone } from '../src/lib/accounts.ts';
import { hashPassword, SCRYPT_MARKER, verifyPassword } from '../src/lib/password-hash.ts';
import { LOCKOUT, lockoutMs } from '../src/services/accounts/accounts.ts';
import {
  challenge,
  codeLogin,
  commonInfo,
  DEMO,
  emailLogin,
  enc,
  freshIp,
  humanTrail,
  latestCode,
  login,
  outbox,
  passwordLogin,
  sendCode,
  sliderFields,
  verifySlider,
  type CodeKind,
} from './account-helpers.ts';
import { buildTestApp, fakeClock, ON_POSTGRES, removeTempDirs, tempDir } from './helpers.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});
afterAll(removeTempDirs);

async function fresh(env: Record<string, string> = {}) {
  const clock = fakeClock();
  const app = await buildTestApp({ now: clock.now, env: { RATE_LIMITS: 'off', NODE_ENV: 'test', ...env } });
  apps.push(app);
  return { app, clock };
}

let phoneCounter = 0;
const newPhone = () => `139${String(10_000_000 + ++phoneCounter).slice(-8)}`;

async function addUser(app: FastifyInstance, user: { phone?: string; email?: string; password: string }) {
  return await app.repos.users.create(
    { phone: user.phone, email: user.email, passwordHash: await hashPassword(user.password) },
    app.config.now(),
  );
}

const BAD_CREDENTIALS = { code: 400, msg: 'Account or password is incorrect', data: null, msgCode: 'badCredentials' };
const CODE_ERROR = { code: 400, msg: 'Verification code error, please re-enter', data: null, msgCode: 'codeError' };

describe('login by password (types 0 and 5)', () => {
  it('logs the demo account in by phone and by email, with masked user data and a working token', async () => {
    const { app } = await fresh();
    for (const res of [
      await passwordLogin(app, DEMO.phone, DEMO.password),
      await emailLogin(app, 'Runner@Example.com', DEMO.password),
    ]) {
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.code, res.body).toBe(0);
      const data = body.data;
      expect(data.token).toMatch(/^[\w-]{43}$/);
      expect(data.userInfo.userPhone).toBe('138****8000');
      expect(data.userInfo.userEmail).toBe('r***r@example.com');
      expect(data.accountInfo.accountPhone).toBe('138****8000');
      expect(data.username).toBe('138****8000');
      expect(data.authorities).toEqual([]);
      expect(data.password).toBe('');
      expect(data.osId).toBe(1002);
      expect(res.body).not.toContain(DEMO.phone);
      expect(res.body).not.toContain(DEMO.email);
      expect(res.body).not.toContain(DEMO.password);
      expect((await commonInfo(app, data.token)).json().code).toBe(0);
    }
    const login0 = (await passwordLogin(app, DEMO.phone, DEMO.password)).json().data;
    expect([login0.loginIdentityType, login0.accountInfo.loginType]).toEqual([0, 0]);
  });

  it('stores the demo password only as a scrypt hash', async () => {
    const { app } = await fresh();
    const row = (await app.db.get<{ password_hash: string }>(
      sql`SELECT password_hash FROM users WHERE phone = ${DEMO.phone}`,
    ))!;
    expect(row.password_hash.startsWith(SCRYPT_MARKER)).toBe(true);
    expect(row.password_hash).not.toContain(DEMO.password);
    expect(await verifyPassword(DEMO.password, row.password_hash)).toBe(true);
    expect(await verifyPassword('Runner2028', row.password_hash)).toBe(false);
  });

  it('answers the same message for a wrong password, a missing account and a bad ciphertext', async () => {
    const { app } = await fresh();
    expect((await passwordLogin(app, DEMO.phone, 'Wrong2027')).json()).toEqual(BAD_CREDENTIALS);
    expect((await passwordLogin(app, '13912345678', DEMO.password)).json()).toEqual(BAD_CREDENTIALS);
    expect((await emailLogin(app, 'nobody@example.com', DEMO.password)).json()).toEqual(BAD_CREDENTIALS);
    const garbage = await login(app, { loginType: '0', phone: DEMO.phone, password: 'not-a-cipher', encryptType: '1' });
    expect(garbage.json()).toEqual(BAD_CREDENTIALS);
    // A clear-text password (no encryptType '1') is never accepted.
    const plain = await login(app, { loginType: '0', phone: DEMO.phone, password: DEMO.password });
    expect(plain.json()).toEqual(BAD_CREDENTIALS);
  });

  it('accepts a JSON body as well as the form', async () => {
    const { app } = await fresh();
    const res = await app.inject({
      method: 'POST',
      url: API_PATHS.login,
      payload: { loginType: 5, accountEmail: DEMO.email, password: enc(DEMO.password), encryptType: '1', osId: 1002 },
    });
    expect(res.json().code).toBe(0);
  });

  it('answers bad input in the envelope, never a 500', async () => {
    const { app } = await fresh();
    const cases: [string, string | object][] = [
      ['application/json', '{"loginType":'],
      ['application/json', { loginType: { a: 1 } }],
      ['application/json', ''],
      ['application/x-www-form-urlencoded', 'loginType=7'],
      ['application/x-www-form-urlencoded', 'loginType=5&accountEmail=nope'],
      ['application/x-www-form-urlencoded', 'loginType=0'],
      ['application/x-www-form-urlencoded', 'loginType=0&phone=13800138000&osId=9'],
    ];
    for (const [type, payload] of cases) {
      const res = await app.inject({
        method: 'POST',
        url: API_PATHS.login,
        headers: { 'content-type': type },
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBeLessThan(500);
      const body = res.json();
      expect(body.code).not.toBe(0);
      expect(typeof body.msg).toBe('string');
    }
    const email = await login(app, { loginType: '5', accountEmail: 'nope', password: 'x', encryptType: '1' });
    expect(email.json().msg).toBe('Please enter a valid email address');
    expect((await login(app, { loginType: '0' })).json().msg).toBe('Please enter phone number');
  });
});

describe('login lockout', () => {
  it('locks after 5 failures for 1 minute, doubles, and gives the same message while locked', async () => {
    const { app, clock } = await fresh();
    const phone = newPhone();
    await addUser(app, { phone, password: 'Secret123' });
    for (let i = 0; i < 4; i += 1)
      expect((await passwordLogin(app, phone, 'Wrong123')).json()).toEqual(BAD_CREDENTIALS);
    expect((await passwordLogin(app, phone, 'Secret123')).json().code).toBe(0); // 4 failures: not locked, reset

    for (let i = 0; i < 5; i += 1)
      expect((await passwordLogin(app, phone, 'Wrong123')).json()).toEqual(BAD_CREDENTIALS);
    // Locked: even the right password gets the generic message.
    expect((await passwordLogin(app, phone, 'Secret123')).json()).toEqual(BAD_CREDENTIALS);
    clock.advance(MINUTE - 1);
    expect((await passwordLogin(app, phone, 'Secret123')).json()).toEqual(BAD_CREDENTIALS);
    clock.advance(1);
    // 6th failure: 2 minutes.
    expect((await passwordLogin(app, phone, 'Wrong123')).json()).toEqual(BAD_CREDENTIALS);
    clock.advance(2 * MINUTE - 1);
    expect((await passwordLogin(app, phone, 'Secret123')).json()).toEqual(BAD_CREDENTIALS);
    clock.advance(1);
    expect((await passwordLogin(app, phone, 'Secret123')).json().code).toBe(0);
    // Success clears the counter: one failure does not lock.
    expect((await passwordLogin(app, phone, 'Wrong123')).json()).toEqual(BAD_CREDENTIALS);
    expect((await passwordLogin(app, phone, 'Secret123')).json().code).toBe(0);
  });

  it('counts parallel wrong guesses, all of them', async () => {
    const { app } = await fresh();
    const phone = newPhone();
    const id = await addUser(app, { phone, password: 'Secret123' });
    // As many guesses at once as lock nothing (scrypt checks them in parallel): none is lost to another's
    // update. (More would race the lock: on a busy machine a late guess finds the account locked by the
    // first five and is refused uncounted, as it should be.)
    const free = LOCKOUT.freeFailures;
    const answers = await Promise.all(Array.from({ length: free }, (_, i) => passwordLogin(app, phone, `Wrong12${i}`)));
    expect(answers.map((r) => r.json())).toEqual(Array(free).fill(BAD_CREDENTIALS));
    expect((await app.repos.users.findById(id))?.failedLogins).toBe(free);
    // One more locks the account: the right password is refused with the same message.
    expect((await passwordLogin(app, phone, 'Wrong129')).json()).toEqual(BAD_CREDENTIALS);
    expect((await passwordLogin(app, phone, 'Secret123')).json()).toEqual(BAD_CREDENTIALS);
  });

  it('doubles up to one hour at most', async () => {
    expect([4, 5, 6, 7, 10, 11, 12, 50].map(lockoutMs)).toEqual([
      0,
      MINUTE,
      2 * MINUTE,
      4 * MINUTE,
      32 * MINUTE,
      HOUR,
      HOUR,
      HOUR,
    ]);
  });
});

describe('tokens', () => {
  it('revokes the token on logout', async () => {
    const { app } = await fresh();
    const { token } = (await passwordLogin(app, DEMO.phone, DEMO.password)).json().data;
    const other = (await passwordLogin(app, DEMO.phone, DEMO.password)).json().data.token;
    const out = await app.inject({ method: 'POST', url: API_PATHS.logout, headers: { token } });
    expect(out.json()).toEqual({ code: 0, msg: 'success', data: true });
    expect((await commonInfo(app, token)).json().code).toBe(401);
    expect((await commonInfo(app, other)).json().code).toBe(0);
    const again = await app.inject({ method: 'POST', url: API_PATHS.logout, headers: { token } });
    expect(again.json()).toEqual({
      code: 401,
      msg: 'Your login has expired, please log in again',
      data: null,
      msgCode: 'loginExpired',
    });
    expect((await app.inject({ method: 'POST', url: API_PATHS.logout })).json().code).toBe(401);
  });

  it('expires tokens after 7 days', async () => {
    const { app, clock } = await fresh();
    const { token } = (await passwordLogin(app, DEMO.phone, DEMO.password)).json().data;
    clock.advance(7 * DAY - 1);
    expect((await commonInfo(app, token)).json().code).toBe(0);
    clock.advance(1);
    expect((await commonInfo(app, token)).json().code).toBe(401);
  });
});

describe('slider check', () => {
  it('issues a challenge with a random target on a 300 px track', async () => {
    const { app } = await fresh();
    const c = await challenge(app);
    expect(c).toMatchObject({ scene: 'message_h5', trackWidth: 300, tolerance: 6 });
    expect(c.targetX).toBeGreaterThanOrEqual(0);
    expect(c.targetX).toBeLessThanOrEqual(260);
    expect(c.sessionId).toMatch(/^[\w-]{20,}$/);
  });

  it('passes within the tolerance and fails just outside it', async () => {
    const { app } = await fresh();
    const inside = await challenge(app);
    const x = inside.targetX >= 6 ? inside.targetX - 6 : inside.targetX + 6;
    const ok = await verifySlider(app, { sessionId: inside.sessionId, x, trail: humanTrail(x) });
    expect(ok.json().code).toBe(0);
    expect(ok.json().data).toEqual({
      token: expect.any(String),
      sig: expect.any(String),
      sessionId: inside.sessionId,
      scene: 'message_h5',
    });
    const outside = await challenge(app);
    const far = outside.targetX >= 7 ? outside.targetX - 7 : outside.targetX + 7;
    const bad = await verifySlider(app, { sessionId: outside.sessionId, x: far, trail: humanTrail(far) });
    expect(bad.json()).toEqual({ code: 400, msg: 'Verification failed', data: null, msgCode: 'verificationFailed' });
  });

  it('takes one answer per challenge', async () => {
    const { app } = await fresh();
    const c = await challenge(app);
    const wrong = c.targetX > 100 ? 0 : 250;
    expect((await verifySlider(app, { sessionId: c.sessionId, x: wrong, trail: humanTrail(wrong) })).json().code).toBe(
      400,
    );
    const right = await verifySlider(app, { sessionId: c.sessionId, x: c.targetX, trail: humanTrail(c.targetX) });
    expect(right.json().msg).toBe('Verification failed');
  });

  it('refuses a drag under 200 ms, fewer than 5 points, an old challenge or an unknown session', async () => {
    const { app, clock } = await fresh();
    const fast = await challenge(app);
    const fastTrail = humanTrail(fast.targetX).map(([t, x]) => [t / 2, x]);
    expect(
      (await verifySlider(app, { sessionId: fast.sessionId, x: fast.targetX, trail: fastTrail })).json().code,
    ).toBe(400);
    const short = await challenge(app);
    const shortTrail = humanTrail(short.targetX).slice(1);
    expect(
      (await verifySlider(app, { sessionId: short.sessionId, x: short.targetX, trail: shortTrail })).json().code,
    ).toBe(400);
    const old = await challenge(app);
    clock.advance(2 * MINUTE);
    expect(
      (await verifySlider(app, { sessionId: old.sessionId, x: old.targetX, trail: humanTrail(old.targetX) })).json()
        .code,
    ).toBe(400);
    expect((await verifySlider(app, { sessionId: 'nope', x: 1, trail: humanTrail(1) })).json().code).toBe(400);
    const malformed = await verifySlider(app, { sessionId: 'nope', x: 'a', trail: 'b' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe(400);
  });

  it('lets a passed check send one code only', async () => {
    const { app } = await fresh();
    const slider = await sliderFields(app);
    const body = { captchaType: '2', userPhone: DEMO.phone, ...slider };
    const first = await app.inject({ method: 'POST', url: API_PATHS.sendPhoneCode, payload: body });
    expect(first.json().code).toBe(0);
    const second = await app.inject({
      method: 'POST',
      url: API_PATHS.sendResetPhoneCode,
      payload: { ...body, captchaType: '3' },
    });
    expect(second.json()).toEqual({ code: 400, msg: 'Verification failed', data: null, msgCode: 'verificationFailed' });
  });

  it('refuses to send a code without the slider fields or with forged ones', async () => {
    const { app } = await fresh();
    const none = await app.inject({
      method: 'POST',
      url: API_PATHS.sendPhoneCode,
      payload: { captchaType: '2', userPhone: DEMO.phone },
    });
    expect(none.json()).toEqual({
      code: 400,
      msg: 'Please slide the slider to verify first',
      data: null,
      msgCode: 'slideFirst',
    });
    const slider = await sliderFields(app);
    const forged = await app.inject({
      method: 'POST',
      url: API_PATHS.sendPhoneCode,
      payload: { captchaType: '2', userPhone: DEMO.phone, ...slider, sig: 'forged' },
    });
    expect(forged.json().msg).toBe('Verification failed');
    expect(await outbox(app)).toEqual([]);
  });
});

describe('verification codes', () => {
  it('logs in with a phone code once; the code never appears in the answer', async () => {
    const { app } = await fresh();
    const sent = await sendCode(app, 'login', DEMO.phone);
    expect(sent.json()).toEqual({ code: 0, msg: 'success', data: { verificationToken: expect.any(String) } });
    const code = await latestCode(app, DEMO.phone);
    expect(sent.body).not.toContain(code);
    const res = await codeLogin(app, DEMO.phone, code);
    expect(res.json().code).toBe(0);
    expect(res.json().data.loginIdentityType).toBe(1);
    expect(res.json().data.userInfo.userPhone).toBe('138****8000');
    expect((await codeLogin(app, DEMO.phone, code)).json()).toEqual(CODE_ERROR);
  });

  it('stores a code only as a keyed hash: the database alone does not give it away', async () => {
    const { app } = await fresh();
    await sendCode(app, 'login', DEMO.phone);
    const code = await latestCode(app, DEMO.phone);
    const row = await app.db.get<{ code_hash: string }>(
      sql`SELECT code_hash FROM verification_codes WHERE destination = ${DEMO.phone}`,
    );
    const plainHash = createHash('sha256').update(`${DEMO.phone}:${code}`).digest('hex');
    expect(row?.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.code_hash).not.toBe(plainHash);
    // The key is kept in the data folder on SQLite, in the database (server_secrets) on PostgreSQL.
    const key = ON_POSTGRES
      ? (await app.db.get<{ value: string }>(sql`SELECT value FROM server_secrets WHERE name = 'code-secret'`))?.value
      : readFileSync(path.join(app.config.dataDir, 'code-secret'), 'utf8').trim();
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(app.secrets.code).toBe(key);
    expect(row?.code_hash).toBe(createHmac('sha256', key!).update(`${DEMO.phone}:${code}`).digest('hex'));
  });

  it('answers an unknown phone like a known one, at send and at login, and sends it nothing', async () => {
    const { app } = await fresh();
    const phone = newPhone();
    const sent = await sendCode(app, 'login', phone);
    expect(sent.json()).toEqual({ code: 0, msg: 'success', data: { verificationToken: expect.any(String) } });
    expect(await outbox(app)).toEqual([]);
    expect((await codeLogin(app, phone, '123456')).json()).toEqual(CODE_ERROR);
  });

  it('validates the phone number', async () => {
    const { app } = await fresh();
    for (const phone of ['12800138000', '1380013800', 'abcdefghijk']) {
      expect((await sendCode(app, 'login', phone)).json().msg).toBe('Please enter a correct phone number');
    }
  });

  it('expires a code after 10 minutes', async () => {
    const { app, clock } = await fresh();
    await sendCode(app, 'login', DEMO.phone);
    const code = await latestCode(app, DEMO.phone);
    clock.advance(10 * MINUTE);
    expect((await codeLogin(app, DEMO.phone, code)).json()).toEqual(CODE_ERROR);
  });

  it('accepts a code just before it expires', async () => {
    const { app, clock } = await fresh();
    await sendCode(app, 'login', DEMO.phone);
    const code = await latestCode(app, DEMO.phone);
    clock.advance(10 * MINUTE - 1);
    expect((await codeLogin(app, DEMO.phone, code)).json().code).toBe(0);
  });

  it('kills a code after 5 wrong tries', async () => {
    const { app } = await fresh();
    await sendCode(app, 'login', DEMO.phone);
    const code = await latestCode(app, DEMO.phone);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) expect((await codeLogin(app, DEMO.phone, wrong)).json()).toEqual(CODE_ERROR);
    expect((await codeLogin(app, DEMO.phone, code)).json()).toEqual(CODE_ERROR);
  });

  it('still accepts the right code after 4 wrong tries', async () => {
    const { app } = await fresh();
    await sendCode(app, 'login', DEMO.phone);
    const code = await latestCode(app, DEMO.phone);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i += 1) await codeLogin(app, DEMO.phone, wrong);
    expect((await codeLogin(app, DEMO.phone, code)).json().code).toBe(0);
  });

  it('refuses a resend within 60 s with Retry-After, then replaces the old code', async () => {
    const { app, clock } = await fresh();
    await sendCode(app, 'login', DEMO.phone);
    const first = await latestCode(app, DEMO.phone);
    clock.advance(45_000);
    const early = await sendCode(app, 'login', DEMO.phone);
    expect(early.statusCode).toBe(429);
    expect(early.headers['retry-after']).toBe('15');
    expect(early.json()).toEqual({
      code: 429,
      msg: 'Please wait 15 seconds before requesting a new code',
      data: null,
      msgCode: 'codeResendWait',
      msgParams: { seconds: 15 },
    });
    clock.advance(15_000);
    expect((await sendCode(app, 'login', DEMO.phone)).json().code).toBe(0);
    const second = await latestCode(app, DEMO.phone);
    if (first !== second) expect((await codeLogin(app, DEMO.phone, first)).json()).toEqual(CODE_ERROR);
    expect((await codeLogin(app, DEMO.phone, second)).json().code).toBe(0);
  });

  it('sends at most 5 codes an hour to one destination', async () => {
    const { app, clock } = await fresh();
    for (let i = 0; i < 5; i += 1) {
      expect((await sendCode(app, 'login', DEMO.phone, {}, freshIp())).json().code).toBe(0);
      clock.advance(MINUTE);
    }
    const capped = await sendCode(app, 'login', DEMO.phone, {}, freshIp());
    expect(capped.statusCode).toBe(429);
    expect(capped.json()).toMatchObject({
      msg: 'Too many requests, please try again in 3300 seconds',
      msgCode: 'tooManyRequestsWait',
      msgParams: { seconds: 3300 },
    });
    expect(Number(capped.headers['retry-after'])).toBe(55 * 60);
    clock.advance(55 * MINUTE);
    expect((await sendCode(app, 'login', DEMO.phone, {}, freshIp())).json().code).toBe(0);
  });

  it('sends at most 20 codes an hour from one IP', async () => {
    const { app } = await fresh();
    const ip = freshIp();
    const phones = Array.from({ length: 21 }, () => newPhone());
    for (const phone of phones) await addUser(app, { phone, password: 'Secret123' });
    for (const phone of phones.slice(0, 20)) expect((await sendCode(app, 'login', phone, {}, ip)).json().code).toBe(0);
    const capped = await sendCode(app, 'login', phones[20] as string, {}, ip);
    expect(capped.statusCode).toBe(429);
    expect(capped.headers['retry-after']).toBe('3600');
    expect((await sendCode(app, 'login', phones[20] as string, {}, freshIp())).json().code).toBe(0);
  });

  it('binds a code to its purpose and destination', async () => {
    const { app } = await fresh();
    const other = newPhone();
    await addUser(app, { phone: other, password: 'Secret123' });
    await sendCode(app, 'login', other);
    const otherCode = await latestCode(app, other);
    await sendCode(app, 'login', DEMO.phone);
    const loginCode = await latestCode(app, DEMO.phone);
    // Another destination: refused (unless both codes happen to be equal, one chance in a million).
    if (otherCode !== loginCode) expect((await codeLogin(app, other, loginCode)).json()).toEqual(CODE_ERROR);
    // Another purpose: a login code does not reset the password.
    const reset = await app.inject({
      method: 'POST',
      url: API_PATHS.resetByPhone,
      payload: {
        phone: DEMO.phone,
        loginPassword: enc('Newpass123'),
        confirmPassword: enc('Newpass123'),
        encryptType: '1',
        enterprise: 0,
        verificationToken: 'x',
        captcha: loginCode,
      },
    });
    expect(reset.json()).toEqual(CODE_ERROR);
    // The login code is still good for its own purpose and destination.
    expect((await codeLogin(app, DEMO.phone, loginCode)).json().code).toBe(0);
    expect((await codeLogin(app, other, otherCode)).json().code).toBe(0);
  });

  it('sends an email code with an empty captchaCode and a verificationToken', async () => {
    const { app } = await fresh();
    const res = await sendCode(app, 'email', 'New.Runner@Example.com');
    expect(res.json()).toEqual({
      code: 0,
      msg: 'success',
      data: { captchaCode: '', verificationToken: expect.any(String) },
    });
    const [item] = await outbox(app);
    expect(item).toMatchObject({ destination: 'new.runner@example.com', channel: 'email' });
    expect(item?.subject).toContain('registration');
    expect(res.body).not.toContain(await latestCode(app, 'new.runner@example.com'));
  });

  it('sends a registered email a notice instead of a registration code, and an unknown one no reset code', async () => {
    const { app } = await fresh();
    const taken = await sendCode(app, 'email', DEMO.email);
    expect(taken.json()).toEqual({
      code: 0,
      msg: 'success',
      data: { captchaCode: '', verificationToken: expect.any(String) },
    });
    const [notice] = await outbox(app);
    expect(notice).toMatchObject({
      destination: DEMO.email,
      subject: '此邮箱已注册账号 Your email already has an account',
    });
    expect(notice?.body).not.toMatch(/\d{6}/);
    expect((await sendCode(app, 'email', 'ghost@example.com', { emailSendType: '2' })).json().code).toBe(0);
    expect((await outbox(app)).filter((item) => item.destination === 'ghost@example.com')).toEqual([]);
    expect((await sendCode(app, 'email', DEMO.email, { emailSendType: '2' })).json().code).toBe(0);
    expect((await outbox(app))[0]?.subject).toContain('reset');
  });

  it('sends every code message and its subject in Chinese and in English', async () => {
    const { app, clock } = await fresh();
    await sendCode(app, 'login', DEMO.phone);
    clock.advance(61_000);
    await sendCode(app, 'email', 'new.runner@example.com');
    clock.advance(61_000);
    await sendCode(app, 'reset-phone', DEMO.phone);
    clock.advance(61_000);
    await sendCode(app, 'email', DEMO.email);
    const items = (await outbox(app)).map(({ channel, subject, body }) => ({ channel, subject, body }));
    expect(items).toEqual([
      {
        channel: 'email',
        subject: '此邮箱已注册账号 Your email already has an account',
        body: expect.stringMatching(/^有人尝试用此邮箱注册.*Someone asked to register/),
      },
      {
        channel: 'sms',
        subject: '找回密码验证码 Your password reset verification code',
        body: expect.stringMatching(
          /^找回密码验证码 \d{6}，10 分钟内有效。Your password reset verification code is \d{6}\./,
        ),
      },
      {
        channel: 'email',
        subject: '注册验证码 Your registration verification code',
        body: expect.stringMatching(/^注册验证码 \d{6}，10 分钟内有效。Your registration verification code is \d{6}\./),
      },
      {
        channel: 'sms',
        subject: '登录验证码 Your login verification code',
        body: expect.stringMatching(/^登录验证码 \d{6}，10 分钟内有效。Your login verification code is \d{6}\./),
      },
    ]);
  });

  it('checks the captchaType of each send call', async () => {
    const { app } = await fresh();
    expect((await sendCode(app, 'login', DEMO.phone, { captchaType: '3' })).json().code).toBe(400);
    expect(await outbox(app)).toEqual([]);
  });
});

describe('outbox', () => {
  it('lists the latest messages newest first as JSON and as an HTML page', async () => {
    const { app, clock } = await fresh();
    await sendCode(app, 'login', DEMO.phone);
    clock.advance(1000);
    await sendCode(app, 'email', 'first@example.com');
    const items = await outbox(app);
    expect(items.map((m) => [m.channel, m.destination])).toEqual([
      ['email', 'first@example.com'],
      ['sms', DEMO.phone],
    ]);
    expect(items[0]?.body).toMatch(/\b\d{6}\b/);
    expect(items[0]?.createdAt).toBe(clock.now());
    const page = await app.inject({ method: 'GET', url: API_PATHS.devOutbox });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('first@example.com');
  });

  it('is not served in production unless DEV_OUTBOX=1', async () => {
    const { app } = await fresh({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' });
    expect((await app.inject({ method: 'GET', url: `${API_PATHS.devOutbox}?format=json` })).statusCode).toBe(404);
    const { app: forced } = await fresh({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox', DEV_OUTBOX: '1' });
    expect((await forced.inject({ method: 'GET', url: `${API_PATHS.devOutbox}?format=json` })).json().code).toBe(0);
  });

  it('prints each code with the destination masked', async () => {
    const lines: string[] = [];
    const clock = fakeClock();
    const app = await buildTestApp({
      now: clock.now,
      env: { RATE_LIMITS: 'off' },
      printOutbox: (line) => lines.push(line),
    });
    apps.push(app);
    await sendCode(app, 'login', DEMO.phone);
    await sendCode(app, 'email', 'printed@example.com');
    const smsCode = await latestCode(app, DEMO.phone);
    const emailCode = await latestCode(app, 'printed@example.com');
    expect(lines).toEqual([
      `[outbox] sms to 138****8000 (login): code ${smsCode}`,
      `[outbox] email to p***d@example.com (register): code ${emailCode}`,
    ]);
  });
});

describe('account enumeration (issue 27)', () => {
  /** An answer with its one random part (the verificationToken) reduced to its type. */
  const shape = (res: { statusCode: number; json(): { data: unknown } }) => {
    const body = res.json();
    const data = body.data as Record<string, unknown> | null;
    return [
      res.statusCode,
      {
        ...body,
        data: data && typeof data === 'object' ? { ...data, verificationToken: typeof data.verificationToken } : data,
      },
    ];
  };

  it('answers every code send alike for a known and an unknown account, the resend wait too', async () => {
    const { app } = await fresh();
    const pairs: [CodeKind, string, string, Record<string, string>][] = [
      ['login', DEMO.phone, newPhone(), {}],
      ['reset-phone', DEMO.phone, newPhone(), {}],
      ['email', DEMO.email, 'nobody@example.com', { emailSendType: '2' }],
      // Registration: the taken address is the one "known".
      ['email', DEMO.email, 'free@example.com', { emailSendType: '1' }],
    ];
    for (const [kind, known, unknown, extra] of pairs) {
      const [a, b] = [await sendCode(app, kind, known, extra), await sendCode(app, kind, unknown, extra)];
      expect(shape(a), `${kind} ${JSON.stringify(extra)}`).toEqual(shape(b));
      expect(a.json().code).toBe(0);
      const [a2, b2] = [await sendCode(app, kind, known, extra), await sendCode(app, kind, unknown, extra)];
      expect(shape(a2)).toEqual(shape(b2));
      expect(a2.statusCode).toBe(429);
    }
  });

  it('answers code login, both resets and registration alike for a known and an unknown account', async () => {
    const { app } = await fresh();
    const ghostPhone = newPhone();
    const pw = { encryptType: '1', loginPassword: enc('Changed2028'), confirmPassword: enc('Changed2028') };
    const tokenOf = async (kind: CodeKind, to: string, extra: Record<string, string> = {}) =>
      (await sendCode(app, kind, to, extra)).json().data.verificationToken as string;
    const notTheCode = async (to: string) =>
      (await latestCode(app, to).catch(() => '0')) === '000000' ? '111111' : '000000';

    // Code login: the code is checked first, whatever the phone.
    await tokenOf('login', DEMO.phone);
    await tokenOf('login', ghostPhone);
    const guess = await notTheCode(DEMO.phone);
    expect(shape(await codeLogin(app, DEMO.phone, guess))).toEqual(shape(await codeLogin(app, ghostPhone, guess)));
    expect((await codeLogin(app, ghostPhone, guess)).json()).toEqual(CODE_ERROR);

    const resetPhone = async (phone: string) => {
      const verificationToken = await tokenOf('reset-phone', phone);
      const captcha = await notTheCode(phone);
      return app.inject({
        method: 'POST',
        url: API_PATHS.resetByPhone,
        payload: { phone, enterprise: 0, captcha, verificationToken, ...pw },
      });
    };
    const [knownReset, ghostReset] = [await resetPhone(DEMO.phone), await resetPhone(ghostPhone)];
    expect(shape(knownReset)).toEqual(shape(ghostReset));
    expect(ghostReset.json()).toEqual(CODE_ERROR);

    const resetEmail = async (accountEmail: string) => {
      const verificationToken = await tokenOf('email', accountEmail, { emailSendType: '2' });
      const captcha = await notTheCode(accountEmail);
      return app.inject({
        method: 'POST',
        url: API_PATHS.resetByEmail,
        payload: { accountEmail, captcha, verificationToken, ...pw },
      });
    };
    const [knownEmail, ghostEmail] = [await resetEmail(DEMO.email), await resetEmail('ghost@example.com')];
    expect(shape(knownEmail)).toEqual(shape(ghostEmail));
    expect(ghostEmail.json()).toEqual(CODE_ERROR);

    const register = async (accountEmail: string) => {
      const verificationToken = await tokenOf('email', accountEmail, { emailSendType: '1' });
      const captcha = await notTheCode(accountEmail);
      return app.inject({
        method: 'POST',
        url: API_PATHS.register,
        payload: {
          accountEmail,
          captcha,
          verificationToken,
          encryptType: '1',
          machineCode: '',
          loginPassword: enc('Fresh2027'),
        },
      });
    };
    const [taken, free] = [await register(DEMO.email), await register('free2@example.com')];
    expect(shape(taken)).toEqual(shape(free));
    expect(taken.json()).toEqual(CODE_ERROR);
  });

  it('answers a send before the SMS provider has (the same time for an account and for none)', async () => {
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const sms: string[] = [];
    const app = await buildTestApp({
      now: fakeClock().now,
      env: { RATE_LIMITS: 'off' },
      smsSender: {
        send: async (_to, text) => {
          await gate;
          sms.push(text);
        },
      },
    });
    apps.push(app);
    expect((await sendCode(app, 'login', DEMO.phone)).json().code).toBe(0);
    expect(sms).toEqual([]);
    release();
    await app.delivery.idle();
    expect(sms).toHaveLength(1);
  });
});

describe('codes outside development', () => {
  it('never prints a code nor keeps it in the outbox table with NODE_ENV=production', async () => {
    const lines: string[] = [];
    const sms: string[] = [];
    const app = await buildTestApp({
      now: fakeClock().now,
      env: { RATE_LIMITS: 'off', NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' },
      printOutbox: (line) => lines.push(line),
      smsSender: { send: async (_to, text) => void sms.push(text) },
    });
    apps.push(app);
    expect((await sendCode(app, 'login', DEMO.phone)).json().code).toBe(0);
    await app.delivery.idle();
    const code = /\b(\d{6})\b/.exec(sms[0] ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(lines).toEqual(['[codes] sms to 138****8000 (login): code sent (shown only in development)']);
    const kept = await app.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM outbox`);
    expect(kept?.n).toBe(0);
    // The code the SMS carried logs the runner in.
    expect((await codeLogin(app, DEMO.phone, code as string)).json().code).toBe(0);
  });
});

describe('registration', () => {
  const register = (app: FastifyInstance, body: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: API_PATHS.register, payload: { encryptType: '1', machineCode: '', ...body } });

  const emailCheck = (app: FastifyInstance, email: string) =>
    app.inject({ method: 'GET', url: `${API_PATHS.emailRegistered}?email=${encodeURIComponent(email)}&osId=1002` });

  it('registers by email code, stores a scrypt hash only, and logs in', async () => {
    const { app } = await fresh();
    const email = 'new@example.com';
    expect((await emailCheck(app, email)).json()).toEqual({ code: 0, msg: 'success', data: false });
    const { verificationToken } = (await sendCode(app, 'email', email)).json().data;
    const captcha = await latestCode(app, email);
    const cipher = enc('Fresh2027');
    const res = await register(app, { accountEmail: email, captcha, loginPassword: cipher, verificationToken });
    expect(res.json()).toEqual({ code: 0, msg: 'success', data: true });
    expect((await emailCheck(app, 'NEW@example.com')).json().data).toBe(true);

    const row = (await app.db.get<{ password_hash: string }>(
      sql`SELECT password_hash FROM users WHERE email = ${email}`,
    ))!;
    expect(row.password_hash.startsWith(SCRYPT_MARKER)).toBe(true);
    expect(row.password_hash).not.toContain('Fresh2027');
    expect(row.password_hash).not.toContain(cipher);
    expect(row.password_hash).not.toBe(cipher);

    const loggedIn = await emailLogin(app, email, 'Fresh2027');
    expect(loggedIn.json().data.userInfo.userEmail).toBe('n***w@example.com');
  });

  it('refuses a taken email, a weak password, a wrong code and a wrong verificationToken', async () => {
    const { app } = await fresh();
    // A taken address answers like a wrong code (issue 27); only its owner's mailbox learns it is taken.
    expect(
      (await register(app, { accountEmail: DEMO.email, captcha: '123456', loginPassword: enc('Fresh2027') })).json(),
    ).toEqual(CODE_ERROR);
    const email = 'weak@example.com';
    const { verificationToken } = (await sendCode(app, 'email', email)).json().data;
    const captcha = await latestCode(app, email);
    for (const weak of ['abcdef', '123456', 'ab12', 'abc123456789012345678', 'abc 123']) {
      const res = await register(app, { accountEmail: email, captcha, loginPassword: enc(weak), verificationToken });
      expect(res.json().msg, weak).toBe('Please enter a 6-20 digit password combining digits and letters');
    }
    const wrongToken = await register(app, {
      accountEmail: email,
      captcha,
      loginPassword: enc('Fresh2027'),
      verificationToken: 'other',
    });
    expect(wrongToken.json()).toEqual(CODE_ERROR);
    const mismatch = await register(app, {
      accountEmail: email,
      captcha,
      loginPassword: enc('Fresh2027'),
      loginPasswordConfirm: enc('Fresh2028'),
    });
    expect(mismatch.json().msg).toBe('The two passwords do not match');
    expect((await register(app, { accountEmail: 'bad', captcha, loginPassword: enc('Fresh2027') })).json().msg).toBe(
      'Please enter a correct email address',
    );
    expect(
      (await register(app, { accountEmail: email, captcha, loginPassword: enc('Fresh2027'), verificationToken })).json()
        .code,
    ).toBe(0);
  });

  it('answers a bad email check in the envelope', async () => {
    const { app } = await fresh();
    expect((await emailCheck(app, 'not-an-email')).json()).toEqual({
      code: 400,
      msg: 'Please enter a correct email address',
      data: null,
      msgCode: 'badEmail',
    });
  });
});

describe('password reset', () => {
  async function resetByPhone(app: FastifyInstance, fields: Record<string, unknown>) {
    return app.inject({
      method: 'POST',
      url: API_PATHS.resetByPhone,
      payload: { phone: DEMO.phone, encryptType: '1', enterprise: 0, ...fields },
    });
  }

  it('resets by phone: checks code and token, re-hashes, revokes every token', async () => {
    const { app } = await fresh();
    const t1 = (await passwordLogin(app, DEMO.phone, DEMO.password)).json().data.token;
    const t2 = (await emailLogin(app, DEMO.email, DEMO.password)).json().data.token;
    const sent = await sendCode(app, 'reset-phone', DEMO.phone);
    expect(sent.json()).toEqual({ code: 0, msg: 'success', data: { verificationToken: expect.any(String) } });
    const { verificationToken } = sent.json().data;
    const captcha = await latestCode(app, DEMO.phone);
    const pw = { loginPassword: enc('Changed2028'), confirmPassword: enc('Changed2028') };

    expect(
      (await resetByPhone(app, { ...pw, confirmPassword: enc('Changed2029'), captcha, verificationToken })).json().msg,
    ).toBe('The two passwords do not match');
    expect((await resetByPhone(app, { ...pw, captcha })).json()).toEqual(CODE_ERROR);
    expect((await resetByPhone(app, { ...pw, captcha, verificationToken: 'forged' })).json()).toEqual(CODE_ERROR);
    expect((await resetByPhone(app, { ...pw, captcha, verificationToken })).json()).toEqual({
      code: 0,
      msg: 'success',
      data: true,
    });

    expect((await commonInfo(app, t1)).json().code).toBe(401);
    expect((await commonInfo(app, t2)).json().code).toBe(401);
    expect((await passwordLogin(app, DEMO.phone, DEMO.password)).json()).toEqual(BAD_CREDENTIALS);
    expect((await passwordLogin(app, DEMO.phone, 'Changed2028')).json().code).toBe(0);
    // Single use.
    expect((await resetByPhone(app, { ...pw, captcha, verificationToken })).json()).toEqual(CODE_ERROR);
  });

  it('resets by email and clears a lockout', async () => {
    const { app } = await fresh();
    for (let i = 0; i < 5; i += 1) await emailLogin(app, DEMO.email, 'Wrong123');
    const { verificationToken } = (await sendCode(app, 'email', DEMO.email, { emailSendType: '2' })).json().data;
    const captcha = await latestCode(app, DEMO.email);
    const res = await app.inject({
      method: 'POST',
      url: API_PATHS.resetByEmail,
      payload: {
        accountEmail: DEMO.email,
        verificationToken,
        captcha,
        encryptType: '1',
        loginPassword: enc('Changed2028'),
        confirmPassword: enc('Changed2028'),
      },
    });
    expect(res.json().code).toBe(0);
    expect((await emailLogin(app, DEMO.email, 'Changed2028')).json().code).toBe(0);
  });

  it('does not accept a registration code for a reset', async () => {
    const { app } = await fresh();
    const email = 'someone@example.com';
    await addUser(app, { email, password: 'Secret123' });
    // A code of the 'register' purpose cannot be requested for a registered address; a reset code is.
    const { verificationToken } = (await sendCode(app, 'email', email, { emailSendType: '2' })).json().data;
    const captcha = await latestCode(app, email);
    const reset = (confirm: string) =>
      app.inject({
        method: 'POST',
        url: API_PATHS.resetByEmail,
        payload: {
          accountEmail: email,
          verificationToken,
          captcha,
          encryptType: '1',
          loginPassword: enc('Changed2028'),
          confirmPassword: enc(confirm),
        },
      });
    expect((await reset('Changed2029')).json().msg).toBe('The two passwords do not match');
    expect((await reset('Changed2028')).json().code).toBe(0);
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After after 20 logins a minute from one IP', async () => {
    const { app, clock } = await fresh({ RATE_LIMITS: 'on' });
    const ip = freshIp();
    for (let i = 0; i < 20; i += 1) {
      expect((await login(app, { loginType: '7' }, ip)).statusCode).toBe(200);
      clock.advance(1000);
    }
    const limited = await login(app, { loginType: '7' }, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      code: 429,
      msg: 'Too many requests, please try again in 40 seconds',
      data: null,
      msgCode: 'tooManyRequestsWait',
      msgParams: { seconds: 40 },
    });
    expect(limited.headers['retry-after']).toBe('40');
    expect((await login(app, { loginType: '7' }, freshIp())).statusCode).toBe(200);
    clock.advance(40_000);
    expect((await login(app, { loginType: '7' }, ip)).statusCode).toBe(200);
  });

  it('limits the email check to 30 a minute', async () => {
    const { app } = await fresh({ RATE_LIMITS: 'on' });
    const check = () => app.inject({ method: 'GET', url: `${API_PATHS.emailRegistered}?email=a@b.co&osId=1002` });
    for (let i = 0; i < 30; i += 1) expect((await check()).statusCode).toBe(200);
    expect((await check()).statusCode).toBe(429);
  });

  it('limits register to 10 and send-code to 10 a minute', async () => {
    const { app } = await fresh({ RATE_LIMITS: 'on' });
    const post = (url: string) => app.inject({ method: 'POST', url, payload: {} });
    for (let i = 0; i < 10; i += 1) expect((await post(API_PATHS.register)).statusCode).toBe(200);
    expect((await post(API_PATHS.register)).statusCode).toBe(429);
    for (let i = 0; i < 5; i += 1) {
      expect((await post(API_PATHS.sendPhoneCode)).statusCode).toBe(200);
      expect((await post(API_PATHS.sendEmailCode)).statusCode).toBe(200);
    }
    const limited = await post(API_PATHS.sendResetPhoneCode);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('shares the account windows between processes on one database (WORKERS)', async () => {
    const dataDir = tempDir();
    const env = { RATE_LIMITS: 'on', NODE_ENV: 'test' };
    const first = await buildTestApp({ dataDir, env });
    const second = await buildTestApp({ dataDir, env, seedDemoAccount: false });
    apps.push(first, second);
    const ip = freshIp();
    for (let i = 0; i < 10; i += 1) {
      expect((await login(first, { loginType: '7' }, ip)).statusCode).toBe(200);
      expect((await login(second, { loginType: '7' }, ip)).statusCode).toBe(200);
    }
    expect((await login(first, { loginType: '7' }, ip)).statusCode).toBe(429);
    expect((await login(second, { loginType: '7' }, ip)).statusCode).toBe(429);
  });

  it('is off with RATE_LIMITS=off', async () => {
    const { app } = await fresh({ RATE_LIMITS: 'off' });
    for (let i = 0; i < 40; i += 1) expect((await login(app, { loginType: '7' })).statusCode).toBe(200);
  });
});

describe('logs', () => {
  it('masks phone numbers and emails and never logs passwords', async () => {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    const clock = fakeClock();
    const app = await buildTestApp({ now: clock.now, env: { RATE_LIMITS: 'off' }, logger: 'debug', logStream: stream });
    apps.push(app);
    const cipher = enc(DEMO.password);
    await login(app, { loginType: '0', phone: DEMO.phone, password: cipher, encryptType: '1' });
    await login(app, { loginType: '0', phone: DEMO.phone, password: enc('Wrong123'), encryptType: '1' });
    await sendCode(app, 'login', DEMO.phone);
    await codeLogin(app, DEMO.phone, await latestCode(app, DEMO.phone));
    await app.inject({
      method: 'GET',
      url: `${API_PATHS.emailRegistered}?email=${encodeURIComponent(DEMO.email)}&osId=1002`,
    });
    await app.inject({ method: 'GET', url: `${API_PATHS.emailRegistered}?email=${DEMO.phone}` });
    await app.inject({
      method: 'POST',
      url: API_PATHS.login,
      headers: { 'content-type': 'application/json' },
      payload: `{"phone":"${DEMO.phone}","password":"${cipher}"`,
    });
    await app.inject({ method: 'GET', url: `/nowhere?email=${DEMO.email}` });
    await new Promise((resolve) => setImmediate(resolve));
    expect(text).toContain('138****8000');
    expect(text).toContain('r***r@example.com');
    for (const secret of [DEMO.phone, DEMO.email, DEMO.password, cipher]) expect(text).not.toContain(secret);
  });

  it('masks every email and mobile number in a text', async () => {
    expect(maskPersonalData('/x?email=runner%40example.com&p=13800138000&n=123')).toBe(
      '/x?email=r***r@example.com&p=138****8000&n=123',
    );
    expect(maskPhone('13800138000')).toBe('138****8000');
    expect(maskEmail('a@b.co')).toBe('a***@b.co');
  });
});

describe('providers', () => {
  it('hands codes to the injected SMS and email senders', async () => {
    const sms: string[][] = [];
    const mail: string[][] = [];
    const app = await buildTestApp({
      now: fakeClock().now,
      env: { RATE_LIMITS: 'off' },
      smsSender: { send: async (to, text) => void sms.push([to, text]) },
      emailSender: { send: async (to, subject, text) => void mail.push([to, subject, text]) },
    });
    apps.push(app);
    await sendCode(app, 'login', DEMO.phone);
    await sendCode(app, 'email', 'mail@example.com');
    await app.delivery.idle();
    expect(sms).toEqual([[DEMO.phone, expect.stringContaining(await latestCode(app, DEMO.phone))]]);
    expect(mail[0]?.[0]).toBe('mail@example.com');
    expect(mail[0]?.[2]).toContain(await latestCode(app, 'mail@example.com'));
  });

  it('refuses an unknown CAPTCHA_PROVIDER and uses an injected one', async () => {
    await expect(buildTestApp({ env: { CAPTCHA_PROVIDER: 'nope' } })).rejects.toThrow(/CAPTCHA_PROVIDER "nope"/);
    const pass = { token: 't', sig: 's', sessionId: 'external', scene: 'message_h5' };
    const app = await buildTestApp({
      now: fakeClock().now,
      env: { RATE_LIMITS: 'off' },
      captchaProvider: {
        name: 'external',
        issue: async () => ({ sessionId: 'external', scene: 'message_h5' }),
        verify: async () => pass,
        redeem: async (p) => p.sig === 's',
      },
    });
    apps.push(app);
    expect((await challenge(app)).sessionId).toBe('external');
    const res = await app.inject({
      method: 'POST',
      url: API_PATHS.sendPhoneCode,
      payload: {
        captchaType: '2',
        userPhone: DEMO.phone,
        nc_token: 't',
        sig: 's',
        sessionId: 'external',
        scene: 'message_h5',
      },
    });
    expect(res.json().code).toBe(0);
  });
});
