/**
 * The audit log (issue 30 §3): every staff action and every CLI command that changes data, with who, when,
 * from where, what, and the values before and after (personal numbers masked, secrets never). Append-only
 * and hash-chained: each record's hash covers its fields and the hash of the record before it, so an edited
 * or deleted record breaks the chain, which `verifyAuditChain` (CLI `audit-verify`, the console) finds. The
 * head hash it prints is what an owner notes down elsewhere: a chain cut short at its end is found by
 * comparing heads.
 */
import { createHash } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { AUDIT_LOCK, type AuditFilter, type AuditRecord } from '../../db/audit-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import type { AuditAction } from '#contract/audit-actions';
import type { AuditEntry, AuditPage, AuditVerdict } from '#contract/staff';
import { maskPhone } from '../../lib/accounts.ts';
import { maskCertNo } from '../../lib/race-center.ts';

/** The hash before the first record. */
export const AUDIT_GENESIS = '0'.repeat(64);

/** Who acted: a staff member (console) or the command line. */
export type AuditActor = { kind: 'staff'; staffId: number; source: string } | { kind: 'cli' };

export interface AuditEvent {
  /** One of the listed actions (contract/audit-actions.ts): the console names each in both languages. */
  action: AuditAction;
  raceId?: string | null;
  target: string;
  before?: unknown;
  after?: unknown;
}

/** The command line's actor: the operating-system user and host that ran it. */
export function cliActorName(): string {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no passwd entry (a container): keep 'unknown'
  }
  return `cli:${user}@${hostname()}`;
}

const ID_NUMBER = /(?<![0-9A-Za-z])(?:\d{17}[\dXx]|\d{15})(?![0-9A-Za-z])/g;
const MOBILE = /(?<!\d)1[3-9]\d{9}(?!\d)/g;
const SECRET_KEY = /password|secret|token|totp|csrf/i;

/** A value as the log keeps it: ID numbers and mobile numbers masked anywhere, secrets left out. */
export function maskAuditValue(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(ID_NUMBER, (id) => maskCertNo(id)).replace(MOBILE, maskPhone);
  if (Array.isArray(value)) return value.map(maskAuditValue);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [key, SECRET_KEY.test(key) ? '[hidden]' : maskAuditValue(v)]),
    );
  }
  return value;
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(maskAuditValue(value)));

/** The hash of a record: its fields and the hash before it, in a fixed order. */
export function auditHash(record: Omit<AuditRecord, 'hash'>): string {
  const fields = [
    record.seq,
    record.at,
    record.actor,
    record.staffId,
    record.source,
    record.action,
    record.raceId,
    record.target,
    record.before,
    record.after,
    record.prevHash,
  ];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/**
 * Appends one record, chained to the last (inside the caller's transaction when `repos` is one: the record
 * stands or falls with the change it describes).
 */
export async function appendAudit(
  repos: Repositories,
  actor: AuditActor | string,
  event: AuditEvent,
  now: number,
): Promise<AuditRecord> {
  return repos.transaction(async (tx) => {
    await tx.db.lock(AUDIT_LOCK);
    const last = await tx.audit.last();
    const who =
      typeof actor === 'string'
        ? { actor, staffId: null, source: 'cli' }
        : actor.kind === 'cli'
          ? { actor: cliActorName(), staffId: null, source: 'cli' }
          : { actor: `staff:${actor.staffId}`, staffId: actor.staffId, source: actor.source };
    const unhashed: Omit<AuditRecord, 'hash'> = {
      seq: (last?.seq ?? 0) + 1,
      at: now,
      ...who,
      action: event.action,
      raceId: event.raceId ?? null,
      target: maskAuditValue(event.target) as string,
      before: json(event.before),
      after: json(event.after),
      prevHash: last?.hash ?? AUDIT_GENESIS,
    };
    const record = { ...unhashed, hash: auditHash(unhashed) };
    await tx.audit.insert(record);
    return record;
  });
}

export type { AuditVerdict };

/** Reads the whole log in order and checks every link: sequence without gaps, hashes, previous hashes. */
export async function verifyAuditChain(repos: Repositories): Promise<AuditVerdict> {
  let expectedSeq = 1;
  let prev = AUDIT_GENESIS;
  for (;;) {
    const page = await repos.audit.page(expectedSeq - 1, 1000);
    if (page.length === 0) return { ok: true, count: expectedSeq - 1, head: prev };
    for (const record of page) {
      const count = expectedSeq - 1;
      if (record.seq !== expectedSeq) {
        return { ok: false, count, brokenAt: expectedSeq, reason: `record ${expectedSeq} is missing` };
      }
      if (record.prevHash !== prev) {
        return {
          ok: false,
          count,
          brokenAt: record.seq,
          reason: `record ${record.seq} does not follow the one before`,
        };
      }
      const { hash, ...unhashed } = record;
      if (auditHash(unhashed) !== hash) {
        return {
          ok: false,
          count,
          brokenAt: record.seq,
          reason: `record ${record.seq} was changed after it was written`,
        };
      }
      prev = hash;
      expectedSeq += 1;
    }
  }
}

export const AUDIT_PAGE_MAX = 200;

/** The newest records matching `filter` (at most AUDIT_PAGE_MAX). */
export function findAudit(repos: Repositories, filter: Partial<AuditFilter>): Promise<AuditRecord[]> {
  return repos.audit.find({ ...filter, limit: Math.min(Math.max(filter.limit ?? 50, 1), AUDIT_PAGE_MAX) });
}

/** The actions the log holds, in alphabetical order (the console's filter offers them). */
export const auditActions = (repos: Repositories): Promise<string[]> => repos.audit.actions();

/** The filters of the audit list and export as the console sends them (all optional text). */
export interface AuditQuery {
  action?: string;
  race?: string;
  /** A staff member's id, or 'cli' for the command line. */
  actor?: string;
  /** From this instant (epoch ms, inclusive) to that one (exclusive). */
  from?: string;
  to?: string;
  before?: string;
  limit?: string;
}

const wholeNumber = (text: string) => (/^\d{1,16}$/.test(text) ? Number(text) : undefined);

/** The filter of a console query, or the field that is wrong. */
export function auditFilterOf(
  query: AuditQuery,
): { ok: true; filter: Omit<AuditFilter, 'limit'> & { limit: number } } | { ok: false; field: string } {
  const filter: Omit<AuditFilter, 'limit'> & { limit: number } = { limit: 50 };
  if (query.action) filter.action = query.action.slice(0, 100);
  if (query.race) filter.raceId = query.race.slice(0, 64);
  if (query.actor) {
    if (query.actor === 'cli') filter.actor = 'cli';
    else {
      const id = wholeNumber(query.actor);
      if (!id) return { ok: false, field: 'actor' };
      filter.actor = `staff:${id}`;
    }
  }
  for (const key of ['from', 'to'] as const) {
    const text = query[key];
    if (text === undefined || text === '') continue;
    const at = wholeNumber(text);
    if (at === undefined) return { ok: false, field: key };
    filter[key] = at;
  }
  if (filter.from !== undefined && filter.to !== undefined && filter.to <= filter.from) {
    return { ok: false, field: 'to' };
  }
  if (query.before !== undefined && query.before !== '') {
    const seq = wholeNumber(query.before);
    if (!seq) return { ok: false, field: 'before' };
    filter.beforeSeq = seq;
  }
  if (query.limit !== undefined && query.limit !== '') {
    const size = wholeNumber(query.limit);
    if (!size || size > AUDIT_PAGE_MAX) return { ok: false, field: 'limit' };
    filter.limit = size;
  }
  return { ok: true, filter };
}

/** A record as the console shows it: with the acting member's name and e-mail (kept after their removal). */
export type AuditListed = AuditEntry;

async function withActorNames(repos: Repositories, records: readonly AuditRecord[]): Promise<AuditListed[]> {
  const names = new Map<number, string>();
  for (const id of new Set(records.flatMap((r) => (r.staffId === null ? [] : [r.staffId])))) {
    const member = await repos.staff.findById(id);
    names.set(id, member ? `${member.name} <${member.email}>` : `#${id}`);
  }
  return records.map((r) => ({ ...r, actorName: r.staffId === null ? r.actor : (names.get(r.staffId) ?? r.actor) }));
}

/** One page of the console's list, newest first, and the `before` of the next (older) page, or null. */
export async function auditPage(repos: Repositories, filter: AuditFilter): Promise<AuditPage> {
  const limit = Math.min(Math.max(filter.limit, 1), AUDIT_PAGE_MAX);
  const found = await repos.audit.find({ ...filter, limit: limit + 1 });
  const records = await withActorNames(repos, found.slice(0, limit));
  return { records, next: found.length > limit ? records.at(-1)!.seq : null };
}

/** The columns of an audit export. */
export const AUDIT_COLUMNS = [
  'seq',
  'at (UTC)',
  'actor',
  'actor name',
  'from',
  'action',
  'race',
  'target',
  'before',
  'after',
  'hash',
] as const;

export function auditRows(records: readonly AuditListed[]): string[][] {
  return records.map((r) => [
    String(r.seq),
    new Date(r.at).toISOString(),
    r.actor,
    r.actorName,
    r.source,
    r.action,
    r.raceId ?? '',
    r.target,
    r.before ?? '',
    r.after ?? '',
    r.hash,
  ]);
}

/**
 * Every record matching `filter` (newest first) as a CSV table with its header, read 1,000 at a time; the
 * export itself is then recorded, with its filters and how many records it holds.
 */
export async function exportAudit(
  repos: Repositories,
  filter: Omit<AuditFilter, 'limit' | 'beforeSeq'>,
  actor: AuditActor,
  now: number,
): Promise<{ table: string[][]; count: number }> {
  const table: string[][] = [[...AUDIT_COLUMNS]];
  let beforeSeq: number | undefined;
  for (;;) {
    const page = await repos.audit.find({ ...filter, beforeSeq, limit: 1000 });
    table.push(...auditRows(await withActorNames(repos, page)));
    if (page.length < 1000) break;
    beforeSeq = page.at(-1)!.seq;
  }
  const count = table.length - 1;
  await appendAudit(repos, actor, { action: 'audit.export', target: 'audit log', after: { ...filter, count } }, now);
  return { table, count };
}
