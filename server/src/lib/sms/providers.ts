/**
 * The SMS providers this server knows by name, in one place (issue 31 §4), read by the server (plugins/
 * delivery.ts, routes/sms/receipt.ts) and the organiser CLI (sms-test): SMS_PROVIDER chooses one, like
 * PAYMENT_PROVIDER does for payments (lib/payment/providers.ts).
 *
 * - 'outbox' (the default): the development outbox is the sandbox: nothing leaves the server. With
 *   NODE_ENV=production the server starts but warns loudly that codes and messages reach no phone (a race
 *   whose runners log in by e-mail can still run).
 * - 'aliyun', 'tencent': the provider's keys (a missing one stops the start naming it), and SMS_TEMPLATES,
 *   every kind's template (lib/sms/templates.ts; a kind left out stops the start naming it).
 */
import { parseServerEnv, ServerEnvError, type Env } from '../env.ts';
import { ALIYUN_SMS_PROVIDER, createAliyunSmsProvider } from './aliyun.ts';
import { DEFAULT_SMS_PROVIDER, type SmsProviderName } from './names.ts';
import type { SmsProvider } from './provider.ts';
import { parseSmsTemplates, SmsTemplatesError, type SmsTemplates } from './templates.ts';
import { createTencentSmsProvider, TENCENT_SMS_PROVIDER } from './tencent.ts';

export interface KnownSmsProvider {
  /** Builds the provider from the environment; undefined for the outbox, which sends nothing. */
  make?: (env: Env) => SmsProvider;
  /** Its messages reach phones. */
  reachesPhones: boolean;
}

export const SMS_PROVIDERS: Record<SmsProviderName, KnownSmsProvider> = {
  outbox: { reachesPhones: false },
  [ALIYUN_SMS_PROVIDER]: { make: createAliyunSmsProvider, reachesPhones: true },
  [TENCENT_SMS_PROVIDER]: { make: createTencentSmsProvider, reachesPhones: true },
};

/** The SMS side of the server, read once at start. */
export type SmsSettings =
  | { name: 'outbox'; provider: null; templates: null; receiptToken?: string; warning?: string }
  | { name: SmsProviderName; provider: SmsProvider; templates: SmsTemplates; receiptToken?: string; warning?: string };

/** The warning of a production server whose messages to phones go nowhere (logged at start). */
export const outboxInProductionWarning = () =>
  `WARNING: SMS_PROVIDER is outbox with NODE_ENV=production: login codes, ballot results and payment reminders ` +
  `sent to phones reach NO phone (they stay in the outbox). Set SMS_PROVIDER=aliyun or tencent with its keys ` +
  `and SMS_TEMPLATES (docs/sms-providers.md).`;

/**
 * SMS_PROVIDER and what it needs, checked: throws ServerEnvError naming every missing or bad variable (the
 * provider's keys, SMS_TEMPLATES and the kind or variable at fault).
 */
export function readSmsSettings(env: Env): SmsSettings {
  const values = parseServerEnv(env, ['SMS_PROVIDER', 'SMS_TEMPLATES', 'SMS_RECEIPT_TOKEN', 'NODE_ENV']);
  const name = values.SMS_PROVIDER ?? DEFAULT_SMS_PROVIDER;
  const receiptToken = values.SMS_RECEIPT_TOKEN;
  const known = SMS_PROVIDERS[name];
  if (!known.make) {
    const warning = values.NODE_ENV === 'production' ? outboxInProductionWarning() : undefined;
    return { name: 'outbox', provider: null, templates: null, receiptToken, warning };
  }
  const problems: { key: string; message: string }[] = [];
  let provider: SmsProvider | undefined;
  try {
    provider = known.make(env);
  } catch (error) {
    if (!(error instanceof ServerEnvError)) throw error;
    problems.push(...error.problems);
  }
  let templates: SmsTemplates | undefined;
  try {
    templates = parseSmsTemplates(values.SMS_TEMPLATES);
  } catch (error) {
    if (!(error instanceof SmsTemplatesError)) throw error;
    problems.push(...error.problems.map((message) => ({ key: 'SMS_TEMPLATES', message })));
  }
  if (problems.length > 0 || !provider || !templates) throw new ServerEnvError(problems);
  const warning =
    receiptToken === undefined
      ? `SMS_RECEIPT_TOKEN is not set: ${name}'s delivery receipts are refused, messages stay "sent" (never "delivered")`
      : undefined;
  return { name, provider, templates, receiptToken, warning };
}
