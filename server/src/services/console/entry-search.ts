/**
 * The console's list of a race's entries (issue 30 §5): search and filters as the staff type them, checked,
 * and one page of ENTRY_PAGE_SIZE with the total. Personal numbers masked (entry-search-repository.ts).
 */
import { ENTRY_CHANNELS, type EntryChannel, type EntryModel } from '#contract/entry';
import { raceTimeZone } from '#contract/time-zone';
import type { EntrySearchRow } from '../../db/entry-search-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { entrySettings } from '../organiser/race-items.ts';

export const ENTRY_PAGE_SIZE = 50;
/** The longest search text taken (a name, a certificate, entry, order or bib number). */
export const ENTRY_QUERY_MAX = 64;

export interface EntryListQuery {
  q?: string;
  item?: string;
  status?: string | number;
  channel?: string;
  page?: string | number;
}

/** An item of the race as the list's filter and rows name it (race.json `entry.items`). */
export interface EntryListItem {
  code: string;
  name: { zh: string; en: string };
  model: EntryModel;
}

export type EntryListOutcome =
  | {
      ok: true;
      total: number;
      page: number;
      pageSize: number;
      rows: EntrySearchRow[];
      /** The race's items (for the item filter and the status wording) and its clock's time zone. */
      items: EntryListItem[];
      zone: string;
    }
  | { ok: false; field: 'q' | 'status' | 'channel' | 'page' };

/** The search and filters of the list (and of its export), checked: what the repository takes, or the bad field. */
export type EntryFilters = { q?: string; item?: string; status?: number; channel?: EntryChannel };

export function parseEntryFilters(
  query: Omit<EntryListQuery, 'page'>,
): { ok: true; filters: EntryFilters } | { ok: false; field: 'q' | 'status' | 'channel' } {
  const q = typeof query.q === 'string' ? query.q.trim() : '';
  if (q.length > ENTRY_QUERY_MAX) return { ok: false, field: 'q' };
  const status = query.status === undefined || query.status === '' ? undefined : Number(query.status);
  if (status !== undefined && !(Number.isInteger(status) && status >= 0 && status <= 5)) {
    return { ok: false, field: 'status' };
  }
  const channel = query.channel === undefined || query.channel === '' ? undefined : query.channel;
  if (channel !== undefined && !(ENTRY_CHANNELS as readonly string[]).includes(channel)) {
    return { ok: false, field: 'channel' };
  }
  const item = typeof query.item === 'string' && query.item !== '' ? query.item : undefined;
  return { ok: true, filters: { q: q || undefined, item, status, channel: channel as EntryChannel | undefined } };
}

export async function listEntries(
  repos: Repositories,
  raceId: string,
  query: EntryListQuery,
): Promise<EntryListOutcome> {
  const parsed = parseEntryFilters(query);
  if (!parsed.ok) return parsed;
  const page = query.page === undefined || query.page === '' ? 1 : Number(query.page);
  if (!Number.isInteger(page) || page < 1 || page > 100_000) return { ok: false, field: 'page' };
  const { q, item, status, channel } = parsed.filters;
  const found = await repos.entrySearch.search({
    raceId,
    q,
    itemCode: item,
    status,
    channel,
    page,
    pageSize: ENTRY_PAGE_SIZE,
  });
  const race = await repos.races.findById(raceId);
  const items = ((race && entrySettings(race)?.items) ?? []).map(({ code, name, model }) => ({ code, name, model }));
  return {
    ok: true,
    total: found.total,
    page,
    pageSize: ENTRY_PAGE_SIZE,
    rows: found.rows,
    items,
    zone: raceTimeZone(race),
  };
}
