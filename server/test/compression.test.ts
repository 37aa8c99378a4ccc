import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { buildTestApp, removeTempDirs, tempDir } from './helpers.ts';

const SEED = path.resolve(import.meta.dirname, '../seed');

afterAll(removeTempDirs);

describe('compression', () => {
  it('serves the published site configuration compressed to clients that accept it', async () => {
    const app = await buildTestApp({ dataDir: tempDir(), seedDir: SEED });
    const lookup = await app.inject({ url: API_PATHS.siteConfigLookup, query: { domainName: 'localhost' } });
    const { uri } = lookup.json().data as { uri: string };
    const plain = await app.inject({ url: uri });
    const gz = await app.inject({ url: uri, headers: { 'accept-encoding': 'gzip' } });
    const br = await app.inject({ url: uri, headers: { 'accept-encoding': 'br, gzip' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(plain.body);
    expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    // The publisher's brotli copy (best quality, made once), smaller still than gzip.
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(gz.rawPayload.length * 0.85);
    expect(br.headers.vary).toContain('accept-encoding');
    await app.close();
    // It seeds the whole demo event (30,000 runners) and compresses its configuration at brotli's best.
  });
});
