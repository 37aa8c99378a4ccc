import { readFileSync } from 'node:fs';
import { ENV_KEYS, EnvError, parseEnv } from './env-schema';

function envFile(name: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(name, 'utf8').split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) out[m[1]] = m[2];
  }
  return out;
}

describe('environment config', () => {
  it.each(['dev', 'test', 'release', 'prod'])('parses .env.%s', (name) => {
    const env = parseEnv(envFile(`.env.${name}`));
    expect(env.appEnv).toBe(name);
    expect(env.i18nFiles).toHaveLength(2);
    expect(env.showCharitable).toBe(name !== 'dev');
    expect(env.passwordKey.length).toBeGreaterThanOrEqual(16);
    // The bundled server serves the mobile site at /m/: mobile browsers are redirected there.
    expect(env.mobileSiteUrl).toBe('/m/');
  });

  it.each(['dev', 'test', 'release', 'prod'])('.env.%s holds every key the SPA reads, and nothing else', (name) => {
    expect(Object.keys(envFile(`.env.${name}`)).sort()).toEqual([...ENV_KEYS].sort());
  });

  it.each(ENV_KEYS)('stops when %s is missing', (key) => {
    const raw = envFile('.env.prod');
    delete raw[key];
    expect(() => parseEnv(raw)).toThrow(new EnvError(key, 'is missing'));
  });

  it('stops with a message naming a missing key', () => {
    const raw = envFile('.env.prod');
    delete raw.VITE_FILE_HOST;
    expect(() => parseEnv(raw)).toThrow(new EnvError('VITE_FILE_HOST', 'is missing'));
  });

  it.each([
    ['VITE_SHOW_CHARITABLE', 'yes'],
    ['VITE_API_BASE_URL', 'ftp://x'],
    ['VITE_ROOT_DOMAIN', 'not a host'],
    ['VITE_I18N_FILES', 'only-one.json'],
    ['VITE_APP_ENV', 'staging'],
    ['VITE_REG_AREA_URL', 'javascript:alert(1)'],
    ['VITE_PASSWORD_KEY', 'short'],
  ])('stops with a message naming the bad key %s', (key, value) => {
    const raw = { ...envFile('.env.prod'), [key]: value };
    expect(() => parseEnv(raw)).toThrow(key);
  });

  it('normalises base URLs to end with a slash and allows an empty mobile site URL', () => {
    const env = parseEnv({
      ...envFile('.env.prod'),
      VITE_API_BASE_URL: 'https://api.example.com/v1',
      VITE_MOBILE_SITE_URL: '',
    });
    expect(env.apiBaseUrl).toBe('https://api.example.com/v1/');
    expect(env.mobileSiteUrl).toBe('');
  });

  it('takes a path or another host as the mobile site URL, and refuses a script URL', () => {
    const raw = envFile('.env.prod');
    expect(parseEnv({ ...raw, VITE_MOBILE_SITE_URL: '/m' }).mobileSiteUrl).toBe('/m/');
    expect(parseEnv({ ...raw, VITE_MOBILE_SITE_URL: 'https://m.race-site.example' }).mobileSiteUrl).toBe(
      'https://m.race-site.example/',
    );
    expect(() => parseEnv({ ...raw, VITE_MOBILE_SITE_URL: 'javascript:alert(1)' })).toThrow('VITE_MOBILE_SITE_URL');
  });
});
