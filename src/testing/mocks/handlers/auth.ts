/**
 * The account calls of the contract (spec §7), as the reference server answers them for its demo account.
 * Every request body is recorded in `authCalls` so a test can assert what the SPA sent.
 */
import { http, HttpResponse } from 'msw';
import { API_PATHS } from '#contract/api';
import { getEnv } from '@/config/env';
import { decryptPassword } from '#contract/password-crypto';
import { api } from '../base-url';

export const DEMO = { phone: '13800138000', email: 'runner@example.com', password: 'Runner2027', code: '123456' };
export const SLIDER = {
  sessionId: 'slider-session-1',
  scene: 'message_h5',
  trackWidth: 300,
  pieceWidth: 40,
  targetX: 200,
  tolerance: 6,
};
export const LOGIN_TOKEN = 'login-token-abcdef0123456789';

export interface AuthCall {
  path: string;
  body: Record<string, unknown>;
  token: string | null;
}

export const authCalls: AuthCall[] = [];

const ok = (data: unknown = null) => HttpResponse.json({ code: 0, msg: 'success', data });
const fail = (msg: string, code = 1) => HttpResponse.json({ code, msg, data: null });

export const demoUser = (loginType: string) => ({
  token: LOGIN_TOKEN,
  username: DEMO.phone,
  loginIdentityType: 1,
  authorities: [],
  accountInfo: {
    accountId: 1,
    accountNick: 'Runner',
    accountPhone: DEMO.phone,
    loginType: Number(loginType),
    osId: 1002,
    userId: 1,
  },
  userInfo: { userId: 1, userName: '跑者', userEmail: DEMO.email, userPhone: DEMO.phone, userGender: 1 },
});

async function record(path: string, request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get('content-type') ?? '';
  const text = await request.text();
  const body = type.includes('application/x-www-form-urlencoded')
    ? Object.fromEntries(new URLSearchParams(text))
    : text
      ? (JSON.parse(text) as Record<string, unknown>)
      : {};
  authCalls.push({ path, body, token: request.headers.get('token') });
  return body;
}

/** Passwords travel encrypted (encryptType '1'); the handlers decrypt them with the SPA's key. */
function plain(cipher: unknown): string | null {
  return typeof cipher === 'string' ? decryptPassword(cipher, getEnv().passwordKey) : null;
}

export const authHandlers = [
  http.post(api(API_PATHS.login), async ({ request }) => {
    const b = await record(API_PATHS.login, request);
    if (b.loginType === '1')
      return b.phone === DEMO.phone && b.captcha === DEMO.code
        ? ok(demoUser('1'))
        : fail('Verification code error, please re-enter');
    const password = plain(b.password);
    const who = b.loginType === '5' ? b.accountEmail === DEMO.email : b.phone === DEMO.phone;
    return who && password === DEMO.password ? ok(demoUser(String(b.loginType))) : fail('Account or password error');
  }),
  http.post(api(API_PATHS.logout), async ({ request }) => {
    await record(API_PATHS.logout, request);
    return ok();
  }),
  http.get(api(API_PATHS.captchaChallenge), () => ok(SLIDER)),
  http.post(api(API_PATHS.captchaVerify), async ({ request }) => {
    const b = await record(API_PATHS.captchaVerify, request);
    const x = Number(b.x);
    // Like the reference server: on target, and a real drag (at least 5 trail points).
    return Math.abs(x - SLIDER.targetX) <= SLIDER.tolerance && Array.isArray(b.trail) && b.trail.length >= 5
      ? ok({ token: 'nc-token-1', sig: 'sig-1', sessionId: SLIDER.sessionId, scene: SLIDER.scene })
      : fail('Verification failed');
  }),
  http.post(api(API_PATHS.sendPhoneCode), async ({ request }) => {
    await record(API_PATHS.sendPhoneCode, request);
    return ok();
  }),
  http.post(api(API_PATHS.sendEmailCode), async ({ request }) => {
    await record(API_PATHS.sendEmailCode, request);
    return ok({ captchaCode: '', verificationToken: 'vt-email' });
  }),
  http.post(api(API_PATHS.sendResetPhoneCode), async ({ request }) => {
    await record(API_PATHS.sendResetPhoneCode, request);
    return ok({ verificationToken: 'vt-phone' });
  }),
  http.get(api(API_PATHS.emailRegistered), ({ request }) =>
    ok(new URL(request.url).searchParams.get('email') === DEMO.email),
  ),
  ...([API_PATHS.register, API_PATHS.resetByEmail, API_PATHS.resetByPhone] as const).map((path) =>
    http.post(api(path), async ({ request }) => {
      const b = await record(path, request);
      return b.captcha === DEMO.code ? ok() : fail('Verification code error, please re-enter');
    }),
  ),
];
