/** Starts one real server with the built SPA per lane (lanes.ts) for the browser tests and hands them the list. */
import type { TestProject } from 'vitest/node';
import { laneCount } from './lanes';
import { startServer } from './server-process';

export default async function setup(project: TestProject) {
  // Due orders looked for every second, not every 30 s: sign-up.e2e waits for a cancellation at a deadline.
  // No per-IP limits: every file of a lane signs in from the same address, many times a minute (the console's
  // files above all), which the login limit of 20 a minute would refuse; the server tests cover the limits.
  const started = await Promise.allSettled(
    Array.from({ length: laneCount() }, () => startServer({ PAYMENT_SWEEP_SECONDS: '1', RATE_LIMITS: 'off' })),
  );
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    // The lanes that did start are stopped: no server outlives a run that cannot begin.
    await Promise.all(servers.map((server) => server.stop()));
    throw failed.reason;
  }
  project.provide(
    'servers',
    servers.map(({ port, dataDir }) => ({ port, dataDir })),
  );
  return async () => {
    await Promise.all(servers.map((server) => server.stop()));
  };
}
