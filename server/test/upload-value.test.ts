import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { hashPassword } from '../src/lib/password-hash.ts';
import { checkUploadValue, storedNameOf, type UploadLimits } from '../src/lib/upload-value.ts';
import { DEMO, passwordLogin } from './account-helpers.ts';
import { buildTestApp, FIXTURES, multipart, removeTempDirs } from './helpers.ts';

/** Real tiny images (fixtures/images): each name starts with its width x height. */
const image = (name: string) => readFileSync(path.join(FIXTURES, 'images', name));
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n', 'latin1'), Buffer.alloc(3000, 0x20)]);

let app: FastifyInstance;
let demo: { id: number; token: string };
let other: { id: number; token: string };

async function account(phone: string, password: string) {
  const token = (await passwordLogin(app, phone, password)).json().data.token as string;
  return { id: (await app.repos.users.findByPhone(phone))!.id, token };
}

/** Uploads through the real upload call; answers data.url. */
async function upload(who: { token: string }, url: string, filename: string, content: Buffer): Promise<string> {
  const body = multipart(filename, content);
  const res = await app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, token: who.token },
  });
  expect(res.json().code, filename).toBe(0);
  return res.json().data.url as string;
}

const check = (value: unknown, limits: Partial<UploadLimits>, who = demo) =>
  checkUploadValue(
    value,
    { kind: 'file', maxSize: { size: 0, unit: 'MB' }, maxCount: 0, ...limits },
    { userId: who.id, uploads: app.repos.uploads, files: app.files },
  );

let png3x2: string;
let jpg5x4: string;
let pdf: string;
let othersPng: string;

beforeAll(async () => {
  app = await buildTestApp({ env: { RATE_LIMITS: 'off' } });
  await app.repos.users.create(
    { phone: '13900139000', passwordHash: await hashPassword('Secret123') },
    app.config.now(),
  );
  demo = await account(DEMO.phone, DEMO.password);
  other = await account('13900139000', 'Secret123');
  png3x2 = await upload(demo, API_PATHS.uploadImageUserCentre, '3x2.png', image('3x2.png'));
  jpg5x4 = await upload(demo, API_PATHS.uploadImage, 'Photo.JPG', image('4x5-exif-rotated.jpg'));
  pdf = await upload(demo, API_PATHS.uploadFile, 'form.pdf', PDF);
  othersPng = await upload(other, API_PATHS.uploadImageUserCentre, 'mine.png', image('3x2.png'));
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

describe('checkUploadValue', () => {
  it("passes the user's own uploads, by the URL the upload answered or its /files/ path, and an empty value", async () => {
    expect(await check(`${png3x2},${pdf}`, {})).toBeNull();
    expect(await check(` /files/${png3x2} , ${pdf} `, {})).toBeNull();
    expect(await check('', {})).toBeNull();
    expect(await check(undefined, {})).toBeNull();
  });

  it("refuses anyone else's upload, a made-up or foreign URL, and a value that is not a string (badUpload)", async () => {
    for (const value of [
      othersPng,
      `${png3x2},${othersPng}`,
      'uploads/00000000-0000-0000-0000-000000000000.png',
      'https://example.com/uploads/x.png',
      `uploads/../${png3x2}`,
      `demo/${png3x2.split('/')[1]}`,
      42,
      ['uploads/x.png'],
    ]) {
      expect(await check(value, {}), String(value)).toEqual({ code: 'badUpload' });
    }
    // The other user's own file is theirs.
    expect(await check(othersPng, {}, other)).toBeNull();
  });

  it("refuses more files than the field's count ('文件超出N个限制'); 0 is no limit", async () => {
    expect(await check(`${png3x2},${pdf}`, { maxCount: 1 })).toEqual({ code: 'tooManyFiles', params: { count: 1 } });
    expect(await check(`${png3x2},${pdf}`, { maxCount: 2 })).toBeNull();
    expect(await check(`${png3x2},${pdf},${jpg5x4}`, { maxCount: 0 })).toBeNull();
  });

  it("refuses a stored file whose type is not the field kind's ('文件格式不正确')", async () => {
    expect(await check(pdf, { kind: 'image' })).toEqual({ code: 'badFileType' });
    expect(await check(`${png3x2},${jpg5x4}`, { kind: 'image' })).toBeNull();
  });

  it("refuses a stored file over the field's size ('Please upload a file smaller than N unit'); 0 is no limit", async () => {
    expect(await check(pdf, { maxSize: { size: 2, unit: 'KB' } })).toEqual({
      code: 'fileTooBig',
      params: { size: 2, unit: 'KB' },
    });
    expect(await check(pdf, { maxSize: { size: 3, unit: 'KB' } })).toBeNull();
    expect(await check(pdf, { maxSize: { size: 0, unit: 'B' } })).toBeNull();
  });

  it('measures stored images: exactly the required px, else the required and actual px', async () => {
    expect(await check(png3x2, { kind: 'image', imageSize: { width: 3, height: 2 } })).toBeNull();
    // A JPEG whose EXIF turns it a quarter is measured as shown: 4 x 5.
    expect(await check(`${png3x2},${jpg5x4}`, { kind: 'image', imageSize: { width: 3, height: 2 } })).toEqual({
      code: 'imageSizeMismatch',
      params: { width: 3, height: 2, actualWidth: 4, actualHeight: 5 },
    });
    expect(await check(jpg5x4, { kind: 'image', imageSize: { width: 4, height: 5 } })).toBeNull();
  });

  it('checks in the order of the upload field: count, then each file (owner, type, size, px)', async () => {
    expect(await check(`${othersPng},${pdf}`, { maxCount: 1 })).toEqual({ code: 'tooManyFiles', params: { count: 1 } });
    expect(await check(`${pdf},${othersPng}`, { kind: 'image' })).toEqual({ code: 'badFileType' });
  });
});

describe('storedNameOf', () => {
  it('reads the stored name of this server’s upload URLs only', () => {
    expect(storedNameOf('uploads/a1b2.png')).toBe('a1b2.png');
    expect(storedNameOf('/files/uploads/a1b2.png')).toBe('a1b2.png');
    for (const url of [
      'uploads/',
      'uploads/a/b.png',
      'uploads/..',
      'uploads/.hidden',
      'files/uploads/x.png',
      'x.png',
    ]) {
      expect(storedNameOf(url), url).toBeNull();
    }
  });
});
