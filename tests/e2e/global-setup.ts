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
  const server = await startServer();
  project.provide('port', server.port);
  project.provide('dataDir', server.dataDir);
  return server.stop;
}
