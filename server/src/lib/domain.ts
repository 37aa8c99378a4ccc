import { isIP } from 'node:net';

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * Normalises the `domainName` a browser sends (its location.hostname): lower case, no trailing dot, no
 * port, IPv6 without brackets. Returns null when the value is not a host name or IP address.
 */
export function normalizeDomainName(raw: string): string | null {
  let s = raw.trim().toLowerCase();
  if (s.startsWith('[')) {
    const end = s.indexOf(']');
    if (end < 0) return null;
    const rest = s.slice(end + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return null;
    s = s.slice(1, end);
    return isIP(s) === 6 ? s : null;
  }
  if (isIP(s) === 6) return s;
  s = s.replace(/:\d{1,5}$/, '').replace(/\.$/, '');
  if (isIP(s) === 4) return s;
  return HOST_NAME.test(s) ? s : null;
}

/**
 * A domain an organiser may bind: a DNS host name (letters, digits, hyphens, dots), not an IP address,
 * so that http://127.0.0.1 always shows the unbound preview. Returns the normalised name or null.
 */
export function toBindableDomain(raw: string): string | null {
  const s = raw.trim().toLowerCase().replace(/\.$/, '');
  if (isIP(s) !== 0 || /^[\d.]+$/.test(s)) return null;
  return HOST_NAME.test(s) ? s : null;
}
