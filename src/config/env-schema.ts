/**
 * The environment configuration (spec §3 "Environment config"), validated at build time by
 * vite.config.ts and again at start-up by src/config/env.ts. A bad or missing value names its key.
 * Every key here is read by the SPA. The spec's list also names the site's own domain, two sub-domains (jy,
 * cs) and open-link settings, but gives them no behaviour, so they are not keys (docs/configuration.md).
 */
export interface AppEnv {
  appEnv: 'dev' | 'test' | 'release' | 'prod';
  /** The organiser's root domain: the language cookie is shared across it (lib/language.ts). */
  rootDomain: string;
  /** The two remote translation files under /config/i18n/. */
  i18nFiles: [string, string];
  showCharitable: boolean;
  /** '/' means the same origin as the site. */
  apiBaseUrl: string;
  fileHost: string;
  imageHost: string;
  /** Mobile site home; empty means there is no mobile site and nobody is redirected. */
  mobileSiteUrl: string;
  /** Base of the registration area; the personal centre opens `${regAreaUrl}reg/#/my/my-index`. */
  regAreaUrl: string;
  debug: boolean;
  /** Shared key of encryptType '1': passwords travel AES-encrypted with it (crypto-js), on top of TLS. */
  passwordKey: string;
}

export class EnvError extends Error {
  constructor(
    readonly key: string,
    detail: string,
  ) {
    super(`Environment value ${key} ${detail}`);
    this.name = 'EnvError';
  }
}

type Raw = Record<string, string | boolean | undefined>;

function read(raw: Raw, key: string, { allowEmpty = false } = {}): string {
  const value = raw[key];
  if (value === undefined) throw new EnvError(key, 'is missing');
  const s = String(value).trim();
  if (!allowEmpty && s === '') throw new EnvError(key, 'is empty');
  return s;
}

function bool(raw: Raw, key: string): boolean {
  const s = read(raw, key);
  if (s === 'true') return true;
  if (s === 'false') return false;
  throw new EnvError(key, `must be true or false, got "${s}"`);
}

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const FILE_NAME = /^[\w.-]+\.json$/;

function hostname(raw: Raw, key: string): string {
  const s = read(raw, key);
  if (!HOSTNAME.test(s)) throw new EnvError(key, `must be a host name, got "${s}"`);
  return s;
}

/** A base URL: absolute http(s), protocol-relative, or a path starting with '/'. Ends with '/'. */
function baseUrl(raw: Raw, key: string, { allowEmpty = false } = {}): string {
  const s = read(raw, key, { allowEmpty });
  if (s === '') return s;
  if (!/^(https?:\/\/[^\s/]+|\/\/[^\s/]+|)(\/[^\s]*)?$/.test(s) || !(s.startsWith('/') || /^https?:\/\//.test(s))) {
    throw new EnvError(key, `must be an http(s) URL or a path starting with /, got "${s}"`);
  }
  return s.endsWith('/') ? s : `${s}/`;
}

function passwordKey(raw: Raw): string {
  const s = read(raw, 'VITE_PASSWORD_KEY');
  if (s.length < 16) throw new EnvError('VITE_PASSWORD_KEY', 'must be at least 16 characters');
  return s;
}

export function parseEnv(raw: Raw): AppEnv {
  const appEnv = read(raw, 'VITE_APP_ENV');
  if (!['dev', 'test', 'release', 'prod'].includes(appEnv)) {
    throw new EnvError('VITE_APP_ENV', `must be dev, test, release or prod, got "${appEnv}"`);
  }
  const files = read(raw, 'VITE_I18N_FILES')
    .split(',')
    .map((f) => f.trim());
  if (files.length !== 2 || !files.every((f) => FILE_NAME.test(f))) {
    throw new EnvError('VITE_I18N_FILES', 'must name two .json files separated by a comma');
  }
  return {
    appEnv: appEnv as AppEnv['appEnv'],
    rootDomain: hostname(raw, 'VITE_ROOT_DOMAIN'),
    i18nFiles: [files[0], files[1]],
    showCharitable: bool(raw, 'VITE_SHOW_CHARITABLE'),
    apiBaseUrl: baseUrl(raw, 'VITE_API_BASE_URL'),
    fileHost: baseUrl(raw, 'VITE_FILE_HOST'),
    imageHost: baseUrl(raw, 'VITE_IMAGE_HOST'),
    mobileSiteUrl: baseUrl(raw, 'VITE_MOBILE_SITE_URL', { allowEmpty: true }),
    regAreaUrl: baseUrl(raw, 'VITE_REG_AREA_URL'),
    debug: bool(raw, 'VITE_DEBUG'),
    passwordKey: passwordKey(raw),
  };
}

export const ENV_KEYS = [
  'VITE_APP_ENV',
  'VITE_ROOT_DOMAIN',
  'VITE_I18N_FILES',
  'VITE_SHOW_CHARITABLE',
  'VITE_API_BASE_URL',
  'VITE_FILE_HOST',
  'VITE_IMAGE_HOST',
  'VITE_MOBILE_SITE_URL',
  'VITE_REG_AREA_URL',
  'VITE_DEBUG',
  'VITE_PASSWORD_KEY',
] as const;
