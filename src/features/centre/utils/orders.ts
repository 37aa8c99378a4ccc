import { ORDER_STATUSES, shownOrderStatus, type OrderView } from '#contract/entry';
import { orderStatusLabel, type OrderStatusKey } from '#contract/enums';

/**
 * An order the runner can still pay at `now`: awaiting payment, its deadline not passed. The server answers an
 * unpaid order in its last minutes as 'cancel soon' (shownOrderStatus): it is still payable then.
 */
export const isPayable = (order: OrderView, now: number): boolean =>
  (order.status === ORDER_STATUSES.awaitingPayment || order.status === ORDER_STATUSES.cancelSoon) &&
  (order.deadlineAt === null || order.deadlineAt > now);

/** The text key of the status an order shows at `now` ('cancel soon' in its last minutes). */
export const orderStatusKey = (order: OrderView, now: number) =>
  orderStatusLabel(shownOrderStatus(order, now)) as `enums.orderStatuses.${OrderStatusKey}`;
