/** The readiness of the server's dependencies (routes/health). */
import type { Db, EngineName } from '../db/engine.ts';

/** Whether the database answers within `timeoutMs`, and its engine. */
export async function databaseReadiness(db: Db, timeoutMs: number): Promise<{ ready: boolean; engine: EngineName }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const ready = await Promise.race([db.ping(), timeout]).finally(() => clearTimeout(timer));
  return { ready, engine: db.engine };
}
