/**
 * Health checks for a load balancer or an orchestrator:
 *   GET /healthz  the process is up (200), whatever the database does: restart it only when this fails;
 *   GET /readyz   the process can serve: 200 when the database answers within READY_TIMEOUT_MS, else 503,
 *                 so that the balancer sends no visitor to an instance that has lost its database.
 * Both answer the envelope, are never cached and never rate-limited, and carry nothing personal.
 */
import type { FastifyInstance } from 'fastify';
import { fail, ok } from '../../lib/envelope.ts';
import { databaseReadiness } from '../../services/health.ts';

export const HEALTH_PATHS = { live: '/healthz', ready: '/readyz' } as const;

/** How long /readyz waits for the database before it calls the instance not ready. */
export const READY_TIMEOUT_MS = 2_000;

export default async function healthRoutes(app: FastifyInstance) {
  const started = Date.now();
  app.get(HEALTH_PATHS.live, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return ok({ status: 'live', uptimeSeconds: Math.round((Date.now() - started) / 1000) });
  });
  app.get(HEALTH_PATHS.ready, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const database = await databaseReadiness(app.db, READY_TIMEOUT_MS);
    if (!database.ready) return reply.code(503).send(fail(503, 'databaseUnavailable'));
    return ok({ status: 'ready', database: database.engine });
  });
}
