/**
 * The payment providers a server runs at once (issue 31 §3): PAYMENT_PROVIDER is a comma-separated list of
 * names (`wechatpay,alipay`), each known (built in, lib/payment/providers.ts, or given to buildApp); the first is
 * the default. The runner chooses among the enabled ones on the order page (orderPay's `method`).
 *
 * Money goes back through the provider that took it: a payment's provider (payments.provider) answers its
 * query, refund and close, whether it is still enabled or not. A provider no longer enabled is made on demand
 * from its factory (its keys still in the environment) and kept; when it cannot be made (unknown name, keys
 * gone) the refund stays owed with that reason as its last error (services/entry/refunds-owed.ts).
 */
import { PAY_METHOD_PATTERN } from '#contract/entry';
import type { PaymentProvider, PaymentProviderContext, PaymentProviderFactory } from './provider.ts';

export interface PaymentProviders {
  /** The first of PAYMENT_PROVIDER: what orderPay uses when the runner names no method. */
  readonly default: PaymentProvider;
  /** Every enabled provider, in PAYMENT_PROVIDER's order (the order page's buttons). */
  readonly enabled: readonly PaymentProvider[];
  /** An enabled provider by name; undefined when it is not enabled. */
  byName(name: string): PaymentProvider | undefined;
  /**
   * The provider that took a payment of `name`, to query, refund or close it: the enabled one, else one made from
   * its factory (a provider switched off since); or why there is none.
   */
  forPayment(name: string): { ok: true; provider: PaymentProvider } | { ok: false; problem: string };
}

/** What a service is given: the registry, or a single provider (a registry of one, as tests and old callers pass). */
export type ProviderSource = PaymentProvider | PaymentProviders;

const isRegistry = (source: ProviderSource): source is PaymentProviders =>
  'forPayment' in source && typeof source.forPayment === 'function';

/** A registry of one provider (it refunds only what it took). */
export function singleProvider(provider: PaymentProvider): PaymentProviders {
  return {
    default: provider,
    enabled: [provider],
    byName: (name) => (name === provider.name ? provider : undefined),
    forPayment: (name) =>
      name === provider.name
        ? { ok: true, provider }
        : { ok: false, problem: `the payment was made with ${name}: only that provider can refund it` },
  };
}

export const providersOf = (source: ProviderSource): PaymentProviders =>
  isRegistry(source) ? source : singleProvider(source);

const NAME = new RegExp(PAY_METHOD_PATTERN);

/**
 * PAYMENT_PROVIDER's names in order: comma-separated, trimmed, lower-case letters, digits, `-` and `_`, each
 * once. Throws a message naming the variable on a malformed list.
 */
export function paymentProviderNames(value: string): string[] {
  const names = value.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!NAME.test(name)) {
      throw new Error(
        `PAYMENT_PROVIDER=${value}: "${name}" is not a provider name (comma-separated names such as wechatpay,alipay)`,
      );
    }
  }
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw new Error(`PAYMENT_PROVIDER=${value}: ${twice} is named twice`);
  return names;
}

/**
 * The registry of the providers PAYMENT_PROVIDER names among `factories` (each made once, now: a missing key
 * stops the start). An unknown name stops the start with the list of the known ones.
 */
export function makePaymentProviders(
  value: string,
  factories: Readonly<Record<string, PaymentProviderFactory>>,
  context: PaymentProviderContext,
): PaymentProviders {
  const names = paymentProviderNames(value);
  const make = (name: string): PaymentProvider => {
    const factory = factories[name];
    if (!factory) {
      throw new Error(
        `PAYMENT_PROVIDER=${value}: no such payment provider ${name} (available: ${Object.keys(factories).join(', ')})`,
      );
    }
    const provider = factory(context);
    if (provider.name !== name)
      throw new Error(`the payment provider registered as ${name} calls itself ${provider.name}`);
    return provider;
  };
  const enabled = names.map(make);
  const byName = new Map(enabled.map((provider) => [provider.name, provider]));
  /** Providers switched off since, made when a payment of theirs needs them. */
  const former = new Map<string, PaymentProvider>();
  return {
    default: enabled[0] as PaymentProvider,
    enabled,
    byName: (name) => byName.get(name),
    forPayment(name) {
      const provider = byName.get(name) ?? former.get(name);
      if (provider) return { ok: true, provider };
      if (!Object.hasOwn(factories, name)) {
        return { ok: false, problem: `the payment was made with ${name}, a provider this server does not know` };
      }
      try {
        const made = make(name);
        former.set(name, made);
        return { ok: true, provider: made };
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        return {
          ok: false,
          problem: `the payment was made with ${name}, which is not enabled and cannot be made (${why})`.slice(0, 300),
        };
      }
    },
  };
}
