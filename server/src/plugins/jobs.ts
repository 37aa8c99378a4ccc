import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { parseServerEnv, type Env } from '../lib/env.ts';
import { JobRunner } from '../lib/job-runner.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Timed work shared by every instance on the database (lib/job-runner.ts). */
    jobs: JobRunner;
  }
}

export interface JobsPluginOptions {
  /** JOBS=off: the runner is built (jobs can be scheduled) but this instance never polls. */
  env: Env;
  /** Pause between polls; default 1000 ms. */
  pollMs?: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Finished jobs are kept this long (what ran, and the last error of a failed one). */
export const KEEP_FINISHED_JOBS_MS = 7 * 24 * HOUR;
/** Rate-limit hits older than this are swept (the longest window is shorter). */
export const KEEP_RATE_HITS_MS = HOUR;

/**
 * The job runner as `app.jobs`, with the server's housekeeping: finished jobs pruned after 7 days, rate-limit
 * hits swept after an hour. Polls from onReady (unless JOBS=off) and stops, waiting for its running batch,
 * on close, before the database closes. Needs the db plugin.
 */
async function jobsPlugin(app: FastifyInstance, options: JobsPluginOptions) {
  const { JOBS } = parseServerEnv(options.env, ['JOBS']);
  const now = () => app.config.now();
  const runner = new JobRunner({ jobs: app.repos.jobs, now, log: app.log, pollMs: options.pollMs });

  runner.every('prune-jobs', HOUR, async () => {
    await app.repos.jobs.prune(now() - KEEP_FINISHED_JOBS_MS);
  });
  runner.every('sweep-rate-hits', 10 * MINUTE, async () => {
    await app.repos.rateHits.sweep(now() - KEEP_RATE_HITS_MS);
  });

  app.decorate('jobs', runner);
  if (JOBS) app.addHook('onReady', async () => runner.start());
  app.addHook('onClose', async () => {
    await runner.stop();
  });
}

export default fp(jobsPlugin, { name: 'jobs', dependencies: ['app-config', 'db'] });
