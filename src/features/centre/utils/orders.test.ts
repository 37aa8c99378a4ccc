import { describe, expect, it } from 'vitest';
import { CANCEL_SOON_MS, ORDER_STATUSES, type OrderView } from '#contract/entry';
import { isPayable, orderStatusKey } from './orders';

const NOW = Date.UTC(2027, 0, 10, 12);
const order = (status: OrderView['status'], deadlineAt: number | null) => ({ status, deadlineAt }) as OrderView;

describe('isPayable', () => {
  it('is payable while awaiting payment before the deadline', () => {
    expect(isPayable(order(ORDER_STATUSES.awaitingPayment, NOW + 2 * CANCEL_SOON_MS), NOW)).toBe(true);
  });

  // The server answers an unpaid order in its last minutes as 'cancel soon'; the runner must still be able to pay.
  it("stays payable in the last minutes, when the server answers 'cancel soon'", () => {
    const late = order(ORDER_STATUSES.cancelSoon, NOW + 60_000);
    expect(isPayable(late, NOW)).toBe(true);
    expect(orderStatusKey(late, NOW)).toBe('enums.orderStatuses.cancelSoon');
  });

  it('is not payable past the deadline, nor once paid, cancelled or refunded', () => {
    expect(isPayable(order(ORDER_STATUSES.cancelSoon, NOW - 1), NOW)).toBe(false);
    expect(isPayable(order(ORDER_STATUSES.awaitingPayment, NOW), NOW)).toBe(false);
    for (const status of [ORDER_STATUSES.paid, ORDER_STATUSES.cancelled, ORDER_STATUSES.refunded]) {
      expect(isPayable(order(status, null), NOW)).toBe(false);
    }
  });
});
