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
