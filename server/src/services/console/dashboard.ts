/**
 * A race's live figures (issue 30 §4), for the console's dashboard and the CLI's `race-figures`: entries by
 * item, channel and status; places left; wait lists; orders by status; money received and refunded (integer
 * fen); letters signed; pick-up booked and collected; entries per day (in the race's time zone) and per hour
 * over the last two days. A handful of grouped queries, none per entry.
 */
import type { EntryChannel } from '#contract/entry';
import { DAY_MS, formatRaceTime, HOUR_MS } from '#contract/race-clock';
import { raceTimeZone } from '#contract/time-zone';
import type { PoolFigures } from '../../db/entry-admin-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { entrySettings } from '../organiser/race-items.ts';

export interface ItemFigures {
  itemCode: string;
  name: { zh: string; en: string };
  /** The main pool and, where the item has one, the charity pool. */
  pools: (PoolFigures & { left: number | null })[];
  /** Entries by channel, then by status (0-5). */
  channels: Partial<Record<EntryChannel, Record<number, number>>>;
  waiting: number;
  lettersSigned: number;
}

export interface RaceDashboard {
  raceId: string;
  raceName: { zh: string; en: string };
  timeZone: string;
  signUpOpen: boolean;
  asOf: number;
  items: ItemFigures[];
  /** Orders by status (1 awaiting payment, 3 paid, 4 cancelled, 5 refunded). */
  orders: Record<number, number>;
  money: { paidFen: number; refundedFen: number; netFen: number };
  pickup: { booked: number; collected: number };
  /** Entries per day in the race's zone ('YYYY-MM-DD'), oldest first, days without entries included. */
  perDay: { day: string; count: number }[];
  /** Entries per hour over the last 48 hours ('YYYY-MM-DD HH:00' in the race's zone), oldest first. */
  perHour: { hour: string; count: number }[];
}

const emptyPool = (itemCode: string, pool: 'main' | 'charity', capacity: number): PoolFigures => ({
  itemCode,
  pool,
  capacity,
  taken: 0,
  entries: {},
  orders: {},
  paidFen: 0,
  refundedFen: 0,
});

/** The figures of a race at `now`, or undefined when there is no such race. */
export async function raceDashboard(
  repos: Repositories,
  raceId: string,
  now: number,
): Promise<RaceDashboard | undefined> {
  const race = await repos.races.findById(raceId);
  if (!race) return undefined;
  const zone = raceTimeZone(race);
  const settings = entrySettings(race);
  const [pools, totals, counts, hours, waiting, letters, pickup] = await Promise.all([
    repos.entryAdmin.poolFigures(raceId),
    repos.entryAdmin.orderTotals(raceId),
    repos.raceFigures.entryCounts(raceId),
    repos.raceFigures.entriesPerHour(raceId),
    repos.raceFigures.waiting(raceId),
    repos.raceFigures.lettersSigned(raceId),
    repos.raceFigures.pickup(raceId),
  ]);
  // Items of race.json whose places are not set up yet (nothing submitted so far): their settings' capacity.
  for (const item of settings?.items ?? []) {
    for (const [pool, capacity] of [
      ['main', item.capacity],
      ['charity', item.charity?.capacity],
    ] as const) {
      if (capacity === undefined || pools.some((p) => p.itemCode === item.code && p.pool === pool)) continue;
      pools.push(emptyPool(item.code, pool, capacity));
    }
  }
  const codes = [...new Set([...(settings?.items ?? []).map((i) => i.code), ...pools.map((p) => p.itemCode)])];
  const items = codes.map((itemCode): ItemFigures => {
    const item = settings?.items.find((i) => i.code === itemCode);
    const channels: ItemFigures['channels'] = {};
    for (const row of counts.filter((c) => c.itemCode === itemCode)) {
      const byStatus = (channels[row.channel as EntryChannel] ??= {});
      byStatus[row.status] = (byStatus[row.status] ?? 0) + row.count;
    }
    return {
      itemCode,
      name: item ? { zh: item.name.zh, en: item.name.en || item.name.zh } : { zh: itemCode, en: itemCode },
      pools: pools
        .filter((p) => p.itemCode === itemCode)
        .sort((a, b) => a.pool.localeCompare(b.pool) * -1)
        .map((p) => ({ ...p, left: p.capacity === null ? null : Math.max(0, p.capacity - (p.taken ?? 0)) })),
      channels,
      waiting: waiting.get(itemCode) ?? 0,
      lettersSigned: letters.get(itemCode) ?? 0,
    };
  });

  const perDay: RaceDashboard['perDay'] = [];
  for (const { hour, count } of hours) {
    const day = formatRaceTime(hour, 'YYYY-MM-DD', zone);
    const last = perDay.at(-1);
    if (last?.day === day) last.count += count;
    else {
      // Days without entries between two with entries, so a chart's axis has no jumps.
      if (last) {
        for (let t = hour - DAY_MS; ; t -= DAY_MS) {
          const gap = formatRaceTime(t, 'YYYY-MM-DD', zone);
          if (gap <= last.day) break;
          if (!perDay.some((d) => d.day === gap)) perDay.push({ day: gap, count: 0 });
        }
        perDay.sort((a, b) => a.day.localeCompare(b.day));
      }
      perDay.push({ day, count });
    }
  }
  const firstHour = Math.floor(now / HOUR_MS) * HOUR_MS - 47 * HOUR_MS;
  const byHour = new Map(hours.map((h) => [h.hour, h.count]));
  const perHour = Array.from({ length: 48 }, (_, i) => {
    const at = firstHour + i * HOUR_MS;
    return { hour: formatRaceTime(at, 'YYYY-MM-DD HH:00', zone), count: byHour.get(at) ?? 0 };
  });

  return {
    raceId,
    raceName: { zh: race.raceName, en: race.raceNameEn || race.raceName },
    timeZone: zone,
    signUpOpen: race.signUpOpenStatus === 1,
    asOf: now,
    items,
    orders: totals.orders,
    money: { paidFen: totals.paidFen, refundedFen: totals.refundedFen, netFen: totals.paidFen - totals.refundedFen },
    pickup,
    perDay,
    perHour,
  };
}
