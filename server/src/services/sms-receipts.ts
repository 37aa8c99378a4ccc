/** The SMS providers' delivery receipts (routes/sms/receipt.ts): each message delivered or failed, once. */
import type { Repositories } from '../db/repositories.ts';
import type { SmsReceipt } from '../lib/sms/provider.ts';

/** Records `receipts` of `provider`; answers how many messages changed (a repeated receipt changes none). */
export async function recordSmsReceipts(
  repos: Repositories,
  provider: string,
  receipts: SmsReceipt[],
  now: number,
): Promise<number> {
  let changed = 0;
  for (const receipt of receipts) changed += await repos.outbox.receipt(provider, receipt.messageId, receipt, now);
  return changed;
}
