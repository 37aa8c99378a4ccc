/**
 * Who is calling, checked once per protected scope instead of in each route (docs/architecture-layers.md).
 * A scope of routes for a logged-in runner is registered through `runnerRoutes(...)` (app.ts): its
 * `preHandler` hook finds the runner of the request's `token` header (plugins/accounts.ts userFromToken) and
 * puts it on `request.runner`, or answers the envelope `{ code: 401, msgCode: 'loginExpired' }` (HTTP 200,
 * what the SPA shows) before any handler runs. The hook runs after the body and query schemas, as the
 * per-route checks it replaces did, so a malformed request is still refused with its HTTP 400 first. Every
 * answer of such a scope is private (`Cache-Control: no-store`).
 *
 * `requireSession` is the one mechanism: the organiser console's staff routes (issue 30, /api/admin/…) get
 * theirs the same way with their own session check (staff sessions are separate from runners') and their own
 * request property.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Envelope } from '#contract/api';
import type { UserRecord } from '../db/users-repository.ts';
import type { CurrentStaff } from '../services/staff/sessions.ts';
import { fail } from '../lib/envelope.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in runner; set only in a scope registered through runnerRoutes (null elsewhere). */
    runner: UserRecord;
    /** The signed-in staff member and their session; set only in the console's scope (routes/admin). */
    staff: CurrentStaff;
  }
}

/** The properties a session hook fills, each with the type of who it names. */
interface Sessions {
  runner: UserRecord;
  staff: CurrentStaff;
}

/**
 * Adds to `scope` (an encapsulated plugin: the hook reaches its routes only) one `preHandler` that sets
 * `request[key]` to whom `check` finds, or answers `refusal` with no-store when it finds no one.
 */
export function requireSession<K extends keyof Sessions>(
  scope: FastifyInstance,
  key: K,
  check: (request: FastifyRequest) => Promise<Sessions[K] | undefined>,
  refusal: () => Envelope<null>,
): void {
  scope.decorateRequest(key as string, null);
  scope.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    void reply.header('cache-control', 'no-store');
    const found = await check(request);
    if (found === undefined) return reply.send(refusal());
    (request as unknown as Sessions)[key] = found;
    return undefined;
  });
}

/** The runner's session on `scope`: `request.runner`, or `refusal` (default 401 loginExpired). */
export function requireRunner(scope: FastifyInstance, refusal: () => Envelope<null> = () => fail(401, 'loginExpired')) {
  requireSession(scope, 'runner', (request) => scope.userFromToken(request), refusal);
}

/**
 * `routes` registered in their own scope behind the runner's session: every route in them has
 * `request.runner`, and without a valid token the answer is 401 loginExpired.
 */
export function runnerRoutes(...routes: FastifyPluginAsync[]): FastifyPluginAsync {
  return async (scope) => {
    requireRunner(scope);
    for (const register of routes) await scope.register(register);
  };
}
