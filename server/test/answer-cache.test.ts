import { describe, expect, it } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { AnswerCache, answerOut, encodeAnswer, pickEncoding } from '../src/lib/answer-cache.ts';
import { fakeClock } from './helpers.ts';

describe('AnswerCache', () => {
  it('keeps an answer for its time to live, then forgets it', () => {
    const clock = fakeClock();
    const cache = new AnswerCache({ ttlMs: 60_000, now: clock.now });
    cache.set('a', { code: 0, data: 1 });
    clock.advance(59_999);
    expect(cache.get('a')?.body.toString()).toBe('{"code":0,"data":1}');
    clock.advance(1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('remembers a made answer until it expires, then makes it again', async () => {
    const clock = fakeClock();
    const cache = new AnswerCache({ ttlMs: 60_000, now: clock.now });
    let made = 0;
    const make = async () => ({ n: ++made });
    expect((await cache.remember('a', make)).body.toString()).toBe('{"n":1}');
    clock.advance(59_999);
    expect((await cache.remember('a', make)).body.toString()).toBe('{"n":1}');
    clock.advance(1);
    expect((await cache.remember('a', make)).body.toString()).toBe('{"n":2}');
    expect(made).toBe(2);
  });

  it('drops every answer on clear(), and does not keep one whose making began before it', async () => {
    const cache = new AnswerCache();
    cache.set('a', { v: 1 });
    let release: (value: unknown) => void = () => undefined;
    const making = cache.remember('b', () => new Promise((resolve) => (release = resolve)));
    cache.clear();
    expect(cache.size).toBe(0);
    release({ v: 'old' });
    // The caller still gets its answer, but the cache does not keep what the old data made.
    expect(JSON.parse((await making).body.toString())).toEqual({ v: 'old' });
    expect(cache.get('b')).toBeUndefined();
    const fresh = cache.remember('b', async () => ({ v: 'new' }));
    expect(JSON.parse((await fresh).body.toString())).toEqual({ v: 'new' });
    expect(cache.get('b')).toBeDefined();
  });

  it('keeps every stored answer whole across many shared slabs, a large one included', () => {
    const cache = new AnswerCache({ maxEntries: 10_000 });
    // About 700 bytes each (Chinese text is 3 bytes a character): 2,000 of them fill several 256 KB slabs.
    const answerOf = (i: number) => ({ code: 0, data: { i, name: `陈磊${i}`, pad: 'x'.repeat(600 + (i % 37)) } });
    for (let i = 0; i < 2000; i++) cache.set(`k${i}`, answerOf(i));
    const large = { code: 0, data: 'y'.repeat(100_000) };
    cache.set('large', large);
    for (let i = 0; i < 2000; i++) {
      const stored = cache.get(`k${i}`)!;
      expect(stored.bytes).toBe(stored.body.length);
      expect(JSON.parse(stored.body.toString())).toEqual(answerOf(i));
    }
    expect(JSON.parse(cache.get('large')!.body.toString())).toEqual(large);
  });

  it('drops the oldest answer past its size', () => {
    const cache = new AnswerCache({ maxEntries: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')?.body.toString()).toBe('2');
    expect(cache.get('c')?.body.toString()).toBe('3');
    cache.set('b', 22);
    cache.set('d', 4);
    expect(cache.get('c')).toBeUndefined();
    expect(cache.get('b')?.body.toString()).toBe('22');
    expect(cache.size).toBe(2);
  });
});

describe('answerOut', () => {
  const big = { code: 0, data: 'x'.repeat(2000) };

  it('sends what the caller accepts, compressed and with its headers made once', () => {
    const answer = encodeAnswer(big);
    const br = answerOut(answer, 'gzip, deflate, br', 'public, max-age=60');
    expect(br.headers).toEqual({
      'cache-control': 'public, max-age=60',
      'content-type': 'application/json; charset=utf-8',
      vary: 'accept-encoding',
      'content-encoding': 'br',
      'x-content-type-options': 'nosniff',
      'content-length': String(br.payload.length),
    });
    expect(JSON.parse(brotliDecompressSync(br.payload).toString())).toEqual(big);
    expect(answerOut(answer, 'br', 'public, max-age=60')).toBe(br);
    const gzip = answerOut(answer, 'gzip', 'public, max-age=60');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.payload).toString())).toEqual(big);
    const plain = answerOut(answer, undefined, 'public, max-age=60');
    expect(plain.payload).toBe(answer.body);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    expect(answerOut(answer, 'br', 'no-store').headers['cache-control']).toBe('no-store');
  });

  it('sends a small answer as it is, without vary', () => {
    const answer = encodeAnswer({ code: 404, data: null });
    const out = answerOut(answer, 'br', 'no-store');
    expect(out.payload).toBe(answer.body);
    expect(out.headers.vary).toBeUndefined();
    expect(out.headers['content-encoding']).toBeUndefined();
  });
});

describe('pickEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip;q=0.8', 'gzip'],
    ['gzip;q=0', undefined],
    ['identity', undefined],
    ['*', 'gzip'],
    ['', undefined],
  ])('%j → %s', (header, expected) => {
    expect(pickEncoding(header)).toBe(expected);
    expect(pickEncoding(header)).toBe(expected);
  });
});
