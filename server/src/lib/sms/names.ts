/** SMS_PROVIDER's values (lib/sms/providers.ts builds each); here alone so that lib/env.ts can check it. */
export const SMS_PROVIDER_NAMES = ['outbox', 'aliyun', 'tencent'] as const;
export type SmsProviderName = (typeof SMS_PROVIDER_NAMES)[number];
/** SMS_PROVIDER when unset: the development outbox, which sends nothing. */
export const DEFAULT_SMS_PROVIDER: SmsProviderName = 'outbox';
