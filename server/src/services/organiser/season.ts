/**
 * The entry season as the console's season page and the CLI see it (issue 32 §1): every item's channels with
 * their state under the one rule (contract/season.ts entryStateFor) and the switches; the race's invitation and
 * direct-pass codes with their use (which entries used each), revoked one by one (codes-revoke), and written to
 * a file (.xlsx or .csv). The codes are secrets: the list and the files are the owner's ('season'), and every
 * file made is in the audit log (codes.export) before its first byte goes out.
 */
import { signUpWindow } from '#contract/entry';
import {
  CODE_STATES,
  codeState,
  entryStateFor,
  itemChannels,
  type CodeState,
  type SeasonCode,
  type SeasonCodesPage,
  type SeasonView,
} from '#contract/season';
import type { Repositories } from '../../db/repositories.ts';
import { formatCsv } from '../../lib/csv.ts';
import { maskName } from '../../lib/race-center.ts';
import { xlsx } from '../../lib/xlsx.ts';
import { formatRaceTime } from '#contract/race-clock';
import { appendAudit, type AuditActor } from '../staff/audit.ts';
import { codeKindLabel, raceCodes } from './invitation-codes.ts';
import { entrySettings, raceContext } from './race-items.ts';

/** The season page: the race-wide switch and window, and each item's channels with state and switch. */
export async function seasonOverview(
  repos: Repositories,
  raceId: string,
  now: number,
): Promise<SeasonView | undefined> {
  const context = await raceContext(repos, raceId);
  if (!context) return undefined;
  const { race } = context;
  const settings = entrySettings(race);
  const closures = await repos.season.closures(raceId);
  const items = (settings?.items ?? []).map((item) => ({
    code: item.code,
    name: item.name,
    closed: closures.some((c) => c.itemCode === item.code && c.channel === ''),
    channels: itemChannels(item, settings, !!race.directApplication).map((channel) => ({
      channel,
      state: entryStateFor(race, closures, item.code, channel, now),
      closed: closures.some((c) => c.itemCode === item.code && c.channel === channel),
    })),
  }));
  return {
    raceId,
    open: race.signUpOpenStatus === 1,
    windowState: signUpWindow(race, now),
    signUpStartTime: race.signUpStartTime ?? null,
    signUpEndTime: race.signUpEndTime ?? null,
    timeZone: context.zone,
    closedChannels: closures
      .filter((c) => c.itemCode === '' && c.channel !== '')
      .map((c) => c.channel) as SeasonView['closedChannels'],
    items,
    now,
  };
}

export interface CodesQuery {
  item?: string;
  state?: string;
  /** The codes issued at this instant (one issue's batch: its createdAt). */
  batch?: string;
  page?: string;
  pageSize?: string;
}

type CodesFilter = { item?: string; state?: CodeState; batch?: number };

/** The filter of a query, or the field that is wrong. */
export function codesFilterOf(query: CodesQuery): { ok: true; filter: CodesFilter } | { ok: false; field: string } {
  const filter: CodesFilter = {};
  if (query.item) filter.item = query.item;
  if (query.state) {
    if (!(CODE_STATES as readonly string[]).includes(query.state)) return { ok: false, field: 'state' };
    filter.state = query.state as CodeState;
  }
  if (query.batch) {
    if (!/^\d{1,16}$/.test(query.batch)) return { ok: false, field: 'batch' };
    filter.batch = Number(query.batch);
  }
  return { ok: true, filter };
}

/** The race's codes with their state and the entries that used them, filtered, in issue order. */
async function filteredCodes(repos: Repositories, raceId: string, filter: CodesFilter, now: number) {
  const [codes, uses] = await Promise.all([raceCodes(repos, raceId), repos.season.codeEntries(raceId)]);
  const counts = Object.fromEntries(CODE_STATES.map((state) => [state, 0])) as Record<CodeState, number>;
  const shown: SeasonCode[] = [];
  for (const c of codes) {
    const state = codeState(c, now);
    counts[state] += 1;
    if (filter.item !== undefined && c.itemCode !== filter.item) continue;
    if (filter.state !== undefined && state !== filter.state) continue;
    if (filter.batch !== undefined && c.createdAt !== filter.batch) continue;
    shown.push({
      code: c.code,
      itemCode: c.itemCode,
      kind: codeKindLabel(c),
      namedFor: c.kind === 'named' ? maskName(c.namedName ?? '') : null,
      maxUses: c.maxUses,
      used: c.used,
      expiresAt: c.expiresAt,
      revokedAt: c.revokedAt,
      note: c.note,
      createdAt: c.createdAt,
      state,
      entries: uses.get(c.code) ?? [],
    });
  }
  return { shown, counts };
}

export const CODES_PAGE_MAX = 200;

/** A page of the race's codes for the console; undefined when there is no such race. */
export async function codesPage(
  repos: Repositories,
  raceId: string,
  filter: CodesFilter,
  paging: { page: number; pageSize: number },
  now: number,
): Promise<SeasonCodesPage | undefined> {
  if (!(await repos.races.findById(raceId))) return undefined;
  const { shown, counts } = await filteredCodes(repos, raceId, filter, now);
  const size = Math.min(Math.max(paging.pageSize, 1), CODES_PAGE_MAX);
  const start = (Math.max(paging.page, 1) - 1) * size;
  return { codes: shown.slice(start, start + size), total: shown.length, counts };
}

export type RevokeOutcome = { ok: true; changed: boolean } | { ok: false; reason: 'noRace' | 'noCode' };

/** Revokes a code of the race (refused at sign-up from then on); the audit record codes.revoke with it. */
export async function revokeCode(
  repos: Repositories,
  input: { raceId: string; code: string; actor: AuditActor; now: number },
): Promise<RevokeOutcome> {
  const { raceId, actor, now } = input;
  const code = input.code.trim().toUpperCase();
  if (!(await repos.races.findById(raceId))) return { ok: false, reason: 'noRace' };
  const found = await repos.entries.findCode(raceId, code);
  if (!found) return { ok: false, reason: 'noCode' };
  if (found.revokedAt !== null) return { ok: true, changed: false };
  const changed = await repos.transaction(async (tx) => {
    if (!(await tx.season.revokeCode(raceId, code, now))) return false;
    await appendAudit(
      tx,
      actor,
      {
        action: 'codes.revoke',
        raceId,
        // The code's last four characters: enough to find it, not enough to use it.
        target: `${raceId} code …${code.slice(-4)}`,
        before: { used: found.used, maxUses: found.maxUses },
        after: { revoked: true, item: found.itemCode },
      },
      now,
    );
    return true;
  });
  return { ok: true, changed };
}

export const CODES_EXPORT_FORMATS = ['xlsx', 'csv'] as const;

export type CodesExportOutcome =
  | { ok: true; fileName: string; contentType: string; rows: number; body: Buffer }
  | { ok: false; reason: 'noRace' }
  | { ok: false; field: string };

const CONTENT_TYPES = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
} as const;

const CODE_COLUMNS = ['code', 'itemCode', 'kind', 'uses', 'used', 'state', 'expires', 'namedFor', 'note', 'entries'];

/** The race's codes (filtered) as a file, recorded in the audit log (codes.export: who, filters, rows). */
export async function exportCodes(
  repos: Repositories,
  raceId: string,
  query: CodesQuery & { format?: string },
  actor: AuditActor,
  now: number,
): Promise<CodesExportOutcome> {
  const format = query.format ?? 'xlsx';
  if (format !== 'xlsx' && format !== 'csv') return { ok: false, field: 'format' };
  const parsed = codesFilterOf(query);
  if (!parsed.ok) return parsed;
  const context = await raceContext(repos, raceId);
  if (!context) return { ok: false, reason: 'noRace' };
  const { shown } = await filteredCodes(repos, raceId, parsed.filter, now);
  const rows = shown.map((c) => [
    c.code,
    c.itemCode,
    c.kind,
    String(c.maxUses),
    String(c.used),
    c.state,
    c.expiresAt === null ? '' : formatRaceTime(c.expiresAt, undefined, context.zone),
    c.namedFor ?? '',
    c.note,
    c.entries.join(' '),
  ]);
  await appendAudit(
    repos,
    actor,
    {
      action: 'codes.export',
      raceId,
      target: `${raceId} codes`,
      after: { format, ...parsed.filter, rows: rows.length },
    },
    now,
  );
  const stamp = new Date(now).toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  const body =
    format === 'xlsx'
      ? xlsx('codes', [CODE_COLUMNS, ...rows])
      : Buffer.from(formatCsv([CODE_COLUMNS, ...rows]), 'utf8');
  return {
    ok: true,
    fileName: `${raceId}-codes-${stamp}.${format}`,
    contentType: CONTENT_TYPES[format],
    rows: rows.length,
    body,
  };
}
