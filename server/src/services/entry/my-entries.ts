/** A runner's own entries and orders (issue 14 §5: the personal centre). The routes: routes/entry/index.ts. */
import type { MyEntriesAnswer } from '#contract/entry';
import type { Repositories } from '../../db/repositories.ts';
import { myEntryViews } from './views.ts';

/** The runner's entries and orders at `now`. */
export async function myEntries(repos: Repositories, userId: number, now: number): Promise<MyEntriesAnswer> {
  const entries = await repos.entries.listForUser(userId);
  return {
    entries: await myEntryViews(repos, entries),
    orders: await repos.orders.listForUser(userId, now),
    now,
  };
}

/** The runner's order `orderNo` at `now`; another account's order answers as a missing one (undefined). */
export async function ownOrder(repos: Repositories, userId: number, orderNo: string, now: () => number) {
  const order = await repos.orders.findByNo(orderNo);
  if (!order || order.userId !== userId) return undefined;
  return repos.orders.view(order.orderNo, now());
}
