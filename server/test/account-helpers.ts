/** Helpers of the account tests: encrypted passwords, the slider, codes read from the outbox JSON. */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { API_PATHS } from '#contract/api';
import { encryptPassword } from '#contract/password-crypto';
import { DEFAULT_PASSWORD_KEY } from '../src/lib/env.ts';

export const DEMO = { phone: '13800138000', email: 'runner@example.com', password: 'Runner2027' } as const;
export const enc = (plain: string) => encryptPassword(plain, DEFAULT_PASSWORD_KEY);

let ipCounter = 0;
/** A fresh client address, so that per-IP hourly caps of one test do not leak into another. */
export const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

export async function challenge(app: FastifyInstance, ip = '127.0.0.1') {
  const res = await app.inject({ method: 'GET', url: API_PATHS.captchaChallenge, remoteAddress: ip });
  return res.json().data as {
    sessionId: string;
    scene: string;
    trackWidth: number;
    targetX: number;
    tolerance: number;
  };
}

export const humanTrail = (x: number): [number, number][] => [
  [0, 0],
  [80, Math.round(x * 0.3)],
  [160, Math.round(x * 0.6)],
  [240, Math.round(x * 0.9)],
  [320, x],
];

export function verifySlider(app: FastifyInstance, body: unknown, ip = '127.0.0.1') {
  return app.inject({ method: 'POST', url: API_PATHS.captchaVerify, payload: body as object, remoteAddress: ip });
}

/** Solves a slider challenge and answers the send-code fields (nc_token, sig, sessionId, scene). */
export async function sliderFields(app: FastifyInstance, ip = '127.0.0.1') {
  const c = await challenge(app, ip);
  const res = await verifySlider(app, { sessionId: c.sessionId, x: c.targetX, trail: humanTrail(c.targetX) }, ip);
  const pass = res.json().data;
  expect(pass, res.body).toBeTruthy();
  return {
    nc_token: pass.token as string,
    sig: pass.sig as string,
    sessionId: pass.sessionId as string,
    scene: pass.scene as string,
  };
}

export type CodeKind = 'login' | 'email' | 'reset-phone';

export async function sendCode(
  app: FastifyInstance,
  kind: CodeKind,
  destination: string,
  extra: Record<string, string> = {},
  ip = '127.0.0.1',
) {
  const slider = await sliderFields(app, ip);
  const [url, payload] =
    kind === 'login'
      ? [API_PATHS.sendPhoneCode, { captchaType: '2', userPhone: destination, raceAppBusinessType: '1', cloudType: '' }]
      : kind === 'reset-phone'
        ? [API_PATHS.sendResetPhoneCode, { captchaType: '3', userPhone: destination, raceAppBusinessType: '1' }]
        : [API_PATHS.sendEmailCode, { captchaType: '20', accountEmail: destination, emailSendType: '1' }];
  return app.inject({ method: 'POST', url, payload: { ...payload, ...slider, ...extra }, remoteAddress: ip });
}

export interface OutboxItem {
  destination: string;
  channel: 'sms' | 'email';
  subject: string;
  body: string;
  createdAt: number;
}

export async function outbox(app: FastifyInstance): Promise<OutboxItem[]> {
  const res = await app.inject({ method: 'GET', url: `${API_PATHS.devOutbox}?format=json` });
  expect(res.json().code).toBe(0);
  return res.json().data as OutboxItem[];
}

/** The code of the newest message to `destination`. */
export async function latestCode(app: FastifyInstance, destination: string): Promise<string> {
  const item = (await outbox(app)).find((m) => m.destination === destination);
  const code = /\b(\d{6})\b/.exec(item?.body ?? '')?.[1];
  if (code === undefined) throw new Error(`no code for ${destination} in the outbox`);
  return code;
}

export function login(app: FastifyInstance, fields: Record<string, string>, ip = '127.0.0.1') {
  return app.inject({
    method: 'POST',
    url: API_PATHS.login,
    headers: { 'content-type': 'application/x-www-form-urlencoded', osId: '1002', terminalType: '3' },
    payload: new URLSearchParams({ osId: '1002', ...fields }).toString(),
    remoteAddress: ip,
  });
}

export const passwordLogin = (app: FastifyInstance, phone: string, password: string, ip?: string) =>
  login(app, { loginType: '0', phone, password: enc(password), encryptType: '1' }, ip);

export const emailLogin = (app: FastifyInstance, accountEmail: string, password: string, ip?: string) =>
  login(app, { loginType: '5', accountEmail, password: enc(password), encryptType: '1' }, ip);

export const codeLogin = (app: FastifyInstance, phone: string, captcha: string, ip?: string) =>
  login(app, { loginType: '1', phone, captcha }, ip);

export function commonInfo(app: FastifyInstance, token: string) {
  return app.inject({
    method: 'POST',
    url: API_PATHS.commonInfo,
    headers: { 'content-type': 'application/json', token },
    payload: '{}',
  });
}
