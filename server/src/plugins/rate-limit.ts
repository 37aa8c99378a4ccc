/**
 * Per-IP sliding-window rate limits (IPv6 addresses grouped by /64, `rateLimitKey`). A route opts in with `onRequest: app.rateLimit(LIMITS.login)`; over the
 * limit it answers HTTP 429, the envelope `{ code: 429, msg: 'Too many requests, please try again in N seconds', msgCode: 'tooManyRequestsWait', msgParams: { seconds: N } }`
 * and Retry-After (seconds). A call may also count the logged-in account (`rateLimitAccount`). Disabled with
 * RATE_LIMITS=off.
 *
 * Account buckets (login, codes, registration, reset, uploads…) are counted in the database under a per-key
 * lock, so every worker process and every instance on the same database shares one window per IP. The
 * race-day lookup buckets marked `local` guard public, cached answers at thousands of requests a second,
 * where a database write per request would cost more than it protects: they are decided in memory and
 * shared through per-second counts synced every second (SyncedWindowLimiter).
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
import type { RateCount, RateCountsRepository } from '../db/rate-counts-repository.ts';
import type { RateHitsRepository } from '../db/rate-hits-repository.ts';
import { tooManyRequestsAnswer } from '../lib/envelope.ts';

export interface RateLimit {
  /** Bucket name: routes with the same name share one window per IP. */
  name: string;
  max: number;
  windowMs: number;
  /**
   * Decided in this process's memory and shared with the other processes and instances every second
   * (SyncedWindowLimiter), for the hot lookup routes.
   */
  local?: boolean;
}

const MINUTE = 60_000;
/** How often the local (lookup) limits are shared with the other instances. */
const SYNC_MS = 1000;
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
  /**
   * Sign-up submissions (docs/entry-limits.md): per address generous, so that hundreds of runners behind one
   * campus or office NAT all get in at a registration opening; per account (`rateLimitAccount`) tight.
   */
  entrySubmit: { name: 'entry-submit', max: 600, windowMs: MINUTE },
  entrySubmitAccount: { name: 'entry-submit-account', max: 10, windowMs: MINUTE },
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

/** One bucket key of a synced limit in this process. */
interface SyncedKey {
  limit: RateLimit;
  /** This process's hits in the window (epoch ms, oldest first). */
  own: number[];
  /** Own hits not yet added to the shared counts. */
  unflushed: number;
  /** Own hits added to the shared counts: [epoch second, hits]. */
  flushed: [number, number][];
  /** Hits of the other instances in the window, as of the last sync. */
  others: number;
}

/**
 * The race-day lookup limits (`local` buckets), shared by every instance without a database round trip per
 * request: a hit is decided in memory at once (this process's hits in the window plus the other instances'
 * hits as of the last sync), and `sync` (every second) adds this process's new hits to the shared per-second
 * counts (`rate_counts`) and reads back every active key's sum over its window. Across instances a window is
 * thus up to one sync late: N instances may together let through at most what each can take in one sync
 * interval beyond the limit, where separate per-process windows let through N times the limit.
 */
export class SyncedWindowLimiter {
  private readonly keys = new Map<string, SyncedKey>();
  private syncs = 0;
  /** The sync under way: syncs run one after another (see `sync`). */
  private running: Promise<void> | undefined;

  constructor(
    private readonly counts: RateCountsRepository | undefined,
    private readonly now: () => number,
  ) {}

  /** Counts a hit; returns 0 when allowed, otherwise the seconds until the next hit would be allowed. */
  hit(key: string, limit: RateLimit): number {
    const now = this.now();
    let state = this.keys.get(key);
    if (state === undefined) {
      if (this.keys.size >= SWEEP_AT) this.forgetIdle(now);
      state = { limit, own: [], unflushed: 0, flushed: [], others: 0 };
      this.keys.set(key, state);
    }
    const { own } = state;
    const from = now - limit.windowMs;
    while (own.length > 0 && own[0]! <= from) own.shift();
    if (own.length + state.others >= limit.max) {
      // When only other instances' hits fill the window, its oldest is not known here: a whole window.
      const oldest = own.length > 0 && state.others === 0 ? own[0]! : now;
      return Math.max(1, Math.ceil((oldest + limit.windowMs - now) / 1000));
    }
    own.push(now);
    state.unflushed++;
    return 0;
  }

  /** Whether a sync is under way (the timer skips a beat rather than queue syncs behind a slow database). */
  get syncing(): boolean {
    return this.running !== undefined;
  }

  /**
   * Adds this process's new hits to the shared counts and reads back the other instances' hits. Syncs run one
   * after another: two at once would each read the sums while the other's hits were counted as flushed here but
   * not yet added there, and the one finishing last would leave the other instances' hits short.
   */
  sync(): Promise<void> {
    const previous = this.running ?? Promise.resolve();
    const next = previous.then(() => this.syncOnce());
    const running = next.then(
      () => undefined,
      () => undefined,
    );
    this.running = running;
    void running.then(() => {
      if (this.running === running) this.running = undefined;
    });
    return next;
  }

  private async syncOnce(): Promise<void> {
    if (this.counts === undefined) return;
    const now = this.now();
    const second = Math.floor(now / 1000);
    const added: RateCount[] = [];
    for (const [key, state] of this.keys) {
      if (state.unflushed === 0) continue;
      added.push({ key, second, n: state.unflushed });
      state.flushed.push([second, state.unflushed]);
      state.unflushed = 0;
    }
    if (added.length > 0) await this.counts.add(added);
    // One read per window length (the lookup buckets share one), over every key active in this process.
    const byWindow = new Map<number, string[]>();
    for (const [key, state] of this.keys) {
      const keys = byWindow.get(state.limit.windowMs) ?? [];
      keys.push(key);
      byWindow.set(state.limit.windowMs, keys);
    }
    for (const [windowMs, keys] of byWindow) {
      const fromSecond = Math.floor((now - windowMs) / 1000);
      const sums = await this.counts.sums(keys, fromSecond);
      for (const key of keys) {
        const state = this.keys.get(key);
        if (state === undefined) continue;
        state.flushed = state.flushed.filter(([at]) => at > fromSecond);
        const mine = state.flushed.reduce((sum, [, n]) => sum + n, 0);
        state.others = Math.max(0, (sums.get(key) ?? 0) - mine);
      }
    }
    this.forgetIdle(now);
    // Seconds older than an hour (the longest window) are of no use to any instance.
    if (++this.syncs % 60 === 0) await this.counts.sweep(second - 3600);
  }

  /** Forgets keys with no hit left in their window, here or elsewhere. */
  private forgetIdle(now: number) {
    for (const [key, state] of this.keys) {
      const last = state.own[state.own.length - 1];
      if (state.others === 0 && state.unflushed === 0 && (last === undefined || last <= now - state.limit.windowMs)) {
        this.keys.delete(key);
      }
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
    /** Shares the local limits' hits with the other instances now (done every second; tests call it). */
    rateLimitSync(): Promise<void>;
    /**
     * Counts a hit of an account (not an address) on a shared limit, for calls whose caller is known only once
     * logged in: 0 when allowed, otherwise the seconds to wait (answer with `tooManyRequests`). Always 0 when
     * limits are off.
     */
    rateLimitAccount(limit: RateLimit, accountId: number): Promise<number>;
  }
}

export function tooManyRequests(reply: FastifyReply, retryAfterSeconds: number) {
  const answer = tooManyRequestsAnswer(retryAfterSeconds);
  return reply.code(429).headers(answer.headers).send(answer.envelope);
}

async function rateLimitPlugin(app: FastifyInstance, options: { enabled: boolean; now: () => number }) {
  const local = new SyncedWindowLimiter(app.repos.rateCounts, options.now);
  app.decorate('rateLimitSync', () => local.sync());
  if (options.enabled) {
    const timer = setInterval(() => {
      // A failed sync (the database away for a moment) leaves the counts to the next one.
      if (!local.syncing) local.sync().catch(() => undefined);
    }, SYNC_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
  const shared = new SharedWindowLimiter(app.repos.rateHits, options.now);
  const bucket = (limit: RateLimit, ip: string) => `${limit.name}|${rateLimitKey(ip)}`;
  app.decorate('rateLimitAccount', async (limit: RateLimit, accountId: number) =>
    options.enabled ? shared.hit(`${limit.name}|account:${accountId}`, limit) : 0,
  );
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
