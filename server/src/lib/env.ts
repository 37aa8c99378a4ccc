/**
 * The server's environment variables, all in one schema (issue #11 §6; the SPA's VITE_ keys have theirs in
 * src/config/env-schema.ts). Every variable the server, its workers and the organiser CLI read is here,
 * with its default: a bad value stops the start with the variable's name, what it expected and what it got
 * (secrets are never echoed). A blank value counts as unset, except STATIC_DIR, where empty means API only.
 *
 * server.ts parses all of them at start; buildApp (its `env` option in tests, process.env otherwise), the
 * certificate secret and the CLI parse the keys they use with the same schema.
 */
import { availableParallelism } from 'node:os';
import proxyAddr from '@fastify/proxy-addr';
import * as z from 'zod';
import { DEFAULT_PAYMENT_PROVIDER, productionNeedsProvider } from './payment/providers.ts';
import { paymentProviderNames } from './payment/registry.ts';
import { SMS_PROVIDER_NAMES } from './sms/names.ts';

export type Env = Record<string, string | undefined>;

export const DEFAULT_PASSWORD_KEY = 'race-site-demo-transport-key-2027';
export const DEFAULT_SMTP_FROM = 'race-site <no-reply@race-site.example>';
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export const MAX_WORKERS = 64;
/** PAYMENT_SWEEP_SECONDS when unset. */
export const DEFAULT_PAYMENT_SWEEP_SECONDS = 30;

const lowerCase = z.string().transform((s) => s.toLowerCase());

/** TRUST_PROXY: the list, refused here (not at the first request) when proxy-addr cannot read an entry. */
const proxyList = z.string().transform((s, ctx) => {
  const list = s
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  try {
    proxyAddr.compile(list);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
    return z.NEVER;
  }
  return list;
});

export const serverEnvSchema = z.object({
  /** Port to listen on; 0 picks a free one. */
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Address to listen on; localhost is both 127.0.0.1 and ::1. */
  HOST: z.string().default('localhost'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('warn'),
  /** Server processes sharing the port and the database; 'auto' is one per CPU core (at most 64). */
  WORKERS: lowerCase
    .pipe(
      z.union([
        z.literal('auto').transform(() => Math.min(availableParallelism(), MAX_WORKERS)),
        z.coerce.number<string>().int().min(1).max(MAX_WORKERS),
      ]),
    )
    .default(1),
  /** Database, published configs, uploads and secrets; default <repo>/data (paths.ts). */
  DATA_DIR: z.string().optional(),
  /** The demo event; default server/seed. */
  SEED_DIR: z.string().optional(),
  /** The built SPA; unset: <repo>/dist when built; empty: API only (the dev server serves the SPA). */
  STATIC_DIR: z.string().optional(),
  /** production turns the development outbox off by default; test silences the outbox's console lines. */
  NODE_ENV: z.string().optional(),
  /** Key of the encryptType '1' password transport: the SPA's VITE_PASSWORD_KEY (at least 16 characters). */
  PASSWORD_KEY: z.string().min(16).default(DEFAULT_PASSWORD_KEY),
  /** off disables the per-IP limits (load bench). */
  RATE_LIMITS: lowerCase
    .pipe(z.enum(['on', 'off']))
    .transform((s) => s === 'on')
    .default(true),
  /** 1 forces the development outbox on, 0 off; unset: on unless NODE_ENV=production. */
  DEV_OUTBOX: z
    .enum(['1', '0'])
    .transform((s) => s === '1')
    .optional(),
  /** The slider check: 'builtin', or a provider passed to buildApp (plugins/captcha.ts). */
  CAPTCHA_PROVIDER: z.string().default('builtin'),
  /** E-mail codes go out by SMTP (nodemailer) as well; unset: the outbox only. */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  SMTP_FROM: z.string().default(DEFAULT_SMTP_FROM),
  /** The reverse proxies in front of the server, whose X-Forwarded-For names the visitor. */
  TRUST_PROXY: proxyList.optional(),
  /**
   * Key of the e-certificate signatures; unset: a random secret kept in DATA_DIR/cert-secret (SQLite) or in
   * the database (PostgreSQL), shared by every instance.
   */
  CERT_SECRET: z.string().optional(),
  /** Key of the stored verification-code hashes; unset: kept like CERT_SECRET. */
  CODE_SECRET: z.string().min(16).optional(),
  /**
   * Key of the stored certificate (ID) number hashes and of the encrypted personal numbers; unset: kept in
   * DATA_DIR/id-number-secret on SQLite; required on PostgreSQL, never kept in the database (lib/secrets.ts).
   */
  ID_NUMBER_SECRET: z.string().min(16).optional(),
  /** Key of the sandbox payment provider's notification signatures; unset: kept like CERT_SECRET. */
  PAYMENT_SECRET: z.string().min(16).optional(),
  /**
   * The payment providers of sign-up orders (lib/payment/providers.ts), comma-separated, the first the default
   * (`wechatpay,alipay`: the runner chooses on the order page): 'sandbox' (built in, takes no money), the
   * built-in real ones, or ones given to buildApp (each name must be known: the start stops otherwise). Unset:
   * the sandbox, except with NODE_ENV=production, where it must be set (real providers, or 'sandbox' on
   * purpose): parseServerEnv refuses it unset there.
   */
  PAYMENT_PROVIDER: z
    .string()
    .refine((value) => {
      try {
        return paymentProviderNames(value).length > 0;
      } catch {
        return false;
      }
    }, 'lower-case letters, digits, - and _')
    .optional(),
  /**
   * Alipay (PAYMENT_PROVIDER=alipay, lib/payment/alipay.ts, which checks the keys when it starts): the app's
   * APPID, its private key and Alipay's public key (inline PEM or base64, or a file named by the _FILE
   * variable), and the gateway (unset: Alipay's production gateway).
   */
  ALIPAY_APP_ID: z.string().optional(),
  ALIPAY_PRIVATE_KEY: z.string().optional(),
  ALIPAY_PRIVATE_KEY_FILE: z.string().optional(),
  ALIPAY_PUBLIC_KEY: z.string().optional(),
  ALIPAY_PUBLIC_KEY_FILE: z.string().optional(),
  ALIPAY_GATEWAY: z.url({ protocol: /^https?$/ }).optional(),
  /** Copies of a message to entrants sent a minute (issue 32 §2: services/messages/campaigns.ts). */
  MESSAGES_PER_MINUTE: z.coerce.number().int().min(1).max(10000).default(60),
  /** Seconds between two looks for unpaid orders past their deadline (cancelled, places given back). */
  PAYMENT_SWEEP_SECONDS: z.coerce.number().int().min(1).max(3600).default(DEFAULT_PAYMENT_SWEEP_SECONDS),
  /**
   * Seconds a minute of a payment window lasts (an item's paymentMinutes); below 60 only for tests and demos.
   * Read by whatever makes orders: the server (sign-up) and the organiser CLI (ballot-draw).
   */
  PAYMENT_MINUTE_SECONDS: z.coerce.number().int().min(1).max(60).default(60),
  /**
   * WeChat Pay (PAYMENT_PROVIDER=wechatpay; lib/payment/wechatpay.ts checks them when it is made, naming a
   * missing or malformed one; docs/payment-providers.md says where each comes from): the merchant number, the
   * AppID, the API v3 key, the merchant API private key (PEM, or the file holding it) and its certificate's
   * serial, the platform public key and its id (or, without them, the platform certificates fetched from
   * WeChat Pay), and its address (a local fake in tests).
   */
  WECHATPAY_MCH_ID: z.string().optional(),
  WECHATPAY_APP_ID: z.string().optional(),
  WECHATPAY_API_V3_KEY: z.string().optional(),
  WECHATPAY_PRIVATE_KEY: z.string().optional(),
  WECHATPAY_PRIVATE_KEY_FILE: z.string().optional(),
  WECHATPAY_CERT_SERIAL: z.string().optional(),
  WECHATPAY_PUBLIC_KEY: z.string().optional(),
  WECHATPAY_PUBLIC_KEY_FILE: z.string().optional(),
  WECHATPAY_PUBLIC_KEY_ID: z.string().optional(),
  WECHATPAY_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** postgres://… runs on PostgreSQL (every instance on the same database); unset: SQLite in DATA_DIR. */
  // A socket URL (postgresql://user@/db?host=/run/postgresql) has no host: checked by its scheme only.
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/i)
    .optional(),
  /** Connections each server process keeps to PostgreSQL. */
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * Where uploads and published site configs are kept: 'folder' (DATA_DIR, or FILES_DIR when set) or
   * 'database'. Unset: folder on SQLite; database on PostgreSQL unless FILES_DIR names a shared folder.
   */
  FILE_STORAGE: z.enum(['folder', 'database']).optional(),
  /** A folder every instance shares (a network mount), for FILE_STORAGE=folder on PostgreSQL. */
  FILES_DIR: z.string().optional(),
  /**
   * Where messages to phones go (lib/sms/providers.ts): 'outbox' (the development outbox: nothing leaves; the
   * default, and in production a loud warning at start), 'aliyun' or 'tencent' (docs/sms-providers.md).
   */
  SMS_PROVIDER: lowerCase.pipe(z.enum(SMS_PROVIDER_NAMES)).optional(),
  /** Each kind of message's approved template: JSON, or the path of a JSON file (lib/sms/templates.ts). */
  SMS_TEMPLATES: z.string().optional(),
  /** The secret token of the delivery-receipt URL set in the provider's console; unset: receipts refused. */
  SMS_RECEIPT_TOKEN: z
    .string()
    .regex(/^[\w-]{16,128}$/)
    .optional(),
  ALIYUN_SMS_ACCESS_KEY_ID: z.string().optional(),
  ALIYUN_SMS_ACCESS_KEY_SECRET: z.string().optional(),
  ALIYUN_SMS_SIGN_NAME: z.string().optional(),
  /** Default dysmsapi.aliyuncs.com; http:// only for a fake on this machine (tests). */
  ALIYUN_SMS_ENDPOINT: z.string().optional(),
  TENCENT_SMS_SECRET_ID: z.string().optional(),
  TENCENT_SMS_SECRET_KEY: z.string().optional(),
  TENCENT_SMS_SDK_APP_ID: z
    .string()
    .regex(/^\d{5,20}$/)
    .optional(),
  TENCENT_SMS_SIGN_NAME: z.string().optional(),
  /** Default ap-guangzhou. */
  TENCENT_SMS_REGION: z.string().optional(),
  /** Default sms.tencentcloudapi.com; http:// only for a fake on this machine (tests). */
  TENCENT_SMS_ENDPOINT: z.string().optional(),
  /** off: this instance runs no timed work (plugins/jobs.ts); others on the same database still do. */
  JOBS: lowerCase
    .pipe(z.enum(['on', 'off']))
    .transform((s) => s === 'on')
    .default(true),
});

/** PAYMENT_PROVIDER always has a value once parsed (its default depends on NODE_ENV: parseServerEnv). */
export type ServerEnv = Omit<z.infer<typeof serverEnvSchema>, 'PAYMENT_PROVIDER'> & { PAYMENT_PROVIDER: string };
export type ServerEnvKey = keyof ServerEnv;

/** What each variable must be, for the message of a bad value. */
const EXPECTED: Partial<Record<ServerEnvKey, string>> = {
  PORT: 'a port number from 0 to 65535',
  LOG_LEVEL: `one of ${LOG_LEVELS.join(', ')}`,
  WORKERS: `a number from 1 to ${MAX_WORKERS} or 'auto'`,
  PASSWORD_KEY: "at least 16 characters (the SPA's VITE_PASSWORD_KEY)",
  RATE_LIMITS: 'on or off',
  DEV_OUTBOX: '1 or 0',
  SMTP_URL: 'an smtp:// or smtps:// URL',
  TRUST_PROXY: 'addresses, CIDR ranges, loopback, linklocal or uniquelocal, comma-separated',
  CODE_SECRET: 'at least 16 characters',
  ID_NUMBER_SECRET: 'at least 16 characters',
  PAYMENT_SECRET: 'at least 16 characters',
  PAYMENT_PROVIDER: 'provider names separated by commas, each once (such as wechatpay,alipay)',
  ALIPAY_GATEWAY: "an https:// URL (Alipay's gateway.do)",
  PAYMENT_SWEEP_SECONDS: 'a number of seconds from 1 to 3600',
  MESSAGES_PER_MINUTE: 'a number from 1 to 10000',
  PAYMENT_MINUTE_SECONDS: 'a number of seconds from 1 to 60',
  DATABASE_URL: 'a postgres:// or postgresql:// URL',
  DB_POOL_SIZE: 'a number from 1 to 200',
  FILE_STORAGE: 'folder or database',
  JOBS: 'on or off',
  SMS_PROVIDER: SMS_PROVIDER_NAMES.join(', '),
  SMS_RECEIPT_TOKEN: '16 to 128 letters, digits, - or _ (it is part of a URL)',
  TENCENT_SMS_SDK_APP_ID: 'the SdkAppId, digits',
  WECHATPAY_BASE_URL: 'an http:// or https:// URL',
};

/** Values never repeated in a message. */
const SECRETS = new Set<string>([
  'PASSWORD_KEY',
  'CERT_SECRET',
  'CODE_SECRET',
  'ID_NUMBER_SECRET',
  'PAYMENT_SECRET',
  'WECHATPAY_API_V3_KEY',
  'WECHATPAY_PRIVATE_KEY',
  'ALIPAY_PRIVATE_KEY',
  'SMTP_URL',
  'DATABASE_URL',
  'SMS_RECEIPT_TOKEN',
  'ALIYUN_SMS_ACCESS_KEY_SECRET',
  'TENCENT_SMS_SECRET_KEY',
]);

/** A bad environment: one line per bad variable, each naming it. */
export class ServerEnvError extends Error {
  constructor(readonly problems: { key: string; message: string }[]) {
    super(problems.map((p) => p.message).join('\n'));
    this.name = 'ServerEnvError';
  }
}

/** Trimmed values; blank means unset, except STATIC_DIR (empty: API only). */
function clean(raw: Env, keys: readonly string[]): Env {
  const out: Env = {};
  for (const key of keys) {
    const value = raw[key]?.trim();
    out[key] = value === '' && key !== 'STATIC_DIR' ? undefined : value;
  }
  return out;
}

/** Every variable, or only `keys` (what one part of the server reads), parsed; throws ServerEnvError. */
export function parseServerEnv(raw: Env): ServerEnv;
export function parseServerEnv<K extends ServerEnvKey>(raw: Env, keys: readonly K[]): Pick<ServerEnv, K>;
export function parseServerEnv(raw: Env, keys?: readonly ServerEnvKey[]): Partial<ServerEnv> {
  const schema = keys
    ? serverEnvSchema.pick(Object.fromEntries(keys.map((key) => [key, true])) as Record<ServerEnvKey, true>)
    : serverEnvSchema;
  const input = clean(raw, Object.keys(schema.shape));
  const result = schema.safeParse(input);
  const problems: { key: string; message: string }[] = [];
  // PAYMENT_PROVIDER unset: the sandbox, but never in production (issue 27: anyone could "pay" for free).
  let defaults: Partial<ServerEnv> = {};
  if ('PAYMENT_PROVIDER' in schema.shape && input.PAYMENT_PROVIDER === undefined) {
    if (clean(raw, ['NODE_ENV']).NODE_ENV === 'production') {
      problems.push({ key: 'PAYMENT_PROVIDER', message: productionNeedsProvider() });
    } else {
      defaults = { PAYMENT_PROVIDER: DEFAULT_PAYMENT_PROVIDER };
    }
  }
  if (result.success && problems.length === 0) return { ...result.data, ...defaults };
  const seen = new Set<string>(problems.map((p) => p.key));
  for (const issue of result.error?.issues ?? []) {
    const key = String(issue.path[0]);
    if (seen.has(key)) continue;
    seen.add(key);
    const expected = EXPECTED[key as ServerEnvKey] ?? 'a text';
    const got = SECRETS.has(key) ? '' : `, got "${input[key]}"`;
    const detail = issue.code === 'custom' ? ` (${issue.message})` : '';
    problems.push({ key, message: `${key} must be ${expected}${got}${detail}` });
  }
  throw new ServerEnvError(problems);
}
