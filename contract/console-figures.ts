/**
 * A race's live figures as the console's dashboard receives them (GET /api/admin/races/:raceId/dashboard,
 * computed by server/src/services/console/dashboard.ts; issue 30 §4). Amounts are integer fen (shown with
 * entry.ts formatFen); days and hours are in the race's time zone.
 */
import type { EntryChannel } from '#contract/entry';

/** How often the console asks for the figures again (polling: docs/architecture.md "The console's live figures"). */
export const DASHBOARD_POLL_MS = 5_000;
/** How long the server keeps a race's figures for the next caller (one computation per window, per worker). */
export const DASHBOARD_CACHE_MS = 2_000;

export interface PoolFigures {
  pool: 'main' | 'charity';
  /** Places in all, taken and left; null when the pool has no places set (entries of an item no longer listed). */
  capacity: number | null;
  taken: number | null;
  left: number | null;
  /** Entries by status (0-5). */
  entries: Record<number, number>;
}

export interface ItemFigures {
  itemCode: string;
  name: { zh: string; en: string };
  /** The main pool and, where the item has one, the charity pool. */
  pools: PoolFigures[];
  /** Entries by channel, then by status (0-5). */
  channels: Partial<Record<EntryChannel, Record<number, number>>>;
  /** Entries of the item (every status). */
  total: number;
  waiting: number;
  lettersSigned: number;
}

export interface RaceDashboard {
  raceId: string;
  raceName: { zh: string; en: string };
  timeZone: string;
  signUpOpen: boolean;
  /** When the figures were computed (epoch ms). */
  asOf: number;
  items: ItemFigures[];
  /** The race's sums over its items. `left` is null when no pool has places set. */
  totals: {
    entries: number;
    byStatus: Record<number, number>;
    byChannel: Partial<Record<EntryChannel, number>>;
    capacity: number | null;
    left: number | null;
    waiting: number;
    lettersSigned: number;
  };
  /** Orders by status (1 awaiting payment, 3 paid, 4 cancelled, 5 refunded). */
  orders: Record<number, number>;
  /** Money received and refunded, and refunds recorded but not yet confirmed by the provider (owed). */
  money: { paidFen: number; refundedFen: number; netFen: number; owedRefunds: number; owedRefundFen: number };
  pickup: { booked: number; collected: number };
  /** Entries per day in the race's zone ('YYYY-MM-DD'), oldest first, from the first entry's day to today. */
  perDay: { day: string; count: number }[];
  /** Entries per hour over the last 48 hours ('YYYY-MM-DD HH:00' in the race's zone), oldest first. */
  perHour: { hour: string; count: number }[];
}

/** What a member receives: money is null for a role without the `money` permission. */
export type ConsoleDashboard = Omit<RaceDashboard, 'money'> & { money: RaceDashboard['money'] | null };
