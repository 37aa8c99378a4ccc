/**
 * Race-day cache of public answers (lookups keyed by a bib): the serialized envelope, plus its brotli and
 * gzip encodings made once on first demand, kept for the same 60 s the answer's `cache-control` allows a
 * browser or CDN to keep it. A hit skips the database, the certificate signature, serialization and
 * per-request compression. Past `maxEntries` the oldest entry goes first (every entry lives a minute at
 * most, so the oldest is also the nearest to expiry).
 *
 * Only answers that are the same for every caller may go in here: never anything keyed by a certificate
 * number or a token.
 */
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

type Encoding = 'br' | 'gzip' | 'identity';

/**
 * A serialized answer and, made on first demand, each encoding it has gone out in, with its headers.
 *
 * A race-day cache hit reads this one object before the bytes it sends: when it was stored and how the hot
 * path sent it last are fields of its own (not objects of their own), and its bytes lie in a shared slab.
 * With tens of thousands of runners' answers cached, each object a hit has to follow is a likely miss of the
 * processor's caches. Saving four of them took a bench lookup from about 36 to about 31 µs of server CPU
 * (two workers, measured from /proc).
 */
export interface EncodedAnswer {
  readonly body: Buffer;
  /** The body's length, read without touching the body. */
  readonly bytes: number;
  out: Partial<Record<Encoding, AnswerOut>> | undefined;
  /**
   * When its cache stored it: ms since the cache was made (a small integer, kept inline); DROPPED when no
   * cache holds it (never stored, or expired, replaced, pushed out or cleared since).
   */
  storedAt: number;
  /** How the hot path sent it last, for the same kind of request (lib/hot-path.ts): encoding, policy, scheme. */
  sentEncoding: Encoding | undefined;
  sentCacheControl: string | undefined;
  sentHttps: boolean;
  /** The headers (security headers included) and payload it went out with. */
  sentHeaders: Readonly<Record<string, string>> | undefined;
  sentPayload: Buffer | undefined;
}

/** EncodedAnswer.storedAt of an answer no cache holds (a small integer too, so the field keeps one shape). */
const DROPPED = -1;

/** Below this many bytes an answer goes out as is (as the compress plugin's threshold). */
const COMPRESS_FROM = 1024;

/** An answer's serialized form, every field set (all answers share one shape). */
function encoded(body: Buffer): EncodedAnswer {
  return {
    body,
    bytes: body.length,
    out: undefined,
    storedAt: DROPPED,
    sentEncoding: undefined,
    sentCacheControl: undefined,
    sentHttps: false,
    sentHeaders: undefined,
    sentPayload: undefined,
  };
}

export const encodeAnswer = (answer: unknown): EncodedAnswer => encoded(Buffer.from(JSON.stringify(answer)));

/** Cached answers' bytes are written one after another into slabs of this size. */
const SLAB_BYTES = 256 * 1024;
let slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
let slabUsed = 0;

/**
 * The JSON of an answer, written into the current slab (a new one when it is full): thousands of cached
 * answers then share a few array buffers instead of one each. A slab's memory is freed once no answer in it
 * is referenced any more. An answer too large for a slab gets a buffer of its own.
 */
function slabbed(json: string): Buffer {
  const length = Buffer.byteLength(json);
  if (length > SLAB_BYTES / 8) return Buffer.from(json);
  if (slabUsed + length > SLAB_BYTES) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    slabUsed = 0;
  }
  const bytes = slab.subarray(slabUsed, slabUsed + length);
  bytes.write(json);
  // The next answer starts on an 8-byte boundary.
  slabUsed += (length + 7) & ~7;
  return bytes;
}

/** The encoding an answer goes out in for an Accept-Encoding header: brotli, then gzip, then none. */
export function answerEncoding(answer: EncodedAnswer, acceptEncoding: string | undefined): Encoding {
  return (
    (answer.bytes >= COMPRESS_FROM && acceptEncoding !== undefined ? pickEncoding(acceptEncoding) : undefined) ??
    'identity'
  );
}

/** What an answer goes out as: its headers (content-length included) and payload. */
export interface AnswerOut {
  readonly headers: Readonly<Record<string, string>>;
  readonly payload: Buffer;
  /** These headers with the security headers of a plain [0] or an https [1] answer (lib/hot-path.ts). */
  secured?: [Readonly<Record<string, string>> | undefined, Readonly<Record<string, string>> | undefined];
}

/**
 * A JSON answer in the encoding the caller accepts (brotli, then gzip, then none). What it goes out as is
 * kept on the answer, so a cached answer is compressed, and its headers are made, once.
 */
export function answerOut(answer: EncodedAnswer, acceptEncoding: string | undefined, cacheControl: string): AnswerOut {
  const compressible = answer.bytes >= COMPRESS_FROM;
  const encoding = answerEncoding(answer, acceptEncoding);
  const kept = answer.out?.[encoding];
  if (kept !== undefined && kept.headers['cache-control'] === cacheControl) return kept;
  const payload =
    encoding === 'br'
      ? brotliCompressSync(answer.body, {
          params: {
            [zlibConstants.BROTLI_PARAM_QUALITY]: 6,
            [zlibConstants.BROTLI_PARAM_SIZE_HINT]: answer.body.length,
          },
        })
      : encoding === 'gzip'
        ? gzipSync(answer.body, { level: 6 })
        : answer.body;
  const out: AnswerOut = {
    headers: {
      'cache-control': cacheControl,
      'content-type': 'application/json; charset=utf-8',
      ...(compressible ? { vary: 'accept-encoding' } : {}),
      ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
      'x-content-type-options': 'nosniff',
      'content-length': String(payload.length),
    },
    payload,
  };
  (answer.out ??= {})[encoding] = out;
  return out;
}

/** Sends an answer through Fastify, for routes that opt out of the compress plugin (`compress: false`). */
export function sendAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: EncodedAnswer,
  cacheControl: string,
): FastifyReply {
  const accepted = request.headers['accept-encoding'];
  const out = answerOut(answer, typeof accepted === 'string' ? accepted : undefined, cacheControl);
  return reply.headers(out.headers).send(out.payload);
}

export interface AnswerCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

export class AnswerCache {
  private readonly entries = new Map<string, EncodedAnswer>();
  /** Answers being made: every caller of a key that is being looked up waits for the same one query. */
  private readonly pending = new Map<string, Promise<EncodedAnswer>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  /** The clock when the cache was made: answers are stamped with the time since (EncodedAnswer.storedAt). */
  private readonly born: number;
  /** Raised by clear(): an answer whose making began before it is not stored. */
  private epoch = 0;

  constructor(options: AnswerCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.maxEntries = options.maxEntries ?? 50_000;
    this.now = options.now ?? Date.now;
    this.born = this.now();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Serializes and stores an answer; returns the stored form. */
  set(key: string, answer: unknown): EncodedAnswer {
    const stored = encoded(slabbed(JSON.stringify(answer)));
    stored.storedAt = this.now() - this.born;
    const replaced = this.entries.get(key);
    if (replaced !== undefined) {
      replaced.storedAt = DROPPED;
      this.entries.delete(key);
    }
    this.entries.set(key, stored);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.entries().next();
      if (!oldest.done) {
        oldest.value[1].storedAt = DROPPED;
        this.entries.delete(oldest.value[0]);
      }
    }
    return stored;
  }

  /**
   * The live answer for a key (at once, no promise: the race-day hit stays synchronous), or else the one
   * `make` gives, stored. Callers asking for a key while its answer is being made share that one `make`
   * (a thousand runners asking for one bib cause one query); a failed `make` is not stored.
   */
  remember(key: string, make: () => Promise<unknown>): EncodedAnswer | Promise<EncodedAnswer> {
    const live = this.get(key);
    if (live !== undefined) return live;
    const waiting = this.pending.get(key);
    if (waiting !== undefined) return waiting;
    const epoch = this.epoch;
    const made = make()
      // An answer made from data older than a clear() goes to its callers but is not kept.
      .then((answer) => (this.epoch === epoch ? this.set(key, answer) : encodeAnswer(answer)))
      .finally(() => {
        if (this.pending.get(key) === made) this.pending.delete(key);
      });
    this.pending.set(key, made);
    return made;
  }

  /** Drops every answer (the data behind them changed); answers being made meanwhile are not kept. */
  clear(): void {
    this.epoch++;
    for (const answer of this.entries.values()) answer.storedAt = DROPPED;
    this.entries.clear();
    this.pending.clear();
  }

  /** The live answer for a key, or undefined. */
  get(key: string): EncodedAnswer | undefined {
    const answer = this.entries.get(key);
    if (answer === undefined) return undefined;
    if (this.live(answer)) return answer;
    answer.storedAt = DROPPED;
    this.entries.delete(key);
    return undefined;
  }

  /**
   * Whether an answer this cache gave is still the one it gives for its key: stored, and not expired,
   * replaced, pushed out or cleared since. The hot path asks this of an answer it kept by a request's text
   * (lib/hot-path.ts, HotRoute.kept) instead of making the key again and looking it up.
   */
  live(answer: EncodedAnswer): boolean {
    return answer.storedAt !== DROPPED && this.now() - this.born - answer.storedAt < this.ttlMs;
  }
}
const picked = new Map<string, 'br' | 'gzip' | 'identity'>();

/** br or gzip when the Accept-Encoding header allows it (q=0 refuses), else undefined. */
export function pickEncoding(header: string): 'br' | 'gzip' | undefined {
  // Browsers send a handful of distinct headers: each is read once.
  let encoding = picked.get(header);
  if (encoding === undefined) {
    encoding = readAcceptEncoding(header) ?? 'identity';
    if (picked.size < 256 && header.length < 200) picked.set(header, encoding);
  }
  return encoding === 'identity' ? undefined : encoding;
}

function readAcceptEncoding(header: string): 'br' | 'gzip' | undefined {
  let gzip = false;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const refused = params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p));
    if (refused) continue;
    if (name === 'br') return 'br';
    if (name === 'gzip' || name === '*') gzip = true;
  }
  return gzip ? 'gzip' : undefined;
}
