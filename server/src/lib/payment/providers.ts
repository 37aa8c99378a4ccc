/**
 * The payment providers this server knows by name, in one place (issue 27): the server's payment plugin
 * (routes/entry/payment.ts), the organiser CLI (ballot refunds) and the production check of PAYMENT_PROVIDER
 * (lib/env.ts) all read this list. A real provider (Alipay, WeChat Pay) is added here with takesMoney: true.
 *
 * The sandbox takes no money (anyone can "pay" for free on its cashier page): outside production it is the
 * default; in production the server refuses to start until PAYMENT_PROVIDER names a provider, and when it
 * names the sandbox on purpose, it warns at start and on every cashier page.
 */
import { ALIPAY_PROVIDER, createAlipayProvider } from './alipay.ts';
import type { PaymentProviderFactory } from './provider.ts';
import { createSandboxProvider, SANDBOX_PROVIDER } from './sandbox.ts';
import { createWechatPayProvider, WECHATPAY_PROVIDER } from './wechatpay.ts';

export interface KnownPaymentProvider {
  make: PaymentProviderFactory;
  /** Takes real money: false for a test provider, which production runs only when named explicitly. */
  takesMoney: boolean;
}

export const PAYMENT_PROVIDERS: Record<string, KnownPaymentProvider> = {
  [SANDBOX_PROVIDER]: { make: createSandboxProvider, takesMoney: false },
  [WECHATPAY_PROVIDER]: { make: createWechatPayProvider, takesMoney: true },
  [ALIPAY_PROVIDER]: { make: createAlipayProvider, takesMoney: true },
};

/** The built-in providers' factories by name. */
export const BUILTIN_PAYMENT_PROVIDERS: Record<string, PaymentProviderFactory> = Object.fromEntries(
  Object.entries(PAYMENT_PROVIDERS).map(([name, known]) => [name, known.make]),
);

/** PAYMENT_PROVIDER when unset, outside production. */
export const DEFAULT_PAYMENT_PROVIDER = SANDBOX_PROVIDER;

/** Whether a provider name is a built-in test provider (takes no real money). */
export const isTestProvider = (name: string) => PAYMENT_PROVIDERS[name]?.takesMoney === false;

/** The message that stops a production start without PAYMENT_PROVIDER. */
export const productionNeedsProvider = () =>
  `PAYMENT_PROVIDER must be set when NODE_ENV=production: the payment provider that takes the runners' money ` +
  `(built in: ${Object.keys(PAYMENT_PROVIDERS).join(', ')}, or one given to buildApp), or ` +
  `${SANDBOX_PROVIDER} to take test payments on purpose (anyone can pay for free)`;

/** The warning of a production server whose provider takes no money (logged at start). */
export const testProviderInProductionWarning = (name: string) =>
  `WARNING: PAYMENT_PROVIDER=${name} with NODE_ENV=production: the ${name} cashier takes no money, anyone can ` +
  `"pay" for free. Set PAYMENT_PROVIDER to a real provider before entries open.`;
