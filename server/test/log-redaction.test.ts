/**
 * Request logs (issue #12 §2): JSON lines a log collector reads, with method, masked URL, status and response
 * time, and never a whole phone number, ID number, e-mail address, password, code or token, whether it came in
 * the URL, a header, the body or an error message (server/src/lib/log-redaction.ts).
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { redactLogText } from '../src/lib/log-redaction.ts';
import { buildTestApp, FIXTURE_RACE_ID, removeTempDirs } from './helpers.ts';

const PHONE = '13912345678';
const ID_NUMBER = '11010519491231002X';
const EMAIL = 'runner.one@example.com';
const TOKEN = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const CODE = '482913';
const PASSWORD = 'Secret-Pass-2027';
const SECRETS = [PHONE, ID_NUMBER, ID_NUMBER.toLowerCase(), EMAIL, encodeURIComponent(EMAIL), TOKEN, CODE, PASSWORD];

const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});
afterAll(removeTempDirs);

async function loggedApp() {
  const lines: string[] = [];
  const logStream = new PassThrough();
  let pending = '';
  logStream.on('data', (chunk: Buffer) => {
    const parts = (pending + chunk.toString('utf8')).split('\n');
    pending = parts.pop() ?? '';
    lines.push(...parts.filter((line) => line !== ''));
  });
  const app = await buildTestApp({ env: { RATE_LIMITS: 'off', NODE_ENV: 'test' }, logger: 'info', logStream });
  apps.push(app);
  return { app, lines };
}

const leaks = (text: string) => SECRETS.filter((secret) => text.toLowerCase().includes(secret.toLowerCase()));

interface Line {
  msg?: string;
  req?: { method?: unknown; url?: unknown };
  res?: { method?: unknown; url?: unknown; statusCode?: unknown };
  responseTime?: unknown;
}

describe('request logs', () => {
  it('are JSON lines with method, masked url, status and response time, and hold no personal number or secret', async () => {
    const { app, lines } = await loggedApp();
    const secretHeaders = { token: TOKEN, authorization: `Bearer ${TOKEN}`, cookie: `token=${TOKEN}` };
    const query = `phone=${PHONE}&certificateNumber=${ID_NUMBER}&email=${encodeURIComponent(EMAIL)}&token=${TOKEN}&code=${CODE}&password=${PASSWORD}`;
    const requests: InjectOptions[] = [
      // In the URL (query and path) and in the token headers.
      { method: 'GET', url: `/nowhere?${query}`, headers: secretHeaders },
      { method: 'GET', url: `/nowhere/${ID_NUMBER}/${PHONE}/${EMAIL}` },
      { method: 'GET', url: `${API_PATHS.emailRegistered}?email=${encodeURIComponent(EMAIL)}&osId=1002` },
      { method: 'GET', url: `${API_PATHS.certificateVerify}?id=${ID_NUMBER}&sig=${TOKEN}` },
      // In bodies: a lookup, a login, and a malformed body whose parse error quotes it.
      {
        method: 'POST',
        url: API_PATHS.searchRegistration,
        headers: secretHeaders,
        payload: { raceId: FIXTURE_RACE_ID, name: '张三', certificateNumber: ID_NUMBER, queryType: 1 },
      },
      {
        method: 'POST',
        url: API_PATHS.login,
        payload: { loginType: '0', phone: PHONE, password: PASSWORD, captcha: CODE, accountEmail: EMAIL },
      },
      {
        method: 'POST',
        url: API_PATHS.login,
        headers: { 'content-type': 'application/json' },
        payload: `{"phone":"${PHONE}","password":"${PASSWORD}","token":"${TOKEN}"`,
      },
    ];
    const answers: LightMyRequestResponse[] = [];
    for (const request of requests) answers.push(await app.inject(request));
    // And in what code logs by hand: a header or body object, an error, a message.
    app.log.info({ headers: secretHeaders, body: { phone: PHONE, loginPassword: PASSWORD, captcha: CODE } }, 'by hand');
    app.log.warn(`delivery to ${EMAIL} and ${PHONE} failed, verificationToken=${TOKEN}`);
    app.log.error({ err: new Error(`lookup of ${ID_NUMBER} failed: {"password":"${PASSWORD}","code":"${CODE}"}`) });
    await new Promise((resolve) => setImmediate(resolve));

    expect(lines.length).toBeGreaterThan(answers.length * 2);
    const parsed = lines.map((line) => JSON.parse(line) as Line);
    expect(leaks(lines.join('\n'))).toEqual([]);

    const completed = parsed.filter((line) => line.msg === 'request completed');
    expect(completed.map((line) => line.res?.statusCode)).toEqual(answers.map((answer) => answer.statusCode));
    for (const line of completed) {
      expect(line.res).toMatchObject({ method: expect.any(String), url: expect.any(String) });
      expect(line.responseTime).toEqual(expect.any(Number));
    }
    const incoming = parsed.filter((line) => line.msg === 'incoming request');
    expect(incoming).toHaveLength(answers.length);
    for (const line of incoming)
      expect(line.req).toMatchObject({ method: expect.any(String), url: expect.any(String) });

    // Masked, not dropped: the ends of each number stay, secret values are replaced whole.
    const firstUrl = completed[0]?.res?.url;
    expect(firstUrl).toContain('phone=139****5678');
    expect(firstUrl).toContain('certificateNumber=1101**********002X');
    expect(firstUrl).toContain('email=r***e@example.com');
    expect(firstUrl).toContain('token=[redacted]');
    expect(firstUrl).toContain('code=[redacted]');
    expect(firstUrl).toContain('password=[redacted]');
    expect(completed.map((line) => line.res?.url)).toContain(
      `${API_PATHS.certificateVerify}?id=1101**********002X&sig=[redacted]`,
    );
  });
});

describe('redactLogText', () => {
  it('masks numbers and addresses and replaces secret values in URLs, JSON and headers', () => {
    expect(redactLogText(`/x?phone=${PHONE}&n=123&t=1795415828470`)).toBe('/x?phone=139****5678&n=123&t=1795415828470');
    expect(redactLogText(`{"loginPassword":"${PASSWORD}","captcha":${CODE},"statusCode":500}`)).toBe(
      '{"loginPassword":"[redacted]","captcha":[redacted],"statusCode":500}',
    );
    expect(redactLogText(`authorization: Bearer ${TOKEN}`)).toBe('authorization: [redacted]');
    expect(redactLogText(`sent with Bearer ${TOKEN}.`)).toBe('sent with Bearer [redacted]');
    expect(redactLogText(`nc_token=${TOKEN}&sessionId=s1`)).toBe('nc_token=[redacted]&sessionId=s1');
  });
});
