import { parseEnv, type AppEnv } from './env-schema';

let cached: AppEnv | undefined;

/** The validated environment. Throws EnvError naming the key when a value is bad or missing. */
export function getEnv(): AppEnv {
  cached ??= parseEnv(import.meta.env as unknown as Record<string, string>);
  return cached;
}
