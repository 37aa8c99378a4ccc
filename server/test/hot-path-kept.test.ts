/**
 * The hot path keeps a route's public answers by the request's text (lib/hot-path.ts, HotRoute.kept): the
 * same body again is answered with the kept answer without reading the query or looking the cache up by key,
 * for exactly as long as the cache holds that answer (AnswerCache.live): not once it expired, was replaced,
 * pushed out or cleared. Each route keeps its own texts; an answer of another cache-control (a private one)
 * is never kept. Over a bare node:http server, with the engine-free HotPath alone.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AnswerCache } from '../src/lib/answer-cache.ts';
import { HotPath, type HotAnswer } from '../src/lib/hot-path.ts';
import { fakeClock } from './helpers.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

type Answer = (bib: string, path: string) => HotAnswer | Promise<HotAnswer>;

/** A HotPath with two routes on a bare server, answers kept from `cache`; `read` lists the bodies read. */
async function hotServer(cache: AnswerCache, answer: Answer) {
  const read: string[] = [];
  const hotPath = new HotPath();
  for (const path of ['/score', '/photos']) {
    hotPath.post<{ bib: string }>(path, {
      accept: (body) => {
        const bib = (body as { bib?: unknown }).bib;
        return typeof bib === 'string' ? { bib } : undefined;
      },
      acceptText: (text) => {
        read.push(`${path} ${text}`);
        return undefined;
      },
      answer: ({ bib }) => answer(bib, path),
      kept: { cache, cacheControl: 'public' },
    });
  }
  const server = createServer();
  server.on(
    'request',
    hotPath.listener(
      (_req, res) => res.writeHead(404).end(),
      (_req, res) => res.writeHead(400).end('replayed'),
    ),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const post = (body: string, path = '/score') =>
    new Promise<string>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json' } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return { post, read };
}

/** A route answer from `cache` under the key path + bib, made from `data()` on a miss. */
const cached =
  (cache: AnswerCache, data: (bib: string, path: string) => unknown, cacheControl = 'public'): Answer =>
  (bib, path) => {
    const answer = cache.remember(`${path}\n${bib}`, async () => data(bib, path));
    return answer instanceof Promise
      ? answer.then((made) => ({ answer: made, cacheControl }))
      : { answer, cacheControl };
  };

describe('hot path: public answers kept by the request text', () => {
  it('answers the same body again with what it sent, until the cache drops that answer', async () => {
    const clock = fakeClock();
    const cache = new AnswerCache({ ttlMs: 60_000, now: clock.now, maxEntries: 2 });
    let version = 1;
    const { post, read } = await hotServer(
      cache,
      cached(cache, (bib) => ({ bib, version })),
    );
    const body = '{"bib":"A1"}';
    expect(await post(body)).toBe('{"bib":"A1","version":1}');
    expect(await post(body)).toBe('{"bib":"A1","version":1}');
    expect(await post(body)).toBe('{"bib":"A1","version":1}');
    // Read once: the repeats went out as kept.
    expect(read).toEqual([`/score ${body}`]);
    // Another spelling of the same query is read, and answered from the cache.
    expect(await post('{ "bib": "A1" }')).toBe('{"bib":"A1","version":1}');
    expect(read).toHaveLength(2);

    // The data changed: the cache is cleared, and the kept answer is not sent again.
    version = 2;
    cache.clear();
    expect(await post(body)).toBe('{"bib":"A1","version":2}');
    expect(await post(body)).toBe('{"bib":"A1","version":2}');
    expect(read).toHaveLength(3);

    // Expired in the cache: read and made again.
    version = 3;
    clock.advance(60_000);
    expect(await post(body)).toBe('{"bib":"A1","version":3}');
    expect(read).toHaveLength(4);

    // Replaced in the cache (set again under its key): the replacement goes out.
    cache.set('/score\nA1', { bib: 'A1', version: 4 });
    expect(await post(body)).toBe('{"bib":"A1","version":4}');
    expect(read).toHaveLength(5);

    // Pushed out of the cache by newer answers (maxEntries 2): made again.
    version = 5;
    expect(await post('{"bib":"B2"}')).toBe('{"bib":"B2","version":5}');
    expect(await post('{"bib":"C3"}')).toBe('{"bib":"C3","version":5}');
    expect(await post(body)).toBe('{"bib":"A1","version":5}');
    expect(read).toHaveLength(8);
  });

  it('keeps each route’s texts apart: the same body on another route gets that route’s answer', async () => {
    const cache = new AnswerCache();
    const { post, read } = await hotServer(
      cache,
      cached(cache, (bib, path) => ({ bib, path })),
    );
    const body = '{"bib":"A1"}';
    expect(await post(body, '/score')).toBe('{"bib":"A1","path":"/score"}');
    expect(await post(body, '/photos')).toBe('{"bib":"A1","path":"/photos"}');
    expect(await post(body, '/score')).toBe('{"bib":"A1","path":"/score"}');
    expect(await post(body, '/photos')).toBe('{"bib":"A1","path":"/photos"}');
    expect(read).toEqual([`/score ${body}`, `/photos ${body}`]);
  });

  it('never keeps a private answer, nor one its cache did not keep (made while the cache was cleared)', async () => {
    const cache = new AnswerCache();
    let asked = 0;
    const { post: postPrivate, read } = await hotServer(
      cache,
      cached(cache, () => ({ asked: ++asked }), 'no-store'),
    );
    expect(await postPrivate('{"bib":"B2"}')).toBe('{"asked":1}');
    // Answered from the cache by key (the route's own rule), but read again: a no-store answer is not kept.
    expect(await postPrivate('{"bib":"B2"}')).toBe('{"asked":1}');
    expect(read).toHaveLength(2);

    const other = new AnswerCache();
    let made = 0;
    const { post } = await hotServer(other, async (bib) => {
      const answer = other.remember(bib, async () => ({ made: ++made }));
      // The data changes while the answer is being made: it goes to its caller, but is not stored.
      other.clear();
      return { answer: await answer, cacheControl: 'public' };
    });
    expect(await post('{"bib":"C3"}')).toBe('{"made":1}');
    expect(await post('{"bib":"C3"}')).toBe('{"made":2}');
  });
});
