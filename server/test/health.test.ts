import { afterAll, describe, expect, it } from 'vitest';
import { HEALTH_PATHS } from '../src/routes/health/index.ts';
import { buildTestApp, ON_POSTGRES, removeTempDirs } from './helpers.ts';

afterAll(removeTempDirs);

describe('health checks for the load balancer', () => {
  it('is live and ready while the database answers, and names the engine', async () => {
    const app = await buildTestApp();
    try {
      const live = await app.inject({ method: 'GET', url: HEALTH_PATHS.live });
      expect(live.statusCode).toBe(200);
      expect(live.json()).toMatchObject({ code: 0, data: { status: 'live' } });
      const ready = await app.inject({ method: 'GET', url: HEALTH_PATHS.ready });
      expect(ready.statusCode).toBe(200);
      expect(ready.headers['cache-control']).toBe('no-store');
      expect(ready.json().data).toEqual({ status: 'ready', database: ON_POSTGRES ? 'postgres' : 'sqlite' });
    } finally {
      await app.close();
    }
  });

  it('is live but not ready (503) once the database is gone', async () => {
    const app = await buildTestApp();
    try {
      await app.db.close();
      const ready = await app.inject({ method: 'GET', url: HEALTH_PATHS.ready });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ code: 503, data: null, msgCode: 'databaseUnavailable' });
      expect((await app.inject({ method: 'GET', url: HEALTH_PATHS.live })).statusCode).toBe(200);
    } finally {
      // The database is already closed: closing the app must not fail on it.
      await app.close().catch(() => undefined);
    }
  });
});
