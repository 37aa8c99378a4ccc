/**
 * The browser tests run in lanes: one vitest worker per lane, each with a server and a data folder of its own
 * (global-setup.ts starts them), so two files never share a server's state, its rate limits or its clock-driven
 * sweeps. A file asks for its lane's server with testServer() (test-server.ts).
 */
import { availableParallelism } from 'node:os';

/** How many lanes: E2E_LANES, else one per core (a lane is mostly waiting on Chromium and the server). */
export function laneCount(): number {
  const given = Number(process.env.E2E_LANES);
  return Number.isInteger(given) && given > 0 ? given : Math.max(1, availableParallelism());
}

export interface LaneServer {
  port: number;
  dataDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** One server per lane, in lane order (global-setup.ts). */
    servers: LaneServer[];
  }
}
