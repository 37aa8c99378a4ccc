/**
 * Settings of the account features, read from the environment (or the `env` option of buildApp in tests)
 * through the server's one schema (lib/env.ts): a bad value stops buildApp with the variable's name.
 */
import { parseServerEnv, type Env } from './env.ts';

export interface AccountSettings {
  /** PASSWORD_KEY: key of the encryptType '1' password transport (same as the SPA's VITE_PASSWORD_KEY). */
  passwordKey: string;
  /** RATE_LIMITS=off disables the per-IP limits (load bench). */
  rateLimits: boolean;
  /** DEV_OUTBOX=1 forces the development outbox on, DEV_OUTBOX=0 off; default: on unless NODE_ENV=production. */
  devOutbox: boolean;
  /** CAPTCHA_PROVIDER, default 'builtin'. */
  captchaProvider: string;
  /** SMTP_URL: email codes go out by SMTP (nodemailer) as well as to the outbox. */
  smtpUrl?: string;
  /** SMTP_FROM: sender address, default 'race-site <no-reply@race-site.example>'. */
  smtpFrom: string;
  /**
   * TRUST_PROXY: the reverse proxies in front of the server (addresses, CIDR ranges or loopback, linklocal,
   * uniquelocal, comma-separated), whose X-Forwarded-For names the visitor. Unset: the connection's address
   * is the visitor's, so behind a proxy every visitor would share the proxy's rate limits.
   */
  trustProxy?: string[];
}

const KEYS = [
  'PASSWORD_KEY',
  'RATE_LIMITS',
  'DEV_OUTBOX',
  'NODE_ENV',
  'CAPTCHA_PROVIDER',
  'SMTP_URL',
  'SMTP_FROM',
  'TRUST_PROXY',
] as const;

export function readSettings(raw: Env): AccountSettings {
  const env = parseServerEnv(raw, KEYS);
  return {
    passwordKey: env.PASSWORD_KEY,
    rateLimits: env.RATE_LIMITS,
    devOutbox: env.DEV_OUTBOX ?? env.NODE_ENV !== 'production',
    captchaProvider: env.CAPTCHA_PROVIDER,
    smtpUrl: env.SMTP_URL,
    smtpFrom: env.SMTP_FROM,
    trustProxy: env.TRUST_PROXY,
  };
}
