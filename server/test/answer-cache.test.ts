import { describe, expect, it } from 'vitest';
import { AnswerCache, pickEncoding } from '../src/lib/answer-cache.ts';
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
