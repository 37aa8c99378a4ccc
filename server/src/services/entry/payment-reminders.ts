/**
 * Payment reminders (issue 31 §4): an order still unpaid a day before its deadline is reminded once, by SMS
 * (the `paymentReminder` template) or e-mail, in Chinese and English, with its amount and deadline in the
 * race's zone. Only orders given at least two days to pay are reminded (a ballot winner's week, a promotion's
 * days): a first-come order's minutes are spent on the screen that shows the deadline, and the submission
 * message already gave it. Once per order: the outbox key `paymentReminder:<orderNo>`, which the query skips.
 */
import type { Repositories } from '../../db/repositories.ts';
import { linesOfOrder, tellRunner } from './entry-messages.ts';

const HOUR = 3600_000;
/** How long before the deadline the reminder goes. */
export const REMIND_BEFORE_MS = 24 * HOUR;
/** Orders given less time than this to pay get no reminder. */
export const REMIND_MIN_WINDOW_MS = 48 * HOUR;
export const REMINDER_KEY_PREFIX = 'paymentReminder:';

/** Queues the reminders due at `now` (at most `limit`); returns how many were queued. */
export async function remindUnpaid(repos: Repositories, now: number, limit = 500): Promise<number> {
  const due = await repos.orders.toRemind(now, REMIND_BEFORE_MS, REMIND_MIN_WINDOW_MS, REMINDER_KEY_PREFIX, limit);
  for (const order of due) {
    const lines = await linesOfOrder(repos, order.id, order.raceId);
    await tellRunner(
      repos,
      order.raceId,
      order.userId,
      `${REMINDER_KEY_PREFIX}${order.orderNo}`,
      {
        kind: 'paymentReminder',
        lines,
        orderNo: order.orderNo,
        amountFen: order.amountFen,
        deadlineAt: order.deadlineAt!,
      },
      now,
    );
  }
  return due.length;
}
