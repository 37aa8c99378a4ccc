/**
 * Timed work (the jobs table, run by lib/job-runner.ts): each job is claimed by one instance at a time, with a
 * lease, so that several instances on one database run it once. On PostgreSQL the claim skips the rows another
 * instance is claiming (FOR UPDATE SKIP LOCKED); on SQLite the claim's one statement holds the write lock. A
 * claimed job whose instance died is claimed again when its lease ends.
 *
 * Every claim adds one to `attempts`, and the claimant's later writes (complete, fail, extend) hold only while
 * the job is still `running` with that count: an instance whose lease ran out and whose job was claimed again
 * can no longer mark it done or due (the count is the claim's fencing token).
 */
import { sql, type Db } from './engine.ts';

/** A claimed job: `attempts` counts this claim, and names it in complete, fail and extend. */
export interface JobRecord {
  id: number;
  kind: string;
  payload: unknown;
  runAt: number;
  attempts: number;
}

/** The claim a write is for: the job and the attempt that claimed it. */
export type JobClaim = Pick<JobRecord, 'id' | 'attempts'>;

interface JobRow {
  id: number;
  kind: string;
  payload_json: string;
  run_at: number;
  attempts: number;
}

export type JobState = 'due' | 'running' | 'done' | 'failed';

export interface JobStatus {
  state: JobState;
  kind: string;
  runAt: number;
  attempts: number;
  lastError: string | null;
}

/** Longest error text kept in last_error. */
const MAX_ERROR = 2000;

export function createJobsRepository(db: Db) {
  /** Due jobs of `kinds` at `now`: waiting, or claimed by an instance whose lease ran out. */
  const dueWhere = (kinds: readonly string[], now: number) => sql`
    kind IN (${sql.join(kinds)}) AND run_at <= ${now}
    AND (state = 'due' OR (state = 'running' AND locked_until <= ${now}))
  `;

  return {
    /**
     * Adds a job to run at `runAt`, and returns its id. With a `dedupeKey`, a second job of the same key is
     * not added while the first one is kept (finished jobs are pruned after a while): the first one's id is
     * returned.
     */
    async enqueue(job: { kind: string; payload: unknown; runAt: number; dedupeKey?: string; now: number }) {
      const payload = JSON.stringify(job.payload ?? null);
      const row = await db.get<{ id: number }>(sql`
        INSERT INTO jobs (kind, dedupe_key, payload_json, run_at, created_at)
        VALUES (${job.kind}, ${job.dedupeKey ?? null}, ${payload}, ${job.runAt}, ${job.now})
        ON CONFLICT (dedupe_key) DO NOTHING RETURNING id
      `);
      if (row !== undefined) return row.id;
      const existing = await db.get<{ id: number }>(
        sql`SELECT id FROM jobs WHERE dedupe_key = ${job.dedupeKey ?? null}`,
      );
      if (existing === undefined) throw new Error(`job ${job.kind} was neither added nor found`);
      return existing.id;
    },

    /**
     * Claims up to `limit` due jobs (of `kinds`) for `leaseMs`, oldest first; each is claimed by one caller
     * only. A read first, so that a poll with nothing due takes no write lock.
     */
    async claim(input: {
      now: number;
      leaseMs: number;
      limit: number;
      kinds: readonly string[];
    }): Promise<JobRecord[]> {
      if (input.kinds.length === 0 || input.limit < 1) return [];
      const any = await db.get(sql`SELECT 1 AS due FROM jobs WHERE ${dueWhere(input.kinds, input.now)} LIMIT 1`);
      if (any === undefined) return [];
      const skipLocked = db.engine === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``;
      // One statement, atomic on its own: no transaction held across awaits (on SQLite a second handle in the
      // same process would wait on it synchronously, blocking the event loop that would end it).
      const rows = await db.all<JobRow>(sql`
        UPDATE jobs SET state = 'running', attempts = attempts + 1, locked_until = ${input.now + input.leaseMs}
        WHERE id IN (
          SELECT id FROM jobs WHERE ${dueWhere(input.kinds, input.now)}
          ORDER BY run_at, id LIMIT ${input.limit}
          ${skipLocked}
        )
        RETURNING id, kind, payload_json, run_at, attempts
      `);
      return rows
        .sort((a, b) => a.run_at - b.run_at || a.id - b.id)
        .map((row) => ({
          id: row.id,
          kind: row.kind,
          payload: JSON.parse(row.payload_json) as unknown,
          runAt: row.run_at,
          attempts: row.attempts,
        }));
    },

    /** Moves the lease of claimed jobs (still held by those claims) to `lockedUntil`; returns how many. */
    async extend(claims: readonly JobClaim[], lockedUntil: number): Promise<number> {
      let held = 0;
      for (const claim of claims) {
        held += await db.run(sql`
          UPDATE jobs SET locked_until = ${lockedUntil}
          WHERE id = ${claim.id} AND state = 'running' AND attempts = ${claim.attempts}
        `);
      }
      return held;
    },

    /** The job is done; false when the claim was lost (its lease ran out and another instance took it). */
    async complete(claim: JobClaim, now: number): Promise<boolean> {
      const changed = await db.run(sql`
        UPDATE jobs SET state = 'done', finished_at = ${now}, locked_until = 0, last_error = NULL
        WHERE id = ${claim.id} AND state = 'running' AND attempts = ${claim.attempts}
      `);
      return changed > 0;
    },

    /**
     * The job failed: it runs again at `retryAt`, or is given up (state failed) when that is null. The error
     * text is kept in last_error (the caller masks personal data). False when the claim was lost.
     */
    async fail(claim: JobClaim, error: string, now: number, retryAt: number | null): Promise<boolean> {
      const message = error.slice(0, MAX_ERROR);
      const changed = await (retryAt === null
        ? db.run(sql`
            UPDATE jobs SET state = 'failed', finished_at = ${now}, locked_until = 0, last_error = ${message}
            WHERE id = ${claim.id} AND state = 'running' AND attempts = ${claim.attempts}
          `)
        : db.run(sql`
            UPDATE jobs SET state = 'due', run_at = ${retryAt}, locked_until = 0, last_error = ${message}
            WHERE id = ${claim.id} AND state = 'running' AND attempts = ${claim.attempts}
          `));
      return changed > 0;
    },

    async state(id: number): Promise<JobStatus | undefined> {
      const row = await db.get<{
        state: JobState;
        kind: string;
        run_at: number;
        attempts: number;
        last_error: string | null;
      }>(sql`SELECT state, kind, run_at, attempts, last_error FROM jobs WHERE id = ${id}`);
      return row
        ? { state: row.state, kind: row.kind, runAt: row.run_at, attempts: row.attempts, lastError: row.last_error }
        : undefined;
    },

    /** Forgets finished jobs (done or failed) that ended before `before`; returns how many. */
    async prune(before: number): Promise<number> {
      return db.run(sql`DELETE FROM jobs WHERE state IN ('done', 'failed') AND finished_at < ${before}`);
    },
  };
}

export type JobsRepository = ReturnType<typeof createJobsRepository>;
