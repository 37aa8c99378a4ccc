/**
 * Health checks for a load balancer or an orchestrator:
 *   GET /healthz  the process is up (200), whatever the database does: restart it only when this fails;
 *   GET /readyz   the process can serve: 200 when the database answers within READY_TIMEOUT_MS, else 503,
 *                 so that the balancer sends no visitor to an instance that has lost its database.
 * Both answer the envelope, are never cached and never rate-limited, and carry nothing personal.
 */
import type { FastifyInstance } from 'fastify';
import { fail, ok } from '../../lib/envelope.ts';

export const HEALTH_PATHS = { live: '/healthz', ready: '/readyz' } as const;

/** How long /readyz waits for the database before it calls the instance not ready. */
export const READY_TIMEOUT_MS = 2_000;

function within<T>(promise: Promise<T>, ms: number, late: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export default async function healthRoutes(app: FastifyInstance) {
  const started = Date.now();
  app.get(HEALTH_PATHS.live, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return ok({ status: 'live', uptimeSeconds: Math.round((Date.now() - started) / 1000) });
  });
  app.get(HEALTH_PATHS.ready, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const answered = await within(app.db.ping(), READY_TIMEOUT_MS, false);
    if (!answered) return reply.code(503).send(fail(503, 'databaseUnavailable'));
    return ok({ status: 'ready', database: app.db.engine });
  });
}
