/**
 * The payment deadline of an order: made at `at` for an item, it must be paid within the item's payment minutes
 * (contract/entry.ts paymentMinutes), each PAYMENT_MINUTE_SECONDS long (60; the browser tests shorten it, so a
 * one-minute window closes within the test). Read from the environment of the process that makes the order:
 * the server (sign-up) and the organiser CLI (ballot-draw, wait-list promotion after a refund).
 */
import { paymentMinutes, type EntryItemSettings } from '#contract/entry';
import { parseServerEnv, type Env } from '../../lib/env.ts';

let parsed: { raw: string | undefined; minuteMs: number } | undefined;

/** Milliseconds of one payment minute (a bad PAYMENT_MINUTE_SECONDS throws, naming it). */
function paymentMinuteMs(env: Env): number {
  const raw = env.PAYMENT_MINUTE_SECONDS;
  if (!parsed || parsed.raw !== raw) {
    parsed = { raw, minuteMs: parseServerEnv(env, ['PAYMENT_MINUTE_SECONDS']).PAYMENT_MINUTE_SECONDS * 1000 };
  }
  return parsed.minuteMs;
}

/** When an order for `item` made at `at` is due: unpaid after it, the job runner cancels it. */
export function paymentDeadline(
  item: Pick<EntryItemSettings, 'model' | 'paymentMinutes'>,
  at: number,
  env: Env = process.env,
): number {
  return at + paymentMinutes(item) * paymentMinuteMs(env);
}
