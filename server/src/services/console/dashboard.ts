/**
 * A race's live figures (issue 30 §4), for the console's dashboard and the CLI's `race-figures`: entries by
 * item, channel and status; places left; wait lists; orders unpaid, paid, cancelled and refunded; money
 * received and refunded, and refunds still owed (integer fen); letters signed; pick-up booked and collected;
 * entries per day (in the race's time zone, up to today) and per hour over the last two days. A handful of
 * grouped queries over the race's indexes (db/race-figures-repository.ts), none per entry: at 100,000 entries
 * the figures take well under the 300 ms budget (scripts/bench-console.ts).
 *
 * Live: the console asks again every few seconds (polling, admin/src/pages/dashboard), and `dashboardCache`
 * keeps each race's figures for DASHBOARD_CACHE_MS, so fifty staff watching one race cost one computation per
 * window, not fifty. Polling rather than server-sent events: the server runs as several node:cluster workers
 * (server.ts), each with its own memory, and an entry written through one worker is not seen by a stream held
 * open by another without a channel between them (or a database notification PostgreSQL has and SQLite has
 * not); a poll reads the shared database whichever worker answers it. docs/architecture.md.
 */
import type { ItemFigures, PoolFigures, RaceDashboard } from '#contract/console-figures';
import type { EntryChannel } from '#contract/entry';
import { DAY_MS, endOfRaceDay, formatRaceTime, HOUR_MS } from '#contract/race-clock';
import { DASHBOARD_CACHE_MS } from '#contract/console-figures';
import { raceTimeZone } from '#contract/time-zone';
import type { PoolFigures as PoolMoneyFigures } from '../../db/entry-admin-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { entrySettings } from '../organiser/race-items.ts';

/** The calendar day after 'YYYY-MM-DD' (a date, not a time: no zone and no daylight saving come into it). */
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

const add = <K extends string | number>(into: Partial<Record<K, number>>, key: K, n: number) => {
  into[key] = (into[key] ?? 0) + n;
};

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
  const figures = repos.raceFigures;
  const [places, counts, hours, waiting, letters, pickup, orders, owed] = await Promise.all([
    figures.places(raceId),
    figures.entryCounts(raceId),
    figures.entriesPerHour(raceId),
    figures.waiting(raceId),
    figures.lettersSigned(raceId),
    figures.pickup(raceId),
    repos.entryAdmin.orderTotals(raceId),
    figures.refundsUnderway(raceId),
  ]);

  // Items of race.json first, in its order, then any other item that has places or entries.
  const codes = [
    ...new Set([
      ...(settings?.items ?? []).map((i) => i.code),
      ...places.map((p) => p.itemCode),
      ...counts.map((c) => c.itemCode),
    ]),
  ];
  const items = codes.map((itemCode): ItemFigures => {
    const item = settings?.items.find((i) => i.code === itemCode);
    const pools = new Map<'main' | 'charity', PoolFigures>();
    const pool = (name: 'main' | 'charity') => {
      let found = pools.get(name);
      if (!found) {
        found = { pool: name, capacity: null, taken: null, left: null, entries: {} };
        pools.set(name, found);
      }
      return found;
    };
    // Places as the sign-up keeps them; those of race.json not set up yet (nothing submitted so far) from it.
    for (const [name, capacity] of [
      ['main', item?.capacity],
      ['charity', item?.charity?.capacity],
    ] as const) {
      if (capacity !== undefined) Object.assign(pool(name), { capacity, taken: 0 });
    }
    for (const p of places.filter((p) => p.itemCode === itemCode)) {
      Object.assign(pool(p.pool), { capacity: p.capacity, taken: p.taken });
    }
    const channels: ItemFigures['channels'] = {};
    let total = 0;
    for (const row of counts.filter((c) => c.itemCode === itemCode)) {
      add((channels[row.channel as EntryChannel] ??= {}), row.status, row.count);
      add(pool(row.channel === 'charity' ? 'charity' : 'main').entries, row.status, row.count);
      total += row.count;
    }
    return {
      itemCode,
      name: item ? { zh: item.name.zh, en: item.name.en || item.name.zh } : { zh: itemCode, en: itemCode },
      pools: [...pools.values()]
        .sort((a, b) => (a.pool === b.pool ? 0 : a.pool === 'main' ? -1 : 1))
        .map((p) => ({ ...p, left: p.capacity === null ? null : Math.max(0, p.capacity - (p.taken ?? 0)) })),
      channels,
      total,
      waiting: waiting.get(itemCode) ?? 0,
      lettersSigned: letters.get(itemCode) ?? 0,
    };
  });

  const totals: RaceDashboard['totals'] = {
    entries: 0,
    byStatus: {},
    byChannel: {},
    capacity: null,
    left: null,
    waiting: 0,
    lettersSigned: 0,
  };
  for (const row of counts) {
    totals.entries += row.count;
    add(totals.byStatus, row.status, row.count);
    add(totals.byChannel, row.channel as EntryChannel, row.count);
  }
  for (const item of items) {
    totals.waiting += item.waiting;
    totals.lettersSigned += item.lettersSigned;
    for (const p of item.pools) {
      if (p.capacity === null) continue;
      totals.capacity = (totals.capacity ?? 0) + p.capacity;
      totals.left = (totals.left ?? 0) + (p.left ?? 0);
    }
  }

  // Per day: the hours' counts summed by their day in the race's zone (hours start on whole UTC hours, so a
  // zone whose offset is not a whole number of hours puts an hour's entries on the day the hour starts in),
  // every day from the first entry's to today's, days without entries included, so the chart's axis has no jumps.
  // The hours come oldest first: a day's name is worked out once, at its first hour (zone conversions are
  // the costly part of this function, 720 of them for a month of hours).
  const byDay = new Map<string, number>();
  let day = '';
  let nextDayAt = -Infinity;
  for (const { hour, count } of hours) {
    if (hour >= nextDayAt) {
      day = formatRaceTime(hour, 'YYYY-MM-DD', zone);
      nextDayAt = endOfRaceDay(hour, zone);
    }
    byDay.set(day, (byDay.get(day) ?? 0) + count);
  }
  // Before any entry: today alone (a chart with its axis, at nought).
  const perDay: RaceDashboard['perDay'] = [];
  const today = formatRaceTime(now, 'YYYY-MM-DD', zone);
  const days = [...byDay.keys(), today].sort();
  for (let day = days[0]!; day <= days.at(-1)!; day = nextDay(day)) perDay.push({ day, count: byDay.get(day) ?? 0 });
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
    totals,
    orders: orders.orders,
    money: {
      paidFen: orders.paidFen,
      refundedFen: orders.refundedFen,
      netFen: orders.paidFen - orders.refundedFen,
      owedRefunds: owed.count,
      owedRefundFen: owed.amountFen,
    },
    pickup,
    perDay,
    perHour,
  };
}

/**
 * Each race's figures for `ttlMs` (one worker's memory): callers within the window get the same figures, and
 * callers while they are computed wait for that one computation (no stampede when fifty consoles ask at once).
 * A failed computation is not kept. `now` is the caller's clock (the server's injected one).
 */
export function dashboardCache(ttlMs = DASHBOARD_CACHE_MS) {
  const kept = new Map<string, { at: number; figures: Promise<RaceDashboard | undefined> }>();
  return (repos: Repositories, raceId: string, now: number): Promise<RaceDashboard | undefined> => {
    const hit = kept.get(raceId);
    if (hit && now >= hit.at && now - hit.at < ttlMs) return hit.figures;
    for (const [id, entry] of kept) if (now - entry.at >= ttlMs) kept.delete(id);
    const figures = raceDashboard(repos, raceId, now);
    const entry = { at: now, figures };
    kept.set(raceId, entry);
    figures.catch(() => {
      if (kept.get(raceId) === entry) kept.delete(raceId);
    });
    return figures;
  };
}

/**
 * Orders and money per item and pool of the race (the CLI's race-figures): a join of every order to its
 * entries, which the dashboard spares itself (it keeps these to the race); the command line takes the time.
 */
export const poolMoneyFigures = (repos: Repositories, raceId: string): Promise<PoolMoneyFigures[]> =>
  repos.entryAdmin.poolFigures(raceId);
