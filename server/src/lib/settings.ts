/**
 * Settings of the account features, read from the environment (or the `env` option of buildApp in tests).
 */
export const DEFAULT_PASSWORD_KEY = 'race-site-demo-transport-key-2027';

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

export type Env = Record<string, string | undefined>;

export function readSettings(env: Env): AccountSettings {
  const devOutbox = env.DEV_OUTBOX === '1' ? true : env.DEV_OUTBOX === '0' ? false : env.NODE_ENV !== 'production';
  return {
    passwordKey: env.PASSWORD_KEY || DEFAULT_PASSWORD_KEY,
    rateLimits: (env.RATE_LIMITS ?? '').toLowerCase() !== 'off',
    devOutbox,
    captchaProvider: env.CAPTCHA_PROVIDER || 'builtin',
    smtpUrl: env.SMTP_URL || undefined,
    smtpFrom: env.SMTP_FROM || 'race-site <no-reply@race-site.example>',
    trustProxy: env.TRUST_PROXY?.trim()
      ? env.TRUST_PROXY.split(',')
          .map((part) => part.trim())
          .filter(Boolean)
      : undefined,
  };
}
