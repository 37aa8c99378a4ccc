/**
 * A payment provider for tests that stands in front of the sandbox, by its interface only
 * (lib/payment/provider.ts): it counts the refunds asked of it, answers them "failed" while told to, and
 * answers a query with a state the test sets (a payment the bank took whose notification never came). The
 * rest is the sandbox's own (cashier, signed notifications), so a runner pays as usual.
 */
import type { PaymentProviderFactory, PaymentState, RefundInput } from '../../src/lib/payment/provider.ts';
import { createSandboxProvider, SANDBOX_PROVIDER } from '../../src/lib/payment/sandbox.ts';

export interface ProviderWrapper {
  /** Every refund asked of the provider, in order. */
  refunds: RefundInput[];
  /** Every payment id queried. */
  queries: string[];
  /** While set, each refund is answered failed with this reason. */
  refuseRefunds: string | null;
  /** While set, each refund call throws this (the network dropped). */
  throwOnRefund: string | null;
  /** The state answered for a payment id instead of the sandbox's. */
  states: Map<string, PaymentState>;
  /** The factories to give buildApp (paymentProviders): the sandbox replaced by this wrapper. */
  factories: Record<string, PaymentProviderFactory>;
}

export function providerWrapper(): ProviderWrapper {
  const wrapper: ProviderWrapper = {
    refunds: [],
    queries: [],
    refuseRefunds: null,
    throwOnRefund: null,
    states: new Map(),
    factories: {},
  };
  wrapper.factories[SANDBOX_PROVIDER] = (context) => {
    const sandbox = createSandboxProvider(context);
    return {
      ...sandbox,
      async refund(input) {
        wrapper.refunds.push(input);
        // A real provider's call takes a while: let a parallel caller reach its own call meanwhile.
        await new Promise((resolve) => setImmediate(resolve));
        if (wrapper.throwOnRefund !== null) throw new Error(wrapper.throwOnRefund);
        if (wrapper.refuseRefunds !== null) {
          return { status: 'failed', refundTradeNo: '', reason: wrapper.refuseRefunds };
        }
        return sandbox.refund(input);
      },
      async query(paymentId) {
        wrapper.queries.push(paymentId);
        return wrapper.states.get(paymentId) ?? sandbox.query(paymentId);
      },
    };
  };
  return wrapper;
}
