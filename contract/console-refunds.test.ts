import { readRefundProblem, refundProblemText, REFUND_PROBLEMS } from '#contract/console-refunds';

describe('a refund problem kept by the server, read back by the console', () => {
  it('gives back each kind with the provider’s own answer', () => {
    for (const kind of Object.keys(REFUND_PROBLEMS) as (keyof typeof REFUND_PROBLEMS)[]) {
      expect(readRefundProblem(refundProblemText(kind))).toEqual({ kind, detail: '' });
      expect(readRefundProblem(refundProblemText(kind, 'SYSTEM_ERROR: busy'))).toEqual({
        kind,
        detail: 'SYSTEM_ERROR: busy',
      });
    }
  });

  it('reads any other text (a network error) as other, whole', () => {
    expect(readRefundProblem('TypeError: fetch failed')).toEqual({ kind: 'other', detail: 'TypeError: fetch failed' });
    expect(readRefundProblem('the provider refused')).toEqual({ kind: 'other', detail: 'the provider refused' });
  });
});
