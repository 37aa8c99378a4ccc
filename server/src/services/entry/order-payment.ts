/**
 * Paying a sign-up order (issue 14 §4): the one open payment of an order the runner may pay now, the
 * payment as the sandbox "bank" knows it, and what the sandbox's cashier shows. The notifications and the
 * timed work of the lifecycle live in services/entry/order-transitions.ts; the routes in
 * routes/entry/payment.ts.
 */
import type { PaySite } from '#contract/entry';
import type { MessageCode } from '#contract/messages';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { OrderRecord } from '../../db/orders-repository.ts';
import type { PaymentRecord } from '../../db/payments-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import type { PaymentState } from '../../lib/payment/provider.ts';
import { payFirstDrawn } from './ballot.ts';

/** The payment as the sandbox "bank" knows it (this server's payments table). */
export async function paymentState(repos: Repositories, paymentId: string): Promise<PaymentState> {
  const payment = await repos.payments.findByPaymentId(paymentId);
  if (!payment) return { status: 'unknown', tradeNo: null, amountFen: null, paidAt: null };
  return {
    status: payment.status,
    tradeNo: payment.tradeNo,
    amountFen: payment.amountFen,
    paidAt: payment.status === 'paid' ? payment.updatedAt : null,
  };
}

/** Whether an unpaid order holds an entry of a pay-first item drawn meanwhile: it can no longer be drawn. */
async function drawnBeforePaid(repos: Repositories, orderId: number): Promise<boolean> {
  for (const entry of await repos.entries.ofOrder(orderId)) {
    if (entry.status !== 0 && entry.status !== 3) continue;
    if (await payFirstDrawn(repos, entry.raceId, entry.itemCode)) return true;
  }
  return false;
}

/**
 * The open payment of the runner's order `orderNo` with `provider` from `site`, made when there is none (one
 * per order, provider and site, reused until the order's deadline: parallel calls get the same one; a provider
 * makes another kind of payment for a phone than for the desktop site), with the order and its race; or why
 * the order cannot be paid now.
 */
export async function openOrderPayment(
  repos: Repositories,
  input: { userId: number; orderNo: string; provider: string; site: PaySite; now: () => number },
): Promise<
  | { order: OrderRecord & { deadlineAt: number }; payment: PaymentRecord; race: RaceInfo | undefined }
  | { status: number; code: MessageCode }
> {
  const order = await repos.orders.findByNo(input.orderNo);
  if (!order || order.userId !== input.userId) return { status: 404, code: 'orderNotFound' };
  if ((order.status === 1 || order.status === 4) && (await drawnBeforePaid(repos, order.id))) {
    return { status: 409, code: 'orderBallotDrawn' };
  }
  if (order.status !== 1) return { status: 409, code: 'orderNotPayable' };
  const at = input.now();
  const deadlineAt = order.deadlineAt;
  if (deadlineAt === null || deadlineAt <= at) return { status: 409, code: 'orderPayExpired' };
  const payment = await repos.transaction(async (tx) => {
    await tx.db.lock(`order-pay:${order.id}`);
    return (
      (await tx.payments.openFor(order.id, input.provider, order.amountFen, input.site)) ??
      tx.payments.create({
        orderId: order.id,
        provider: input.provider,
        amountFen: order.amountFen,
        now: at,
        site: input.site,
      })
    );
  });
  const race = await repos.races.findById(order.raceId);
  return { order: { ...order, deadlineAt }, payment, race };
}

/** A payment of `provider` with its order and race, for the sandbox's cashier; undefined when there is none. */
export async function paymentWithOrder(repos: Repositories, paymentId: string, provider: string) {
  const payment = await repos.payments.findByPaymentId(paymentId);
  if (!payment || payment.provider !== provider) return undefined;
  const order = await repos.orders.findById(payment.orderId);
  if (!order) return undefined;
  const race = await repos.races.findById(order.raceId);
  return { payment, order, race };
}
