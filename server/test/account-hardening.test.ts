/**
 * Hardening of the account calls: wrong code guesses counted per source (a stranger cannot burn a runner's
 * code), the account bucket shared by every call that tells whether an account exists, IPv6 /64 grouping of
 * the per-IP limits, quiet 429s, and ID numbers masked in logs.
 */
import type { FastifyInstance } from 'fastify';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { maskPersonalData } from '../src/lib/accounts.ts';
import { rateLimitKey } from '../src/plugins/rate-limit.ts';
import { codeLogin, DEMO, enc, freshIp, latestCode, login, sendCode } from './account-helpers.ts';
import { buildTestApp, fakeClock, removeTempDirs } from './helpers.ts';

const CODE_ERROR = { code: 400, msg: 'Verification code error, please re-enter', data: null, msgCode: 'codeError' };
const TRIES_USED = {
  code: 400,
  msg: 'Too many wrong codes, please get a new code',
  data: null,
  msgCode: 'codeTriesUsed',
};

const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});
afterAll(removeTempDirs);

async function fresh(env: Record<string, string> = {}, logStream?: NodeJS.WritableStream) {
  const clock = fakeClock();
  const app = await buildTestApp({
    now: clock.now,
    env: { RATE_LIMITS: 'off', NODE_ENV: 'test', ...env },
    ...(logStream ? { logger: 'info' as const, logStream } : {}),
  });
  apps.push(app);
  return { app, clock };
}

function logLines() {
  const stream = new PassThrough();
  const lines: string[] = [];
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  return { stream, lines };
}

/** A code sent from the runner's address, and a 6-digit code that is not it. */
async function runnersCode(app: FastifyInstance, runnerIp: string) {
  expect((await sendCode(app, 'login', DEMO.phone, {}, runnerIp)).json().code).toBe(0);
  const code = await latestCode(app, DEMO.phone);
  const wrong = (n: number) => String((Number(code) + 1 + n) % 1_000_000).padStart(6, '0');
  return { code, wrong };
}

describe('wrong code guesses from another address', () => {
  it('cannot use up the runner’s pending code: a stranger is refused after 5 wrong tries, the runner logs in', async () => {
    const { app } = await fresh();
    const runner = freshIp();
    const stranger = freshIp();
    const { code, wrong } = await runnersCode(app, runner);
    for (let i = 0; i < 5; i += 1)
      expect((await codeLogin(app, DEMO.phone, wrong(i), stranger)).json()).toEqual(CODE_ERROR);
    // The stranger's 6th guess is not even checked, right or not.
    expect((await codeLogin(app, DEMO.phone, wrong(5), stranger)).json()).toEqual(TRIES_USED);
    expect((await codeLogin(app, DEMO.phone, code, stranger)).json()).toEqual(TRIES_USED);
    // The runner still has the code's own 5 tries.
    for (let i = 0; i < 4; i += 1)
      expect((await codeLogin(app, DEMO.phone, wrong(i), runner)).json()).toEqual(CODE_ERROR);
    expect((await codeLogin(app, DEMO.phone, code, runner)).json().code).toBe(0);
  });

  it('gives all strangers together 10 wrong tries on one code, and the code stays open for the runner', async () => {
    const { app } = await fresh();
    const runner = freshIp();
    const { code, wrong } = await runnersCode(app, runner);
    for (let i = 0; i < 5; i += 1) await codeLogin(app, DEMO.phone, wrong(i), '10.9.0.1');
    for (let i = 0; i < 5; i += 1) await codeLogin(app, DEMO.phone, wrong(i), '10.9.0.2');
    // A third address never gets to guess.
    expect((await codeLogin(app, DEMO.phone, code, '10.9.0.3')).json()).toEqual(TRIES_USED);
    expect((await codeLogin(app, DEMO.phone, code, runner)).json().code).toBe(0);
  });

  it('counts an IPv6 /64 as one source', async () => {
    const { app } = await fresh();
    const { code, wrong } = await runnersCode(app, freshIp());
    for (let i = 0; i < 5; i += 1) await codeLogin(app, DEMO.phone, wrong(i), `2001:db8:aa:bb::${i + 1}`);
    expect((await codeLogin(app, DEMO.phone, code, '2001:db8:aa:bb:ffff::9')).json()).toEqual(TRIES_USED);
  });

  it('keeps the code’s own rule for the runner: dead after 5 wrong tries', async () => {
    const { app } = await fresh();
    const runner = freshIp();
    const { code, wrong } = await runnersCode(app, runner);
    for (let i = 0; i < 5; i += 1)
      expect((await codeLogin(app, DEMO.phone, wrong(i), runner)).json()).toEqual(CODE_ERROR);
    expect((await codeLogin(app, DEMO.phone, code, runner)).json()).toEqual(CODE_ERROR);
    expect((await codeLogin(app, DEMO.phone, code, freshIp())).json()).toEqual(CODE_ERROR);
  });

  it('counts a stranger’s wrong reset attempts (wrong verificationToken) the same way', async () => {
    const { app } = await fresh();
    const runner = freshIp();
    const stranger = freshIp();
    const sent = await sendCode(app, 'reset-phone', DEMO.phone, {}, runner);
    const verificationToken = sent.json().data.verificationToken as string;
    const code = await latestCode(app, DEMO.phone);
    const reset = (token: string, ip: string) =>
      app.inject({
        method: 'POST',
        url: API_PATHS.resetByPhone,
        remoteAddress: ip,
        payload: {
          phone: DEMO.phone,
          verificationToken: token,
          captcha: code,
          encryptType: '1',
          enterprise: '0',
          loginPassword: enc('Changed2028'),
          confirmPassword: enc('Changed2028'),
        },
      });
    for (let i = 0; i < 5; i += 1) expect((await reset(`forged-${i}`, stranger)).json()).toEqual(CODE_ERROR);
    expect((await reset('forged', stranger)).json()).toEqual(TRIES_USED);
    expect((await reset(verificationToken, runner)).json().code).toBe(0);
  });
});

describe('the account bucket', () => {
  it('counts login by code, register and both resets in one per-IP window with password login', async () => {
    const { app } = await fresh({ RATE_LIMITS: 'on' });
    const ip = freshIp();
    const post = (url: string) => app.inject({ method: 'POST', url, payload: {}, remoteAddress: ip });
    for (let i = 0; i < 5; i += 1) expect((await codeLogin(app, DEMO.phone, '000000', ip)).statusCode).toBe(200);
    for (let i = 0; i < 5; i += 1) expect((await post(API_PATHS.register)).statusCode).toBe(200);
    for (let i = 0; i < 5; i += 1) expect((await post(API_PATHS.resetByPhone)).statusCode).toBe(200);
    for (let i = 0; i < 5; i += 1) expect((await post(API_PATHS.resetByEmail)).statusCode).toBe(200);
    for (const res of [
      await login(app, { loginType: '0', phone: DEMO.phone, password: enc('Wrong123'), encryptType: '1' }, ip),
      await codeLogin(app, DEMO.phone, '000000', ip),
      await post(API_PATHS.register),
      await post(API_PATHS.resetByPhone),
      await post(API_PATHS.resetByEmail),
    ]) {
      expect(res.statusCode).toBe(429);
      const seconds = Number(res.headers['retry-after']);
      expect(res.json()).toEqual({
        code: 429,
        msg: `Too many requests, please try again in ${seconds} seconds`,
        data: null,
        msgCode: 'tooManyRequestsWait',
        msgParams: { seconds },
      });
    }
    expect((await codeLogin(app, DEMO.phone, '000000', freshIp())).statusCode).toBe(200);
  });

  it('groups IPv6 addresses by /64: a fresh address in the same /64 does not get a fresh window', async () => {
    const { app } = await fresh({ RATE_LIMITS: 'on' });
    for (let i = 0; i < 20; i += 1) {
      expect((await login(app, { loginType: '7' }, `2001:db8:1:2::${(i + 1).toString(16)}`)).statusCode).toBe(200);
    }
    expect((await login(app, { loginType: '7' }, '2001:db8:1:2:abcd:ef01:2345:6789')).statusCode).toBe(429);
    expect((await login(app, { loginType: '7' }, '2001:db8:1:3::1')).statusCode).toBe(200);
  });

  it('keys addresses: IPv4 as is, IPv4-mapped as IPv4, IPv6 by its /64 whatever the notation', () => {
    expect(rateLimitKey('203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey('2001:0DB8:0001:0002:ffff:0:0:1')).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateLimitKey('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(rateLimitKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(rateLimitKey('not an address')).toBe('not an address');
  });
});

describe('send-code refusals', () => {
  it('answers a 429 without logging an error', async () => {
    const { stream, lines } = logLines();
    const { app } = await fresh({}, stream);
    expect((await sendCode(app, 'login', DEMO.phone)).json().code).toBe(0);
    for (const kind of ['login', 'reset-phone', 'email'] as const) {
      const destination = kind === 'email' ? 'someone@example.com' : DEMO.phone;
      if (kind === 'email') expect((await sendCode(app, kind, destination)).json().code).toBe(0);
      if (kind === 'reset-phone') expect((await sendCode(app, kind, destination)).json().code).toBe(0);
      const refused = await sendCode(app, kind, destination);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('60');
      expect(refused.json()).toEqual({
        code: 429,
        msg: 'Please wait 60 seconds before requesting a new code',
        data: null,
        msgCode: 'codeResendWait',
        msgParams: { seconds: 60 },
      });
    }
    await new Promise((resolve) => setImmediate(resolve));
    const errors = lines.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
    expect(errors).toEqual([]);
    expect(lines.join('\n')).not.toContain('TypeError');
  });
});

describe('ID numbers in logs', () => {
  it('masks 18-digit (also with an X checksum) and 15-digit ID numbers, not hashes or longer numbers', () => {
    expect(maskPersonalData('/q?certificateNumber=320102199001011234&x=1')).toBe(
      '/q?certificateNumber=3201**********1234&x=1',
    );
    expect(maskPersonalData('id 11010519491231002X and 11010519491231002x')).toBe(
      'id 1101**********002X and 1101**********002X',
    );
    expect(maskPersonalData('old id 110105491231002 here')).toBe('old id 1101*******1002 here');
    expect(maskPersonalData('%22320102199001011234%22')).toBe('"3201**********1234"');
    const hash = 'ab320102199001011234cd';
    expect(maskPersonalData(hash)).toBe(hash);
    expect(maskPersonalData('1234567890123456789012')).toBe('1234567890123456789012');
    expect(maskPersonalData('t=1795415828470')).toBe('t=1795415828470');
  });

  it('keeps them out of request logs, error messages and rejected bodies', async () => {
    const { stream, lines } = logLines();
    const { app } = await fresh({}, stream);
    const id = '320102199001011234';
    await app.inject({ method: 'GET', url: `/nowhere?certificateNumber=${id}&old=110105491231002` });
    await app.inject({ method: 'GET', url: `/nowhere/${id.slice(0, 17)}X` });
    await app.inject({
      method: 'POST',
      url: API_PATHS.login,
      headers: { 'content-type': 'application/json' },
      payload: `{"certificateNumber":"${id}"`,
    });
    app.log.info({ detail: { certificateNumber: id } }, 'a nested field');
    await new Promise((resolve) => setImmediate(resolve));
    const text = lines.join('\n');
    expect(text).toContain('3201**********1234');
    for (const secret of [id, '110105491231002', `${id.slice(0, 17)}X`]) expect(text).not.toContain(secret);
  });
});
