/**
 * An SMS provider's settings from the environment (aliyun.ts, tencent.ts): its variables parsed, each required
 * one that is missing reported with what it is, and its endpoint checked; every problem at once.
 */
import { parseServerEnv, ServerEnvError, type Env, type ServerEnv, type ServerEnvKey } from '../env.ts';

/**
 * Reads the variables of `provider` (the SMS_PROVIDER value): `required` (each with what it holds, for the
 * message), the others in `keys`, and the endpoint `endpointKey` (else `fallback`). Throws ServerEnvError.
 */
export function readSmsProviderEnv<K extends ServerEnvKey>(
  env: Env,
  provider: string,
  settings: {
    keys: readonly K[];
    required: Partial<Record<K, string>>;
    endpointKey: K;
    fallback: string;
  },
): { values: Pick<ServerEnv, K>; endpoint: { protocol: 'https' | 'http'; host: string } } {
  const values = parseServerEnv(env, settings.keys);
  const problems: { key: string; message: string }[] = [];
  for (const [key, what] of Object.entries(settings.required) as [K, string][]) {
    if (!values[key]) problems.push({ key, message: `${key} must be set with SMS_PROVIDER=${provider}: ${what}` });
  }
  const raw = values[settings.endpointKey];
  const endpoint = readEndpoint(settings.endpointKey, typeof raw === 'string' ? raw : undefined, settings.fallback);
  if (!endpoint.ok) problems.push({ key: settings.endpointKey, message: endpoint.problem });
  if (problems.length > 0 || !endpoint.ok) throw new ServerEnvError(problems);
  return { values, endpoint: { protocol: endpoint.protocol, host: endpoint.host } };
}

/**
 * A provider's endpoint from the environment: a host name (HTTPS), or a URL. Plain http is accepted only for
 * this machine (127.0.0.1, ::1, localhost: the tests' fake gateways), never for a provider on the network.
 */
export function readEndpoint(
  key: string,
  raw: string | undefined,
  fallback: string,
): { ok: true; protocol: 'https' | 'http'; host: string } | { ok: false; problem: string } {
  const value = raw?.trim() || fallback;
  const withScheme = /^[a-z]+:\/\//i.test(value) ? value : `https://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { ok: false, problem: `${key} must be a host name or an https:// URL, got "${value}"` };
  }
  const protocol = url.protocol.replace(':', '');
  const local = ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
  if (protocol !== 'https' && !(protocol === 'http' && local)) {
    return { ok: false, problem: `${key} must use https (http only for this machine), got "${value}"` };
  }
  if (url.pathname !== '/' || url.search !== '') {
    return { ok: false, problem: `${key} must be a host (no path), got "${value}"` };
  }
  return { ok: true, protocol: protocol as 'https' | 'http', host: url.host };
}
