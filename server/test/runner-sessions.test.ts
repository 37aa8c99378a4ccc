/**
 * The runner's session hook (plugins/sessions.ts): every logged-in call of the four prefixes that have them
 * (user-center, registration, entry, after-entry) and the uploads answers the same refusal without a valid
 * token (envelope 401 loginExpired, HTTP 200, no-store), after its schema (a malformed request is still an
 * HTTP 400), and the public calls beside them stay public. Runs on both engines.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, removeTempDirs } from './helpers.ts';

const RACE = FIXTURE_RACE_ID;
const runnerKey = { raceId: RACE, name: '张三', certificateType: 1, certificateNumber: '110101199003070011' };

/** One logged-in call of each route module behind the hook, each with a request its schema accepts. */
const LOGGED_IN: { method: 'GET' | 'POST'; url: string; payload?: object }[] = [
  { method: 'GET', url: API_PATHS.profile },
  { method: 'POST', url: API_PATHS.passwordChange, payload: {} },
  { method: 'GET', url: API_PATHS.participantList },
  { method: 'POST', url: API_PATHS.participantDelete, payload: { id: 1 } },
  { method: 'GET', url: `${API_PATHS.directMine}?raceId=${RACE}` },
  { method: 'POST', url: API_PATHS.myResults, payload: runnerKey },
  { method: 'POST', url: API_PATHS.confirm, payload: runnerKey },
  { method: 'GET', url: `${API_PATHS.mailingGet}?raceId=${RACE}` },
  { method: 'GET', url: `${API_PATHS.documentsGet}?raceId=${RACE}` },
  { method: 'POST', url: API_PATHS.entryCodeCheck, payload: { raceId: RACE, code: 'ABCDEFGH' } },
  { method: 'GET', url: `${API_PATHS.teamGet}?raceId=${RACE}&teamCode=ABCDEF` },
  { method: 'GET', url: API_PATHS.myEntries },
  { method: 'GET', url: `${API_PATHS.orderGet}?orderNo=O-1` },
  { method: 'POST', url: API_PATHS.orderPay, payload: { orderNo: 'O-1' } },
  { method: 'GET', url: `${API_PATHS.letterGet}?raceId=${RACE}` },
  { method: 'GET', url: `${API_PATHS.refundGet}?raceId=${RACE}` },
  { method: 'GET', url: `${API_PATHS.pickupGet}?raceId=${RACE}` },
];

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp({ now: fakeClock().now });
});
afterAll(async () => {
  await app.close();
  removeTempDirs();
});

describe('runner sessions', () => {
  it.each(LOGGED_IN)('refuses $method $url without a valid token: 401 loginExpired, no-store', async (call) => {
    for (const token of [undefined, 'not-a-token', 'x'.repeat(500)]) {
      const res = await app.inject({ ...call, headers: token === undefined ? {} : { token } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toMatchObject({ code: 401, msgCode: 'loginExpired', data: null });
    }
  });

  it('checks the schema before the session, as the per-route checks did', async () => {
    const res = await app.inject({ method: 'POST', url: API_PATHS.participantDelete, payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, msgCode: 'invalidRequest' });
  });

  it('answers an upload without a token with the refusal carrying success: false', async () => {
    const res = await app.inject({ method: 'POST', url: API_PATHS.uploadFile });
    expect(res.json()).toMatchObject({ code: 401, msgCode: 'loginExpired', success: false });
  });

  it('keeps the public calls beside them public', async () => {
    const info = await app.inject({ method: 'GET', url: `${API_PATHS.entryInfo}?raceId=${RACE}` });
    expect(info.json().code).not.toBe(401);
    const checkIn = await app.inject({
      method: 'POST',
      url: API_PATHS.pickupCheckIn,
      payload: { raceId: RACE, passCode: 'ABCDEFGHJK' },
    });
    expect(checkIn.json()).toMatchObject({ code: 403, msgCode: 'staffKeyInvalid' });
  });
});
