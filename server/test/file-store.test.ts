import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { openDatabase } from '../src/db/database.ts';
import { publishSiteConfig } from '../src/db/site-config-publisher.ts';
import { FileKeyError, fileStorageFor, folderFileStore, siteConfigKey, type FileStore } from '../src/lib/file-store.ts';
import { DEMO, passwordLogin } from './account-helpers.ts';
import { buildTestApp, databaseFor, FIXTURE_SEED, ON_POSTGRES, removeTempDirs, tempDir, testEnv } from './helpers.ts';

const NOW = Date.UTC(2025, 5, 16, 2, 0, 0);
/** Every byte value, then random bytes: what goes in comes out unchanged. */
const BINARY = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(64 * 1024)]);
const BAD_KEYS = [
  '',
  '/etc/passwd',
  '../race-site.db',
  'uploads/../../race-site.db',
  'uploads/./a.png',
  'uploads//a.png',
  'uploads/',
  'uploads\\..\\a.png',
  'uploads/a\u0000.png',
  'x'.repeat(1025),
];

afterAll(() => removeTempDirs());

/** The same behaviour from both stores. */
function storeContract(name: string, open: () => Promise<{ store: FileStore; close: () => Promise<void> }>) {
  describe(name, () => {
    let store: FileStore;
    let close: () => Promise<void>;
    beforeAll(async () => ({ store, close } = await open()));
    afterAll(async () => close());

    it('gives back exactly the bytes it was given, as a Buffer', async () => {
      await store.put('uploads/uploads/a.bin', BINARY);
      const back = await store.get('uploads/uploads/a.bin');
      expect(Buffer.isBuffer(back)).toBe(true);
      expect(back!.equals(BINARY)).toBe(true);
      expect(await store.has('uploads/uploads/a.bin')).toBe(true);
    });

    it('answers undefined and false for a key that was never stored', async () => {
      expect(await store.get('uploads/uploads/never.png')).toBeUndefined();
      expect(await store.has('uploads/uploads/never.png')).toBe(false);
      expect(await store.get('uploads/uploads')).toBeUndefined(); // a folder of the folder store is no file
    });

    it('keeps the first bytes of a key: putting it again changes nothing', async () => {
      const key = siteConfigKey('0123456789abcdef0123456789abcdef');
      await store.put(key, Buffer.from('first'));
      await store.put(key, Buffer.from('first'));
      await store.put(key, Buffer.from('second'));
      expect((await store.get(key))?.toString()).toBe('first');
    });

    it('replaces the bytes of a key only when asked to (an asset replaced under its name), listed once', async () => {
      const key = 'uploads/assets/race-x/logo.png';
      await store.replace(key, Buffer.from('new key'));
      expect((await store.get(key))?.toString()).toBe('new key');
      await store.replace(key, Buffer.from('replaced'));
      expect((await store.get(key))?.toString()).toBe('replaced');
      expect(await store.list('uploads/assets/race-x/')).toEqual([key]);
    });

    it('stores an empty file', async () => {
      await store.put('uploads/empty.txt', Buffer.alloc(0));
      expect((await store.get('uploads/empty.txt'))?.length).toBe(0);
    });

    it('removes a key, and removing a missing key is no error', async () => {
      await store.put('uploads/gone.png', Buffer.from('x'));
      await store.remove('uploads/gone.png');
      expect(await store.has('uploads/gone.png')).toBe(false);
      await expect(store.remove('uploads/gone.png')).resolves.toBeUndefined();
    });

    it('refuses keys that are absolute, climb out or are not plain segments', async () => {
      for (const key of BAD_KEYS) {
        await expect(store.put(key, Buffer.from('x')), key).rejects.toBeInstanceOf(FileKeyError);
        await expect(store.get(key), key).rejects.toBeInstanceOf(FileKeyError);
        await expect(store.has(key), key).rejects.toBeInstanceOf(FileKeyError);
        await expect(store.remove(key), key).rejects.toBeInstanceOf(FileKeyError);
      }
    });
  });
}

storeContract('the folder store', async () => ({
  store: folderFileStore(tempDir()),
  close: async () => undefined,
}));

storeContract(`the database store (on ${ON_POSTGRES ? 'PostgreSQL' : 'SQLite'})`, async () => {
  const opened = await openDatabase({
    dataDir: tempDir(),
    seedDir: tempDir(), // no seed
    now: NOW,
    env: await testEnv({ FILE_STORAGE: 'database' }),
  });
  expect(opened.files.kind).toBe('database');
  return { store: opened.files, close: () => opened.db.close() };
});

describe('the folder store on disk', () => {
  it('keeps the layout of data folders: a key is the path under the root, written whole (no temporary left)', async () => {
    const root = tempDir();
    const store = folderFileStore(root);
    await store.put('site-configs/abc.json', Buffer.from('{}'));
    await store.put('uploads/uploads/p.png', Buffer.from('png'));
    expect(readFileSync(path.join(root, 'site-configs', 'abc.json'), 'utf8')).toBe('{}');
    expect(readdirSync(path.join(root, 'site-configs'))).toEqual(['abc.json']);
    expect(readdirSync(path.join(root, 'uploads', 'uploads'))).toEqual(['p.png']);
  });

  it('reads files already in an existing data folder', async () => {
    const root = tempDir();
    mkdirSync(path.join(root, 'uploads', '2025'), { recursive: true });
    writeFileSync(path.join(root, 'uploads', '2025', 'a.png'), 'old');
    expect((await folderFileStore(root).get('uploads/2025/a.png'))?.toString()).toBe('old');
  });
});

describe('where files are kept (FILE_STORAGE, FILES_DIR)', () => {
  const dataDir = path.resolve('/srv/data');
  it('keeps them in the data folder on SQLite, or in FILES_DIR', () => {
    expect(fileStorageFor('sqlite', dataDir, {})).toEqual({ kind: 'folder', root: dataDir });
    expect(fileStorageFor('sqlite', dataDir, { FILES_DIR: '/mnt/files' })).toEqual({
      kind: 'folder',
      root: path.resolve('/mnt/files'),
    });
    expect(fileStorageFor('sqlite', dataDir, { FILE_STORAGE: 'database' })).toEqual({ kind: 'database' });
  });

  it('keeps them in the database on PostgreSQL, unless FILES_DIR names a shared folder or FILE_STORAGE says folder', () => {
    expect(fileStorageFor('postgres', dataDir, {})).toEqual({ kind: 'database' });
    expect(fileStorageFor('postgres', dataDir, { FILES_DIR: '/mnt/files' })).toEqual({
      kind: 'folder',
      root: path.resolve('/mnt/files'),
    });
    expect(fileStorageFor('postgres', dataDir, { FILE_STORAGE: 'folder' })).toEqual({ kind: 'folder', root: dataDir });
    expect(fileStorageFor('postgres', dataDir, { FILE_STORAGE: 'database', FILES_DIR: '/mnt/files' })).toEqual({
      kind: 'database',
    });
  });
});

describe('any instance serves any file (FILE_STORAGE=database)', () => {
  const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), randomBytes(512)]);
  const DOCUMENT = readFileSync(path.join(FIXTURE_SEED, 'site-configs', 'localhost.json'), 'utf8').replace(
    '2025 测试马拉松',
    '2025 共享存储马拉松',
  );
  let first: FastifyInstance;
  let second: FastifyInstance;
  let dataDir: string;
  let emptyFolder: string;

  beforeAll(async () => {
    dataDir = tempDir();
    emptyFolder = tempDir();
    // FILES_DIR is ignored by the database store; pointing it at an empty folder shows nothing comes from disk.
    const env = { FILE_STORAGE: 'database', FILES_DIR: emptyFolder, RATE_LIMITS: 'off' };
    first = await buildTestApp({ dataDir, env });
    // Another instance on the same database: on PostgreSQL a data folder of its own; on SQLite the database
    // file is in the data folder, so it shares that, with nothing of the files in it.
    second = await buildTestApp({
      dataDir: ON_POSTGRES ? tempDir() : dataDir,
      databaseUrl: await databaseFor(dataDir),
      env,
    });
  });

  afterEach(() => {
    // Nothing was written to a folder: not to FILES_DIR, not to the data folder.
    expect(readdirSync(emptyFolder)).toEqual([]);
    expect(existsSync(path.join(dataDir, 'site-configs'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'uploads'))).toBe(false);
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('serves a site config published through one instance from the other, with its brotli copy', async () => {
    expect(first.files.kind).toBe('database');
    const published = await publishSiteConfig({
      siteConfigs: first.repos.siteConfigs,
      files: first.files,
      domainName: 'shared.example',
      bytes: Buffer.from(DOCUMENT),
      now: NOW,
    });
    const lookup = await second.inject({
      url: API_PATHS.siteConfigLookup,
      query: { domainName: 'shared.example' },
    });
    expect(lookup.json().data).toMatchObject({ fileMd5: published.md5, uri: published.uri });

    const plain = await second.inject({ url: published.uri });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toContain('immutable');
    expect(plain.headers.etag).toBe(`"${published.md5}"`);
    expect(plain.body).toBe(DOCUMENT);
    expect(createHash('md5').update(plain.rawPayload).digest('hex')).toBe(published.md5);

    const br = await second.inject({ url: published.uri, headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(DOCUMENT);

    // Served again from memory, the same bytes.
    expect((await second.inject({ url: published.uri })).body).toBe(DOCUMENT);
  });

  it('serves the demo seed published on first start from the other instance', async () => {
    const { data } = (
      await second.inject({ url: API_PATHS.siteConfigLookup, query: { domainName: 'localhost' } })
    ).json();
    const doc = await second.inject({ url: data.uri });
    expect(doc.statusCode).toBe(200);
    expect(createHash('md5').update(doc.rawPayload).digest('hex')).toBe(data.fileMd5);
  });

  it('serves a file uploaded to one instance from the other, with the headers of a stored file', async () => {
    const token = (await passwordLogin(first, DEMO.phone, DEMO.password)).json().data.token as string;
    const boundary = '----race-site-file-store';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\n` +
          'Content-Type: image/png\r\n\r\n',
      ),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await first.inject({
      method: 'POST',
      url: API_PATHS.uploadImage,
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, token },
    });
    expect(uploaded.statusCode).toBe(200);
    const { path: served } = uploaded.json().data as { path: string };

    // To its uploader only, never cached (issue 27).
    const res = await second.inject({ url: served, headers: { token } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PNG)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect((await second.inject({ url: served })).statusCode).toBe(404);
  });

  it('answers 404 envelopes for files no instance stored and for keys outside the store', async () => {
    for (const url of [
      '/files/uploads/missing.png',
      '/files/%2e%2e/race-site.db',
      '/files/.secret',
      '/files/uploads/',
    ]) {
      const res = await second.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ code: 404, data: null });
    }
  });
});
