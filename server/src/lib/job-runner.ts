/**
 * The one runner of timed work (issue #12 §2): cancelling unpaid orders at their deadline, sending ballot
 * results, housekeeping. Jobs live in the database (db/jobs-repository.ts), so every instance on one database
 * shares them and each job runs once: a poll claims a small batch with a lease, runs the handlers, and marks
 * each job done, due again later (backoff) or failed (after maxAttempts). The lease is renewed while a handler
 * runs; a job whose instance died is claimed again when its lease ends, and counts as an attempt.
 *
 * Run times come from the app's clock (`now`), so tests move them with a fake clock and call runDue().
 */
import type { JobClaim, JobRecord, JobsRepository } from '../db/jobs-repository.ts';
import { redactLogText } from './log-redaction.ts';

export interface JobContext {
  jobId: number;
  kind: string;
  /** 1 on the first run, counting runs whose instance died. */
  attempt: number;
  maxAttempts: number;
  /** When the job was due (epoch ms, the app's clock). */
  runAt: number;
}

export type JobHandler<P = unknown> = (payload: P, ctx: JobContext) => Promise<void>;

export interface HandlerOptions {
  /** Runs before the job is given up (state failed); default 5. */
  maxAttempts?: number;
  /** Wait before the next attempt: fixed ms, or by the attempt that failed (1, 2, …); default 30 s doubling, at most 1 h. */
  backoffMs?: number | ((attempt: number) => number);
}

/** The logger the runner writes to (the app's pino logger fits). */
export interface JobLog {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface JobRunnerOptions {
  jobs: JobsRepository;
  /** The app's clock (epoch ms). */
  now: () => number;
  log?: JobLog;
  /** Pause between the end of one poll and the next; default 1000 ms. */
  pollMs?: number;
  /** Jobs claimed per poll; default 10. */
  batchSize?: number;
  /** How long a claim holds a job before another instance may take it; default 5 min, renewed while it runs. */
  leaseMs?: number;
}

const DEFAULT_MAX_ATTEMPTS = 5;
const defaultBackoff = (attempt: number) => Math.min(30_000 * 2 ** (attempt - 1), 3_600_000);
/** Periodic work does not retry: the next slot is its retry. */
const PERIODIC_KIND = (name: string) => `every:${name}`;

interface Registered {
  handler: JobHandler;
  maxAttempts: number;
  backoff: (attempt: number) => number;
}

interface Periodic {
  name: string;
  intervalMs: number;
  /** The last slot this runner made sure is enqueued. */
  ensuredSlot: number;
}

const silent: JobLog = { warn: () => undefined, error: () => undefined };

export class JobRunner {
  private readonly jobs: JobsRepository;
  private readonly now: () => number;
  private readonly log: JobLog;
  private readonly pollMs: number;
  private readonly batchSize: number;
  private readonly leaseMs: number;
  private readonly handlers = new Map<string, Registered>();
  private readonly periodic: Periodic[] = [];
  /** The poll in progress (or the last one); polls of one runner never overlap. */
  private current: Promise<number> = Promise.resolve(0);
  private timer: NodeJS.Timeout | undefined;
  private started = false;

  constructor(options: JobRunnerOptions) {
    this.jobs = options.jobs;
    this.now = options.now;
    this.log = options.log ?? silent;
    this.pollMs = options.pollMs ?? 1000;
    this.batchSize = options.batchSize ?? 10;
    this.leaseMs = options.leaseMs ?? 5 * 60_000;
  }

  /** Registers the handler of a kind of job; this runner claims only the kinds it has handlers for. */
  handle<P>(kind: string, handler: JobHandler<P>, options: HandlerOptions = {}): this {
    if (this.handlers.has(kind)) throw new Error(`job kind ${kind} already has a handler`);
    const { backoffMs = defaultBackoff } = options;
    this.handlers.set(kind, {
      handler: handler as JobHandler,
      maxAttempts: Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS),
      backoff: typeof backoffMs === 'number' ? () => backoffMs : backoffMs,
    });
    return this;
  }

  /**
   * Adds a job of `kind` to run at `runAt` (epoch ms, the app's clock) on whichever instance claims it. With a
   * `dedupeKey`, only the first job of that key is added (its id is returned for every later one).
   */
  schedule(kind: string, payload: unknown, runAt: number, dedupeKey?: string): Promise<number> {
    return this.jobs.enqueue({ kind, payload, runAt, dedupeKey, now: this.now() });
  }

  /**
   * Runs `handler` once in every slot of `intervalMs` (slot = floor(now / intervalMs)) across every instance:
   * each slot is one job with the dedupe key `every:<name>:<slot>`, enqueued by whichever instance gets there
   * first and run by the one that claims it; having run, it enqueues the next slot's. A failure is logged and
   * not retried (the next slot is the retry).
   */
  every(name: string, intervalMs: number, handler: (ctx: JobContext) => Promise<void>): this {
    if (!(intervalMs >= 1)) throw new Error(`every ${name}: the interval must be at least 1 ms`);
    this.handle<{ slot: number }>(
      PERIODIC_KIND(name),
      async (_payload, ctx) => {
        try {
          await handler(ctx);
        } finally {
          await this.ensureSlot(name, intervalMs, Math.floor(this.now() / intervalMs) + 1);
        }
      },
      { maxAttempts: 1 },
    );
    this.periodic.push({ name, intervalMs, ensuredSlot: -1 });
    return this;
  }

  /** Polls every pollMs (the first poll after one pause), until stop(). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.arm();
  }

  /** Stops polling and waits for the batch that is running. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    await this.current;
  }

  /**
   * One poll: makes sure the current slot of each periodic job is enqueued, claims a batch of due jobs and
   * runs it; returns how many jobs ran. Waits for a poll already in progress first (tests call it directly).
   * A database error is logged, never thrown.
   */
  runDue(): Promise<number> {
    const next = this.current.then(() => this.poll());
    this.current = next;
    return next;
  }

  private arm(): void {
    if (!this.started) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.runDue().finally(() => this.arm());
    }, this.pollMs);
    // A pending poll never keeps the process alive.
    this.timer.unref();
  }

  private async poll(): Promise<number> {
    try {
      const now = this.now();
      for (const task of this.periodic) {
        const slot = Math.floor(now / task.intervalMs);
        if (slot > task.ensuredSlot) await this.ensureSlot(task.name, task.intervalMs, slot);
      }
      const batch = await this.jobs.claim({
        now,
        leaseMs: this.leaseMs,
        limit: this.batchSize,
        kinds: [...this.handlers.keys()],
      });
      if (batch.length === 0) return 0;
      await this.runBatch(batch);
      return batch.length;
    } catch (error) {
      this.log.error({ error: describe(error) }, 'job runner: poll failed');
      return 0;
    }
  }

  /** Enqueues slot `slot` of a periodic job (once across every instance, by its dedupe key). */
  private async ensureSlot(name: string, intervalMs: number, slot: number): Promise<void> {
    await this.jobs.enqueue({
      kind: PERIODIC_KIND(name),
      payload: { slot },
      runAt: slot * intervalMs,
      dedupeKey: `every:${name}:${slot}`,
      now: this.now(),
    });
    const task = this.periodic.find((p) => p.name === name);
    if (task && slot > task.ensuredSlot) task.ensuredSlot = slot;
  }

  private async runBatch(batch: JobRecord[]): Promise<void> {
    // The lease is renewed while the batch runs, so a slow handler is not claimed twice.
    const open = new Set<JobClaim>(batch);
    const renew = setInterval(
      () => {
        void this.jobs.extend([...open], this.now() + this.leaseMs).catch((error: unknown) => {
          this.log.warn({ error: describe(error) }, 'job runner: could not renew a lease');
        });
      },
      Math.max(1000, Math.floor(this.leaseMs / 3)),
    );
    renew.unref();
    try {
      await Promise.all(
        batch.map(async (job) => {
          try {
            await this.runOne(job);
          } finally {
            open.delete(job);
          }
        }),
      );
    } finally {
      clearInterval(renew);
    }
  }

  private async runOne(job: JobRecord): Promise<void> {
    const registered = this.handlers.get(job.kind);
    if (registered === undefined) return; // claimed only for kinds with handlers
    const { handler, maxAttempts, backoff } = registered;
    const where = { job: job.id, kind: job.kind, attempt: job.attempts };
    try {
      if (job.attempts > maxAttempts) {
        // The instance running its last attempt died: give it up.
        await this.jobs.fail(job, 'gave up: the last attempt did not finish (its instance stopped)', this.now(), null);
        this.log.error(where, 'job runner: job given up');
        return;
      }
      try {
        await handler(job.payload, {
          jobId: job.id,
          kind: job.kind,
          attempt: job.attempts,
          maxAttempts,
          runAt: job.runAt,
        });
      } catch (error) {
        const message = describe(error);
        const now = this.now();
        const retryAt = job.attempts < maxAttempts ? now + Math.max(0, backoff(job.attempts)) : null;
        await this.jobs.fail(job, message, now, retryAt);
        this.log.error(
          { ...where, error: message, retryAt },
          retryAt === null ? 'job runner: job failed, given up' : 'job runner: job failed, will retry',
        );
        return;
      }
      if (!(await this.jobs.complete(job, this.now()))) {
        this.log.warn(where, 'job runner: job finished after its lease ran out (another instance took it)');
      }
    } catch (error) {
      // The database refused the outcome: the lease ends and the job is claimed again.
      this.log.error({ ...where, error: describe(error) }, 'job runner: could not record the outcome');
    }
  }
}

/** An error's message (with its name) for the log and last_error, personal numbers and secrets masked. */
function describe(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return redactLogText(text);
}
