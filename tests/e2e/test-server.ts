/** This file's lane server (lanes.ts): its port and data folder. */
import { inject } from 'vitest';
import type { LaneServer } from './lanes';

/** The server of the worker running this file: vitest numbers its workers 1..maxWorkers (VITEST_POOL_ID). */
export function testServer(): LaneServer {
  const servers = inject('servers');
  const lane = Number(process.env.VITEST_POOL_ID ?? '1');
  const server = servers[lane - 1];
  if (!server) throw new Error(`no browser-test server for lane ${lane} of ${servers.length}`);
  return server;
}

/** The port of this file's server. */
export const serverPort = (): number => testServer().port;
/** The data folder of this file's server (its SQLite database, uploads and site configurations). */
export const serverDataDir = (): string => testServer().dataDir;
