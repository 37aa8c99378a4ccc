/**
 * Race-day hot path. The lookups that take thousands of requests a second on race day (score and photos by
 * bib, score by name + certificate number) are answered by a request listener in front of Fastify's, before
 * Fastify's request lifecycle, when their body has one of the plain shapes the route declares. That saves
 * 15–25% of the server's CPU per lookup (measured under `npm run bench:load`'s traffic).
 *
 * Nothing else changes: a hot route answers with the same function as its Fastify route, with the same
 * headers (the security headers of lib/security-headers.ts included) and under the same per-IP limit. Every other request goes to Fastify untouched: another method or
 * path, a content type other than JSON, a chunked or large body, and any body the route does not take as
 * plain (bad JSON, a missing or extra field, a value out of range) is replayed through Fastify
 * (`app.inject`), so validation and error answers stay the route's own. With request logs on (LOG_LEVEL
 * info and below) the hot path is off, so that every request is logged.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { answerEncoding, answerOut, type AnswerCache, type AnswerOut, type EncodedAnswer } from './answer-cache.ts';
import { fail, tooManyRequestsAnswer } from './envelope.ts';
import { apiSecurityHeaders } from './security-headers.ts';

/** What a hot route answers: always HTTP 200, the envelope says the rest. */
export interface HotAnswer {
  answer: EncodedAnswer;
  cacheControl: string;
}

export interface HotRoute<Query> {
  /** The body as one of the route's plain shapes, or undefined: then Fastify takes the request. */
  accept(body: unknown): Query | undefined;
  /**
   * The commonest body read straight from its text, before any JSON.parse: the query `accept` would take
   * from it, or undefined to parse it and ask `accept`. Never takes a body `accept` would refuse.
   */
  acceptText?(text: string): Query | undefined;
  /**
   * The route's answer (the same function its Fastify handler sends), or undefined to leave it to Fastify;
   * a promise when it has to ask the database (a cache hit answers at once).
   */
  answer(query: Query): HotAnswer | undefined | Promise<HotAnswer | undefined>;
  /** The route's per-IP limit (undefined when limits are off): 0 when allowed, otherwise seconds to wait. */
  limit?: (ip: string) => number;
  /**
   * Where the route's public answers come from (those with this cache-control, the same for everyone who
   * sends the same body): the hot path keeps each by the text of the request it answered
   * and answers that text again with it, without reading the query, for as long as the cache holds it
   * (AnswerCache.live). The same text always names the same query, so it gets the same answer.
   */
  kept?: { cache: AnswerCache; cacheControl: string };
}

/**
 * Texts kept per route (HotRoute.kept): at most this many, the oldest going first. A lookup's text is under
 * 100 bytes: the demo's 27,000 bibs take a few MB.
 */
const MAX_KEPT = 100_000;

/** A hot route and the public answers it gave, by the request's text (HotRoute.kept). */
interface RouteEntry {
  route: HotRoute<never>;
  kept: Map<string, EncodedAnswer>;
}

/** Bodies above this size go to Fastify (the hot bodies are well under 200 bytes). */
const MAX_BODY = 1024;
const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);
/** Headers of a replayed answer that belong to the replay, not to the connection the answer goes out on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);

type Replay = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

export class HotPath {
  private readonly routes = new Map<string, RouteEntry>();

  /** Off: every request goes to Fastify. */
  enabled = true;

  /**
   * `clientIp`: the visitor's address as Fastify's `request.ip` has it (TRUST_PROXY); `https`: whether the
   * request came over https as Fastify's `request.protocol` has it (for HSTS).
   */
  constructor(
    private readonly clientIp: (req: IncomingMessage) => string = (req) => req.socket.remoteAddress ?? '',
    private readonly https: (req: IncomingMessage) => boolean = () => false,
  ) {}

  /** Answers POST `url` (exact, no query string) on the hot path. */
  post<Query>(url: string, route: HotRoute<Query>): void {
    this.routes.set(url, { route: route as HotRoute<never>, kept: new Map() });
  }

  /**
   * The request listener of the HTTP server: hot requests are answered here, the rest go to `next` (Fastify's
   * handler). `replay` hands a request whose body has been read to Fastify.
   *
   * What a hot request costs on top of a bare node:http answer is kept small (the load bench compares the
   * two): the head is read from `rawHeaders` (the `headers` object is built on first use, at a cost), no
   * closure is made per request (the listeners are shared and find the request's state on it), and the
   * answer's headers, security headers included, are made once per cached answer. A public answer is
   * found again by the request's text (HotRoute.kept): a repeated lookup reads one map, as the floor does.
   */
  listener(next: RequestListener, replay: Replay): RequestListener {
    return (req, res) => {
      const entry = this.enabled && req.method === 'POST' ? this.routes.get(req.url ?? '') : undefined;
      const acceptEncoding = entry === undefined ? undefined : plainJsonHead(req.rawHeaders);
      if (entry === undefined || acceptEncoding === undefined) {
        next(req, res);
        return;
      }
      const state: HotRequest = { hotPath: this, entry, res, acceptEncoding, chunks: [], replay };
      (req as HotIncoming)[HOT] = state;
      req.on('data', onData);
      req.on('error', onError);
      req.on('end', onEnd);
    };
  }

  /** Answers a hot request whose body has been read, or hands it to Fastify when the route leaves it there. */
  answer(req: IncomingMessage, state: HotRequest, body: Buffer): void {
    const { entry, res } = state;
    const { route } = entry;
    let found: ReturnType<HotRoute<never>['answer']>;
    let text: string;
    try {
      text = body.toString('utf8');
      // The same text as an earlier request, whose answer its cache still holds.
      let kept = route.kept === undefined ? undefined : entry.kept.get(text);
      if (kept !== undefined && !route.kept!.cache.live(kept)) kept = undefined;
      const query = kept === undefined ? (route.acceptText?.(text) ?? route.accept(JSON.parse(text))) : undefined;
      if (kept === undefined && query === undefined) return state.replay(req, res, body);
      // Counted once, here, for the requests answered here (a replayed request is counted by Fastify's hook).
      const wait = route.limit?.(this.clientIp(req)) ?? 0;
      if (wait > 0) {
        const limited = tooManyRequestsAnswer(wait);
        return sendJson(res, 429, limited.envelope, {
          ...apiSecurityHeaders(this.https(req)),
          ...limited.headers,
        });
      }
      if (kept !== undefined) return this.send(req, state, kept, route.kept!.cacheControl);
      found = route.answer(query as never);
    } catch {
      // Bad JSON, or a failure in the answer: Fastify answers it (and logs a failure) its own way.
      return state.replay(req, res, body);
    }
    if (!(found instanceof Promise)) return this.answered(req, state, body, text, found);
    // A failed lookup is answered (and logged) by Fastify's route, which asks again.
    found.then(
      (made) => this.answered(req, state, body, text, made),
      () => state.replay(req, res, body),
    );
  }

  /** Sends the route's answer (kept by the request's text when it is a public one), or hands the request to Fastify. */
  private answered(req: IncomingMessage, state: HotRequest, body: Buffer, text: string, found: HotAnswer | undefined) {
    if (found === undefined) return state.replay(req, state.res, body);
    const { route, kept } = state.entry;
    if (
      route.kept !== undefined &&
      found.cacheControl === route.kept.cacheControl &&
      route.kept.cache.live(found.answer)
    ) {
      kept.delete(text);
      kept.set(text, found.answer);
      if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
    }
    this.send(req, state, found.answer, found.cacheControl);
  }

  private send(req: IncomingMessage, state: HotRequest, answer: EncodedAnswer, cacheControl: string): void {
    const { acceptEncoding } = state;
    const https = this.https(req);
    // The answer as it went out last: a repeated lookup by the same kind of client sends it again as it is.
    const encoding = answerEncoding(answer, acceptEncoding || undefined);
    if (
      answer.sentHeaders === undefined ||
      answer.sentEncoding !== encoding ||
      answer.sentCacheControl !== cacheControl ||
      answer.sentHttps !== https
    ) {
      const out = answerOut(answer, acceptEncoding || undefined, cacheControl);
      answer.sentEncoding = encoding;
      answer.sentCacheControl = cacheControl;
      answer.sentHttps = https;
      answer.sentHeaders = securedHeaders(out, https);
      answer.sentPayload = out.payload;
    }
    state.res.writeHead(200, answer.sentHeaders);
    state.res.end(answer.sentPayload);
  }
}

/** A hot request's state, kept on the request while its body is read. */
interface HotRequest {
  hotPath: HotPath;
  entry: RouteEntry;
  res: ServerResponse;
  /** The Accept-Encoding header ('' when none). */
  acceptEncoding: string;
  chunks: Buffer[];
  replay: Replay;
}

const HOT = Symbol('race-site hot request');
type HotIncoming = IncomingMessage & { [HOT]?: HotRequest };

function onData(this: HotIncoming, chunk: Buffer) {
  this[HOT]?.chunks.push(chunk);
}

function onError(this: HotIncoming) {
  this.destroy();
}

function onEnd(this: HotIncoming) {
  const state = this[HOT];
  if (state === undefined) return;
  this[HOT] = undefined;
  const { chunks } = state;
  state.hotPath.answer(this, state, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
}

/**
 * Header sets in use, by their text: answers with the same headers (the same policy, type, encoding and
 * length) share one object, which stays in the processor's cache however many answers use it.
 */
const headerSets = new Map<string, Readonly<Record<string, string>>>();

/** An answer's headers with the security headers of lib/security-headers.ts, made once per answer. */
function securedHeaders(out: AnswerOut, https: boolean): Readonly<Record<string, string>> {
  const made = (out.secured ??= [undefined, undefined]);
  const index = https ? 1 : 0;
  let headers = made[index];
  if (headers === undefined) {
    const merged = { ...apiSecurityHeaders(https), ...out.headers };
    const text = JSON.stringify(merged);
    headers = headerSets.get(text);
    if (headers === undefined) {
      headers = merged;
      // Lengths vary, so the sets are bounded: past the bound an answer keeps its own set.
      if (headerSets.size < 10_000) headerSets.set(text, merged);
    }
    made[index] = headers;
  }
  return headers;
}

/**
 * A JSON body of a known, small length, read from the raw head (name, value, name, value …): the
 * Accept-Encoding header ('' when none), or undefined when anything else is Fastify's to read and judge
 * (another type, no or a large length, a transfer or content encoding, a repeated header).
 */
function plainJsonHead(raw: readonly string[]): string | undefined {
  let type: string | undefined;
  let length: string | undefined;
  let acceptEncoding: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // Only the few names the hot path reads are lowered and compared (by their length first).
    switch (name.length) {
      case 12:
        if (name.toLowerCase() !== 'content-type') break;
        if (type !== undefined) return undefined;
        type = raw[i + 1]!;
        break;
      case 14:
        if (name.toLowerCase() !== 'content-length') break;
        if (length !== undefined) return undefined;
        length = raw[i + 1]!;
        break;
      case 15:
        if (name.toLowerCase() !== 'accept-encoding') break;
        if (acceptEncoding !== undefined) return undefined;
        acceptEncoding = raw[i + 1]!;
        break;
      case 16:
      case 17: {
        const lower = name.toLowerCase();
        if (lower === 'content-encoding' || lower === 'transfer-encoding') return undefined;
        break;
      }
    }
  }
  const bytes = Number(length);
  return type !== undefined &&
    JSON_TYPES.has(type.toLowerCase()) &&
    Number.isInteger(bytes) &&
    bytes > 0 &&
    bytes <= MAX_BODY
    ? (acceptEncoding ?? '')
    : undefined;
}

function sendJson(res: ServerResponse, status: number, envelope: unknown, headers: Record<string, string>) {
  const payload = Buffer.from(JSON.stringify(envelope));
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': payload.length,
  });
  res.end(payload);
}

/** Hands a request whose body has been read to Fastify, and sends Fastify's answer on the connection. */
export function replayThrough(app: FastifyInstance): Replay {
  return (req, res, body) => {
    app
      .inject({
        method: 'POST',
        url: req.url ?? '/',
        headers: req.headers,
        payload: body,
        remoteAddress: req.socket.remoteAddress,
      })
      .then(
        (answer) => {
          const headers = Object.fromEntries(
            Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())),
          );
          res.writeHead(answer.statusCode, headers as Record<string, string | string[]>);
          res.end(answer.rawPayload);
        },
        (error: unknown) => {
          app.log.error({ err: error }, 'replay failed');
          sendJson(res, 500, fail(500, 'internal'), {
            ...apiSecurityHeaders(false),
            'cache-control': 'no-store',
          });
        },
      );
  };
}

/**
 * Puts the hot path in front of Fastify's handler on Fastify's own HTTP server (so its timeouts and other
 * settings stay Fastify's). Extra addresses Fastify binds at listen time (`localhost` on both 127.0.0.1 and
 * ::1) keep the plain handler: they answer the same, through the route.
 */
export function installHotPath(app: FastifyInstance, hotPath: HotPath): void {
  const server = app.server;
  const [fastifyHandler] = server.listeners('request') as RequestListener[];
  if (fastifyHandler === undefined) throw new Error('the hot path needs the HTTP server Fastify made');
  server.removeListener('request', fastifyHandler);
  server.on('request', hotPath.listener(fastifyHandler, replayThrough(app)));
}
