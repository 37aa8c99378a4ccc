/**
 * Per-IP sliding-window rate limits (IPv6 addresses grouped by /64, `rateLimitKey`). A route opts in with `onRequest: app.rateLimit(LIMITS.login)`; over the
 * limit it answers HTTP 429, the envelope `{ code: 429, msg: 'Too many requests, please try again in N seconds', msgCode: 'tooManyRequestsWait', msgParams: { seconds: N } }`
 * and Retry-After (seconds). Disabled with RATE_LIMITS=off.
 *
 * Account buckets (login, codes, registration, reset, uploads…) are counted in SQLite, so every worker
 * process of a multi-worker server (WORKERS) shares one window per IP. The race-day lookup buckets marked
 * `local` are counted in memory per process: they guard public, cached answers at thousands of requests a
 * second, where a database write per request would cost more than it protects.
 */
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
} from 'fastify';
import { isIPv4, isIPv6 } from 'node:net';
import fp from 'fastify-plugin';
import type { RateHitsRepository } from '../db/rate-hits-repository.ts';
import { fail } from '../lib/envelope.ts';

export interface RateLimit {
  /** Bucket name: routes with the same name share one window per IP. */
  name: string;
  max: number;
  windowMs: number;
  /** Counted in this process's memory only (per worker), for the hot lookup routes. */
  local?: boolean;
}

const MINUTE = 60_000;
/**
 * `login` is the account bucket: every call that tells whether a phone or e-mail has an account (password and
 * code login, register, both resets) counts in it, besides its own bucket where it has one.
 */
export const LIMITS = {
  login: { name: 'login', max: 20, windowMs: MINUTE },
  register: { name: 'register', max: 10, windowMs: MINUTE },
  sendCode: { name: 'send-code', max: 10, windowMs: MINUTE },
  emailCheck: { name: 'email-check', max: 30, windowMs: MINUTE },
  captcha: { name: 'captcha', max: 60, windowMs: MINUTE },
  reset: { name: 'reset', max: 10, windowMs: MINUTE },
  upload: { name: 'upload', max: 30, windowMs: MINUTE },
  lookup: { name: 'lookup', max: 60, windowMs: MINUTE, local: true },
  certificate: { name: 'certificate', max: 60, windowMs: MINUTE, local: true },
  export: { name: 'export', max: 10, windowMs: MINUTE },
} as const satisfies Record<string, RateLimit>;

/**
 * The key an address is counted under: an IPv4 address as it is (an IPv4-mapped IPv6 address as its IPv4
 * address), an IPv6 address as its /64 network (`2001:db8:1:2::/64`), since one subscriber commonly holds a
 * whole /64 and could otherwise take a fresh address for every request. Every per-IP count uses it: the
 * limits of the routes and of the hot path, and the per-IP code caps.
 */
export function rateLimitKey(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] !== undefined && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(address)) return ip;
  const groups = ipv6Groups(address);
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, in lower-case hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16).toString(16));
}

/** Above this many tracked keys, empty windows are swept before adding a new one. */
const SWEEP_AT = 10_000;

/** In-memory windows of one process. */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly now: () => number) {}

  /** Counts a hit; returns 0 when allowed, otherwise the seconds until the next hit would be allowed. */
  hit(key: string, limit: RateLimit): number {
    const now = this.now();
    const from = now - limit.windowMs;
    const list = (this.hits.get(key) ?? []).filter((t) => t > from);
    if (list.length >= limit.max) {
      this.hits.set(key, list);
      return Math.max(1, Math.ceil(((list[0] ?? now) + limit.windowMs - now) / 1000));
    }
    if (!this.hits.has(key) && this.hits.size >= SWEEP_AT) this.sweep(now);
    list.push(now);
    this.hits.set(key, list);
    return 0;
  }

  private sweep(now: number) {
    for (const [key, list] of this.hits) {
      if (list.every((t) => t <= now - 3_600_000)) this.hits.delete(key);
    }
  }
}

/**
 * Windows in the `rate_hits` table (db/rate-hits-repository.ts), shared by every process and instance on the
 * same database.
 */
export class SharedWindowLimiter {
  private hits = 0;

  constructor(
    private readonly rateHits: RateHitsRepository,
    private readonly now: () => number,
  ) {}

  /** Counts a hit; resolves to 0 when allowed, otherwise the seconds until the next hit would be allowed. */
  async hit(key: string, limit: RateLimit): Promise<number> {
    const now = this.now();
    // Keys of visitors who never came back are swept now and then (windows are at most an hour).
    if (++this.hits % 1000 === 0) await this.rateHits.sweep(now - 3_600_000);
    const refused = await this.rateHits.record(key, limit, now);
    return refused === null ? 0 : Math.max(1, Math.ceil(refused.retryAfterMs / 1000));
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The route's onRequest hooks for its limits, counted in order until one refuses (none when limits are
     * off: nothing on the hot path).
     */
    rateLimit(...limits: RateLimit[]): onRequestHookHandler[];
    /**
     * Counts a hit of an IP on a local (in-memory) limit, for requests answered outside Fastify's lifecycle
     * (lib/hot-path.ts): 0 when allowed, otherwise the seconds to wait. Undefined when limits are off.
     */
    rateLimitCounter(limit: RateLimit & { local: true }): ((ip: string) => number) | undefined;
  }
}

/** The 429 answer's headers and envelope (also sent by the hot path, lib/hot-path.ts). */
export function tooManyRequestsAnswer(retryAfterSeconds: number) {
  return {
    headers: { 'retry-after': String(retryAfterSeconds), 'cache-control': 'no-store' },
    envelope: fail(429, 'tooManyRequestsWait', { seconds: retryAfterSeconds }),
  };
}

export function tooManyRequests(reply: FastifyReply, retryAfterSeconds: number) {
  const answer = tooManyRequestsAnswer(retryAfterSeconds);
  return reply.code(429).headers(answer.headers).send(answer.envelope);
}

async function rateLimitPlugin(app: FastifyInstance, options: { enabled: boolean; now: () => number }) {
  const local = new SlidingWindowLimiter(options.now);
  const shared = new SharedWindowLimiter(app.repos.rateHits, options.now);
  const bucket = (limit: RateLimit, ip: string) => `${limit.name}|${rateLimitKey(ip)}`;
  app.decorate('rateLimitCounter', (limit: RateLimit & { local: true }) =>
    options.enabled ? (ip: string) => local.hit(bucket(limit, ip), limit) : undefined,
  );
  app.decorate('rateLimit', (...limits: RateLimit[]): onRequestHookHandler[] =>
    options.enabled
      ? limits.map((limit) =>
          limit.local
            ? function limitByIp(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
                const wait = local.hit(bucket(limit, request.ip), limit);
                if (wait > 0) void tooManyRequests(reply, wait);
                else done();
              }
            : async function limitByIpShared(request: FastifyRequest, reply: FastifyReply) {
                const wait = await shared.hit(bucket(limit, request.ip), limit);
                if (wait > 0) return tooManyRequests(reply, wait);
              },
        )
      : [],
  );
}

export default fp(rateLimitPlugin, { name: 'rate-limit', dependencies: ['db'] });
