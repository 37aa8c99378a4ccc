/**
 * Issue 27: production never runs the sandbox cashier (anyone can "pay" for free) by default. With
 * NODE_ENV=production, PAYMENT_PROVIDER must be set; the sandbox chosen on purpose is said loudly at start
 * (the log) and on every cashier page (zh and en).
 */
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { parseServerEnv, ServerEnvError } from '../src/lib/env.ts';
import { PAYMENT_PROVIDERS } from '../src/lib/payment/providers.ts';
import { buildTestApp, removeTempDirs } from './helpers.ts';

afterAll(removeTempDirs);

const unknownCashier = `${API_PATHS.sandboxCashier}?paymentId=PAY0`;

describe('the payment provider in production', () => {
  it('refuses NODE_ENV=production without PAYMENT_PROVIDER, naming the variable; the sandbox elsewhere', () => {
    const refusal = () => parseServerEnv({ NODE_ENV: 'production' });
    expect(refusal).toThrow(ServerEnvError);
    expect(refusal).toThrow(/^PAYMENT_PROVIDER must be set when NODE_ENV=production/);
    expect(() => parseServerEnv({ NODE_ENV: 'production', PAYMENT_PROVIDER: ' ' }, ['PAYMENT_PROVIDER'])).toThrow(
      /PAYMENT_PROVIDER must be set/,
    );
    // Named with the other bad variables at once.
    const both = (() => {
      try {
        parseServerEnv({ NODE_ENV: 'production', PORT: 'x' });
      } catch (error) {
        return (error as ServerEnvError).problems.map((p) => p.key);
      }
    })();
    expect(both).toEqual(['PAYMENT_PROVIDER', 'PORT']);
    expect(parseServerEnv({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' }).PAYMENT_PROVIDER).toBe('sandbox');
    expect(parseServerEnv({}).PAYMENT_PROVIDER).toBe('sandbox');
    expect(parseServerEnv({ NODE_ENV: 'test' }, ['PAYMENT_PROVIDER']).PAYMENT_PROVIDER).toBe('sandbox');
    // Every built-in provider is listed in one place, saying whether it takes money.
    expect(PAYMENT_PROVIDERS.sandbox?.takesMoney).toBe(false);
  });

  it('does not build the app in production without PAYMENT_PROVIDER', async () => {
    await expect(buildTestApp({ env: { NODE_ENV: 'production', JOBS: 'off' } })).rejects.toThrow(
      /PAYMENT_PROVIDER must be set when NODE_ENV=production/,
    );
  });

  it('warns at start and on the cashier page, in both languages, when production runs the sandbox on purpose', async () => {
    const lines: string[] = [];
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
    const app = await buildTestApp({
      env: { NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox', JOBS: 'off' },
      logger: 'warn',
      logStream,
    });
    try {
      expect(lines.join('')).toContain('WARNING: PAYMENT_PROVIDER=sandbox with NODE_ENV=production');
      for (const lang of ['zh', 'en']) {
        const page = await app.inject({ method: 'GET', url: `${unknownCashier}&lang=${lang}` });
        expect(page.body).toContain('role="alert"');
        expect(page.body).toContain('正式环境正在使用沙箱收银台');
        expect(page.body).toContain('this live site is using the sandbox cashier');
      }
    } finally {
      await app.close();
    }
    // Outside production: the sandbox's usual note only.
    const test = await buildTestApp({ env: { JOBS: 'off' } });
    try {
      const page = await test.inject({ method: 'GET', url: unknownCashier });
      expect(page.body).toContain('沙箱');
      expect(page.body).not.toContain('role="alert"');
    } finally {
      await test.close();
    }
  });
});
