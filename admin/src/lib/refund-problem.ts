/**
 * Why a refund is still owed (refunds.last_error, kept in English for the command line), worded in the member's
 * language: the provider's own answer is shown as it came (contract/console-refunds.ts readRefundProblem).
 */
import type { TFunction } from 'i18next';
import { readRefundProblem } from '#contract/console-refunds';

export function refundProblemWords(t: TFunction, lastError: string | null): string {
  if (!lastError) return t('refunds.noAnswer');
  const { kind, detail } = readRefundProblem(lastError);
  return t(`refunds.problems.${kind}`, { detail: detail || t('refunds.noAnswer') });
}
