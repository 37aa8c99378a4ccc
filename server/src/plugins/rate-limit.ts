/**
 * Per-IP sliding-window rate limits (in memory, one process). A route opts in with
 * `onRequest: app.rateLimit(LIMITS.login)`; over the limit it answers HTTP 429, the envelope
 * `{ code: 429, msg: 'Too many requests, please try again later' }` and Retry-After (seconds).
 * Disabled with RATE_LIMITS=off.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { fail, MESSAGES } from '../lib/envelope.ts';

export interface RateLimit {
  /** Bucket name: routes with the same name share one window per IP. */
  name: string;
  max: number;
  windowMs: number;
}

const MINUTE = 60_000;
export const LIMITS = {
  login: { name: 'login', max: 20, windowMs: MINUTE },
  register: { name: 'register', max: 10, windowMs: MINUTE },
  sendCode: { name: 'send-code', max: 10, windowMs: MINUTE },
  emailCheck: { name: 'email-check', max: 30, windowMs: MINUTE },
  captcha: { name: 'captcha', max: 60, windowMs: MINUTE },
  reset: { name: 'reset', max: 10, windowMs: MINUTE },
  upload: { name: 'upload', max: 30, windowMs: MINUTE },
  lookup: { name: 'lookup', max: 60, windowMs: MINUTE },
  certificate: { name: 'certificate', max: 60, windowMs: MINUTE },
  export: { name: 'export', max: 10, windowMs: MINUTE },
} as const satisfies Record<string, RateLimit>;

/** Above this many tracked keys, empty windows are swept before adding a new one. */
const SWEEP_AT = 10_000;

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

declare module 'fastify' {
  interface FastifyInstance {
    rateLimit(limit: RateLimit): onRequestAsyncHookHandler;
  }
}

export function tooManyRequests(reply: FastifyReply, retryAfterSeconds: number) {
  return reply
    .code(429)
    .header('retry-after', String(retryAfterSeconds))
    .header('cache-control', 'no-store')
    .send(fail(429, MESSAGES.tooManyRequests));
}

async function rateLimitPlugin(app: FastifyInstance, options: { enabled: boolean; now: () => number }) {
  const limiter = new SlidingWindowLimiter(options.now);
  app.decorate('rateLimit', (limit: RateLimit): onRequestAsyncHookHandler => {
    return async function limitByIp(request: FastifyRequest, reply: FastifyReply) {
      if (!options.enabled) return;
      const wait = limiter.hit(`${limit.name}|${request.ip}`, limit);
      if (wait > 0) await tooManyRequests(reply, wait);
    };
  });
}

export default fp(rateLimitPlugin, { name: 'rate-limit' });
