/** Starts the real server with the built SPA for the browser tests and hands its port to them. */
import type { TestProject } from 'vitest/node';
import { startServer } from './server-process';

declare module 'vitest' {
  export interface ProvidedContext {
    port: number;
    dataDir: string;
  }
}

export default async function setup(project: TestProject) {
  // Due orders looked for every second, not every 30 s: sign-up.e2e waits for a cancellation at a deadline.
  const server = await startServer({ PAYMENT_SWEEP_SECONDS: '1' });
  project.provide('port', server.port);
  project.provide('dataDir', server.dataDir);
  return server.stop;
}
