import { describe, expect, it } from 'vitest';
import { DEFAULT_PAYMENT_MINUTES } from '#contract/entry';
import { paymentDeadline } from '../src/services/entry/payment-window.ts';

const AT = Date.UTC(2027, 0, 1, 8, 0, 0);

describe('payment deadline', () => {
  it("is the item's payment minutes after the order, or its model's default", () => {
    expect(paymentDeadline({ model: 'ballot', paymentMinutes: 1 }, AT, {})).toBe(AT + 60_000);
    expect(paymentDeadline({ model: 'firstCome' }, AT, {})).toBe(AT + DEFAULT_PAYMENT_MINUTES.firstCome * 60_000);
  });

  it('counts each payment minute as PAYMENT_MINUTE_SECONDS (tests shorten it), and refuses a bad value by name', () => {
    expect(paymentDeadline({ model: 'ballot', paymentMinutes: 1 }, AT, { PAYMENT_MINUTE_SECONDS: '30' })).toBe(
      AT + 30_000,
    );
    expect(paymentDeadline({ model: 'firstCome', paymentMinutes: 2 }, AT, { PAYMENT_MINUTE_SECONDS: ' ' })).toBe(
      AT + 120_000,
    );
    expect(() => paymentDeadline({ model: 'ballot' }, AT, { PAYMENT_MINUTE_SECONDS: '90' })).toThrow(
      'PAYMENT_MINUTE_SECONDS must be a number of seconds from 1 to 60, got "90"',
    );
  });
});
