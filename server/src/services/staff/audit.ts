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
import { maskPhone } from '../../lib/accounts.ts';
import { maskCertNo } from '../../lib/race-center.ts';

/** The hash before the first record. */
export const AUDIT_GENESIS = '0'.repeat(64);

/** Who acted: a staff member (console) or the command line. */
export type AuditActor = { kind: 'staff'; staffId: number; source: string } | { kind: 'cli' };

export interface AuditEvent {
  action: string;
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

export type AuditVerdict =
  { ok: true; count: number; head: string } | { ok: false; count: number; brokenAt: number; reason: string };

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

/** The columns of an audit export. */
export const AUDIT_COLUMNS = [
  'seq',
  'at',
  'actor',
  'source',
  'action',
  'raceId',
  'target',
  'before',
  'after',
  'hash',
] as const;

export function auditRows(records: readonly AuditRecord[]): string[][] {
  return records.map((r) => [
    String(r.seq),
    new Date(r.at).toISOString(),
    r.actor,
    r.source,
    r.action,
    r.raceId ?? '',
    r.target,
    r.before ?? '',
    r.after ?? '',
    r.hash,
  ]);
}
