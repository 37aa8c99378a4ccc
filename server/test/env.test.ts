import { availableParallelism } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_KEY, DEFAULT_SMTP_FROM, parseServerEnv, ServerEnvError } from '../src/lib/env.ts';
import { readSettings } from '../src/lib/settings.ts';
import { buildTestApp, FIXTURE_SEED, removeTempDirs, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

/** The message a bad environment stops with. */
function refusal(env: Record<string, string>): string {
  try {
    parseServerEnv(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ServerEnvError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('server environment', () => {
  it('gives every variable its default when nothing is set (blank counts as unset)', () => {
    const defaults = {
      PORT: 3000,
      HOST: 'localhost',
      LOG_LEVEL: 'warn',
      WORKERS: 1,
      DATA_DIR: undefined,
      SEED_DIR: undefined,
      STATIC_DIR: undefined,
      NODE_ENV: undefined,
      PASSWORD_KEY: DEFAULT_PASSWORD_KEY,
      RATE_LIMITS: true,
      DEV_OUTBOX: undefined,
      CAPTCHA_PROVIDER: 'builtin',
      SMTP_URL: undefined,
      SMTP_FROM: DEFAULT_SMTP_FROM,
      TRUST_PROXY: undefined,
      CERT_SECRET: undefined,
      CODE_SECRET: undefined,
      ID_NUMBER_SECRET: undefined,
      PAYMENT_SECRET: undefined,
      PAYMENT_PROVIDER: 'sandbox',
      PAYMENT_SWEEP_SECONDS: 30,
      MESSAGES_PER_MINUTE: 60,
      PAYMENT_MINUTE_SECONDS: 60,
      DATABASE_URL: undefined,
      DB_POOL_SIZE: 10,
      FILE_STORAGE: undefined,
      FILES_DIR: undefined,
      JOBS: true,
    };
    expect(parseServerEnv({})).toEqual(defaults);
    expect(parseServerEnv({ PORT: '', WORKERS: ' ', LOG_LEVEL: '', PASSWORD_KEY: '' })).toEqual(defaults);
  });

  it('reads set values', () => {
    const env = parseServerEnv({
      PORT: '0',
      HOST: '0.0.0.0',
      LOG_LEVEL: 'debug',
      WORKERS: 'Auto',
      STATIC_DIR: '',
      RATE_LIMITS: 'OFF',
      DEV_OUTBOX: '0',
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      TRUST_PROXY: ' 10.0.0.1, loopback ,',
      UNRELATED: 'x',
    });
    expect(env).toMatchObject({
      PORT: 0,
      HOST: '0.0.0.0',
      LOG_LEVEL: 'debug',
      WORKERS: Math.min(availableParallelism(), 64),
      STATIC_DIR: '',
      RATE_LIMITS: false,
      DEV_OUTBOX: false,
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      TRUST_PROXY: ['10.0.0.1', 'loopback'],
    });
    expect(env).not.toHaveProperty('UNRELATED');
    expect(parseServerEnv({ WORKERS: '8' }).WORKERS).toBe(8);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be a port number from 0 to 65535, got "eighty"'],
    [{ PORT: '70000' }, 'PORT must be a port number from 0 to 65535, got "70000"'],
    [{ PORT: '80.5' }, 'PORT must be a port number from 0 to 65535, got "80.5"'],
    [{ WORKERS: 'many' }, `WORKERS must be a number from 1 to 64 or 'auto', got "many"`],
    [{ WORKERS: '0' }, `WORKERS must be a number from 1 to 64 or 'auto', got "0"`],
    [{ WORKERS: '65' }, `WORKERS must be a number from 1 to 64 or 'auto', got "65"`],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, got "verbose"'],
    [{ RATE_LIMITS: 'no' }, 'RATE_LIMITS must be on or off, got "no"'],
    [{ DEV_OUTBOX: 'yes' }, 'DEV_OUTBOX must be 1 or 0, got "yes"'],
    [{ PAYMENT_SWEEP_SECONDS: '0' }, 'PAYMENT_SWEEP_SECONDS must be a number of seconds from 1 to 3600, got "0"'],
    [{ PAYMENT_MINUTE_SECONDS: '61' }, 'PAYMENT_MINUTE_SECONDS must be a number of seconds from 1 to 60, got "61"'],
    [{ PAYMENT_MINUTE_SECONDS: '0.5' }, 'PAYMENT_MINUTE_SECONDS must be a number of seconds from 1 to 60, got "0.5"'],
    [
      { TRUST_PROXY: '10.0.0.1, nonsense' },
      'TRUST_PROXY must be addresses, CIDR ranges, loopback, linklocal or uniquelocal, comma-separated, ' +
        'got "10.0.0.1, nonsense" (invalid IP address: nonsense)',
    ],
  ])('refuses %j, naming the variable and what it expected', (env, message) => {
    expect(refusal(env)).toBe(message);
  });

  it('never repeats a secret in its message', () => {
    expect(refusal({ PASSWORD_KEY: 'short-key' })).toBe(
      "PASSWORD_KEY must be at least 16 characters (the SPA's VITE_PASSWORD_KEY)",
    );
    expect(refusal({ SMTP_URL: 'http://user:secret@mail.example.com' })).toBe(
      'SMTP_URL must be an smtp:// or smtps:// URL',
    );
  });

  it('names every bad variable at once', () => {
    const message = refusal({ PORT: 'x', WORKERS: 'y', LOG_LEVEL: 'z', HOST: 'fine' });
    expect(message.split('\n').map((line) => line.split(' ')[0])).toEqual(['PORT', 'LOG_LEVEL', 'WORKERS']);
  });

  it('parses only the keys a part of the server reads', () => {
    // The account settings do not care about a bad PORT; the CLI reads only its folders.
    expect(readSettings({ PORT: 'x', RATE_LIMITS: 'off', NODE_ENV: 'production' })).toMatchObject({
      rateLimits: false,
      devOutbox: false,
    });
    expect(readSettings({ DEV_OUTBOX: '1', NODE_ENV: 'production' }).devOutbox).toBe(true);
    expect(parseServerEnv({ DATA_DIR: ' /srv/data ', WORKERS: 'x' }, ['DATA_DIR', 'SEED_DIR'])).toEqual({
      DATA_DIR: '/srv/data',
      SEED_DIR: undefined,
    });
  });

  it("refuses to build the app with a bad value in buildApp's env option", async () => {
    await expect(
      buildTestApp({ dataDir: tempDir(), seedDir: FIXTURE_SEED, env: { RATE_LIMITS: 'maybe' } }),
    ).rejects.toThrow('RATE_LIMITS must be on or off, got "maybe"');
  });
});
