import { sql } from '../src/db/engine.ts';
import { uploadKey } from '../src/lib/file-store.ts';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { hashPassword } from '../src/lib/password-hash.ts';
import { UPLOAD_QUOTA } from '../src/services/uploads/runner-uploads.ts';
import { DEMO, passwordLogin } from './account-helpers.ts';
import { buildTestApp, fakeClock, multipart, removeTempDirs } from './helpers.ts';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(32, 1)]);
const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a464946', 'hex'), Buffer.alloc(32, 2)]);
const WEBP = Buffer.concat([Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 ', 'latin1'), Buffer.alloc(16)]);
const PDF = Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n', 'latin1');
const DOCX = Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(40, 3)]);

let app: FastifyInstance;
let token: string;
const clock = fakeClock();

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now, env: { RATE_LIMITS: 'off' } });
  token = (await passwordLogin(app, DEMO.phone, DEMO.password)).json().data.token;
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

/** An upload by the demo runner (their token), unless `headers` says otherwise. */
const upload = (url: string, filename: string, content: Buffer, headers: Record<string, string> = {}) => {
  const body = multipart(filename, content);
  return app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, token, ...headers },
  });
};

async function newUserToken(phone: string) {
  await app.repos.users.create({ phone, passwordHash: await hashPassword('Secret123') }, app.config.now());
  return (await passwordLogin(app, phone, 'Secret123')).json().data.token as string;
}

describe('uploads', () => {
  it('stores an image under a random name and serves it back', async () => {
    const res = await upload(API_PATHS.uploadImage, 'My Photo.PNG', PNG);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ code: 0, msg: 'success', success: true });
    expect(body.data.url).toMatch(/^uploads\/[0-9a-f-]{36}\.png$/);
    expect(body.data.path).toBe(`/files/${body.data.url}`);
    const served = await app.inject({ method: 'GET', url: body.data.path, headers: { token } });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    // Stored under a random name in the file store (the data folder, or the database on PostgreSQL).
    expect(await app.files.has(uploadKey(body.data.url))).toBe(true);
    expect(body.data.url).not.toContain('My Photo');
  });

  it('serves an upload to its owner only, never cached; the site images stay public (issue 27)', async () => {
    const res = await upload(API_PATHS.uploadFile, 'medical.pdf', PDF);
    const { path: url } = res.json().data as { path: string };
    const mine = await app.inject({ method: 'GET', url, headers: { token } });
    expect(mine.statusCode).toBe(200);
    expect(mine.rawPayload.equals(PDF)).toBe(true);
    expect(mine.headers['cache-control']).toBe('private, no-store');
    expect(mine.headers.etag).toBeUndefined();
    // Without a token, with another runner's, with a revoked one: the 404 of a missing file, not cached.
    const missing = await app.inject({ method: 'GET', url: '/files/uploads/00000000-0000-0000-0000-000000000000.pdf' });
    const other = await newUserToken('13900000077');
    const revoked = (await passwordLogin(app, DEMO.phone, DEMO.password)).json().data.token as string;
    await app.inject({ method: 'POST', url: API_PATHS.logout, headers: { token: revoked } });
    for (const headers of [{}, { token: other }, { token: revoked }, { token: 'forged' }]) {
      const refused = await app.inject({ method: 'GET', url, headers });
      expect(refused.statusCode, JSON.stringify(headers)).toBe(404);
      expect(refused.headers['cache-control']).toBe('no-store');
      expect(refused.json()).toMatchObject({ code: 404, msgCode: missing.json().msgCode, data: null });
      expect(refused.body).not.toContain('%PDF');
    }
    // The owner's own missing file answers the same.
    expect((await app.inject({ method: 'GET', url: `${url}x`, headers: { token } })).statusCode).toBe(404);
    // Other files of the store (the organiser's images) stay public and cacheable.
    await app.files.put(uploadKey('site/logo.png'), PNG);
    const logo = await app.inject({ method: 'GET', url: '/files/site/logo.png' });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['cache-control']).toBe('public, max-age=86400');
  });

  it('accepts every image type and the document types on the file upload', async () => {
    for (const [name, content] of [
      ['a.jpeg', JPEG],
      ['b.JPG', JPEG],
      ['c.webp', WEBP],
      ['d.gif', Buffer.from('GIF89a0000', 'latin1')],
      ['e.bmp', Buffer.from('BM00000000', 'latin1')],
    ] as const) {
      expect((await upload(API_PATHS.uploadImage, name, content)).json().code, name).toBe(0);
    }
    for (const [name, content] of [
      ['report.pdf', PDF],
      ['form.DOCX', DOCX],
      ['sheet.xlsx', DOCX],
      ['archive.zip', DOCX],
      ['old.xls', Buffer.from('d0cf11e0a1b11ae10000', 'hex')],
      ['photo.png', PNG],
    ] as const) {
      expect((await upload(API_PATHS.uploadFile, name, content)).json().code, name).toBe(0);
    }
  });

  it('refuses an extension that is not on the list', async () => {
    for (const name of ['x.svg', 'x.html', 'x.exe', 'noext', 'x.png.exe']) {
      const res = await upload(API_PATHS.uploadFile, name, PNG);
      expect(res.json(), name).toEqual({
        code: 400,
        msg: '文件格式不正确',
        data: null,
        msgCode: 'badFileType',
        success: false,
      });
    }
    expect((await upload(API_PATHS.uploadImage, 'report.pdf', PDF)).json().msg).toBe('文件格式不正确');
  });

  it('refuses content whose first bytes do not match the extension', async () => {
    expect((await upload(API_PATHS.uploadImage, 'fake.jpg', PNG)).json().msg).toBe('文件格式不正确');
    expect((await upload(API_PATHS.uploadImage, 'fake.png', Buffer.from('<svg onload=alert(1)>'))).json().msg).toBe(
      '文件格式不正确',
    );
    expect((await upload(API_PATHS.uploadFile, 'fake.pdf', DOCX)).json().msg).toBe('文件格式不正确');
  });

  it('refuses a file over 10 MB', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]);
    const res = await upload(API_PATHS.uploadImage, 'big.png', big);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json()).toEqual({
      code: 413,
      msg: 'Please upload a file smaller than 10 MB',
      data: null,
      msgCode: 'fileTooBig',
      msgParams: { size: 10, unit: 'MB' },
      success: false,
    });
  });

  it('requires a valid token on every upload route, and stores nothing without one', async () => {
    const stored = async () => (await app.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM uploads`))?.n ?? 0;
    const before = await stored();
    const urls: string[] = [];
    for (const url of [API_PATHS.uploadImageUserCentre, API_PATHS.uploadImage, API_PATHS.uploadFile]) {
      const anonymous = await upload(url, 'a.png', PNG, { token: '' });
      expect(anonymous.statusCode, url).toBeLessThan(500);
      expect(anonymous.json(), url).toEqual({
        code: 401,
        msg: 'Your login has expired, please log in again',
        data: null,
        msgCode: 'loginExpired',
        success: false,
      });
      expect((await upload(url, 'a.png', PNG, { token: 'forged' })).json().code, url).toBe(401);
      const res = await upload(url, 'a.png', PNG);
      expect(res.json(), url).toMatchObject({
        code: 0,
        success: true,
        data: { url: expect.stringMatching(/^uploads\//) },
      });
      urls.push(res.json().data.url);
    }
    expect(await stored()).toBe(before + 3);
    for (const url of urls) expect(await app.files.has(uploadKey(url))).toBe(true);
  });

  it('records who uploaded what', async () => {
    const uploader = await newUserToken('13900000001');
    const res = await upload(API_PATHS.uploadFile, '张三 320102199001011234.pdf', PDF, { token: uploader });
    const stored = path.basename(res.json().data.url as string);
    const user = await app.repos.users.findByPhone('13900000001');
    expect(await app.repos.uploads.listForUser(user!.id)).toEqual([
      {
        userId: user!.id,
        storedName: stored,
        // The original name is kept with any ID number in it masked.
        originalName: '张三 3201**********1234.pdf',
        kind: 'file',
        bytes: PDF.length,
        sha256: createHash('sha256').update(PDF).digest('hex'),
        ip: '127.0.0.1',
        createdAt: clock.now(),
      },
    ]);
  });

  it('keeps a daily quota per user: 50 files, then 429 with Retry-After until the oldest is a day old', async () => {
    const busy = await newUserToken('13900000002');
    const other = await newUserToken('13900000003');
    for (let i = 0; i < UPLOAD_QUOTA.files; i += 1) {
      expect((await upload(API_PATHS.uploadImage, `p${i}.png`, PNG, { token: busy })).json().code).toBe(0);
      clock.advance(60_000);
    }
    const over = await upload(API_PATHS.uploadImage, 'one-more.png', PNG, { token: busy });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({
      code: 429,
      msg: 'Daily upload limit reached, please try again tomorrow',
      data: null,
      msgCode: 'uploadQuota',
      success: false,
    });
    expect(Number(over.headers['retry-after'])).toBe(24 * 3600 - 50 * 60);
    // Another runner is not affected; the first one may upload again once the oldest upload is a day old.
    expect((await upload(API_PATHS.uploadImage, 'b.png', PNG, { token: other })).json().code).toBe(0);
    clock.advance(24 * 3_600_000 - 50 * 60_000);
    expect((await upload(API_PATHS.uploadImage, 'again.png', PNG, { token: busy })).json().code).toBe(0);
  });

  it('keeps a daily quota of bytes per user', async () => {
    const heavy = await newUserToken('13900000004');
    const user = (await app.repos.users.findByPhone('13900000004'))!;
    const nearlyFull = UPLOAD_QUOTA.bytes - PNG.length + 1;
    await app.repos.uploads.reserve(
      {
        userId: user.id,
        storedName: 'earlier.png',
        originalName: 'earlier.png',
        kind: 'image',
        bytes: nearlyFull,
        sha256: '0'.repeat(64),
        ip: '127.0.0.1',
        createdAt: clock.now(),
      },
      UPLOAD_QUOTA,
    );
    const over = await upload(API_PATHS.uploadImage, 'c.png', PNG, { token: heavy });
    expect(over.statusCode).toBe(429);
    expect(over.json().msg).toBe('Daily upload limit reached, please try again tomorrow');
    expect(
      (await upload(API_PATHS.uploadImage, 'tiny.gif', Buffer.from('GIF89a', 'latin1'), { token: heavy })).json().code,
    ).toBe(0);
  });

  it('answers a request that is not a file upload in the envelope', async () => {
    const json = await app.inject({
      method: 'POST',
      url: API_PATHS.uploadImage,
      payload: { a: 1 },
      headers: { token },
    });
    expect(json.statusCode).toBeLessThan(500);
    expect(json.json().code).toBe(400);
    const broken = await app.inject({
      method: 'POST',
      url: API_PATHS.uploadImage,
      payload: 'garbage',
      headers: { 'content-type': 'multipart/form-data; boundary=x', token },
    });
    expect(broken.statusCode).toBeLessThan(500);
    expect(broken.json().code).not.toBe(0);
  });
});
