import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { OpenedDatabase } from '../src/db/database.ts';
import { JobRunner, type JobLog } from '../src/lib/job-runner.ts';
import { buildTestApp, fakeClock, FIXTURE_SEED, openTestDatabase, removeTempDirs, tempDir } from './helpers.ts';

afterAll(() => removeTempDirs());

const T0 = Date.UTC(2025, 5, 16, 2, 0, 0);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** `count` openDatabase on one data folder (on PostgreSQL: on the folder's one database), like instances. */
async function instances(count: number): Promise<OpenedDatabase[]> {
  const dataDir = tempDir();
  const opened: OpenedDatabase[] = [];
  for (let i = 0; i < count; i++) opened.push(await openTestDatabase({ dataDir, seedDir: FIXTURE_SEED, now: T0 }));
  return opened;
}

async function closeAll(opened: OpenedDatabase[]) {
  for (const { db } of opened) await db.close();
}

/** A log that keeps its lines as text. */
function memoryLog(): JobLog & { lines: string[] } {
  const lines: string[] = [];
  const keep = (object: object, message: string) => lines.push(`${message} ${JSON.stringify(object)}`);
  return { lines, warn: keep, error: keep };
}

describe('the job runner', () => {
  it('runs a job once at its time, not before', async () => {
    const [one] = await instances(1);
    try {
      const clock = fakeClock(T0);
      const runner = new JobRunner({ jobs: one.repos.jobs, now: clock.now });
      const ran: unknown[] = [];
      runner.handle('order.cancel', async (payload) => {
        ran.push(payload);
      });
      const id = await runner.schedule('order.cancel', { orderNo: 'A1' }, T0 + 15 * MINUTE);

      expect(await runner.runDue()).toBe(0);
      clock.advance(15 * MINUTE - 1);
      expect(await runner.runDue()).toBe(0);
      expect(ran).toEqual([]);
      clock.advance(1);
      expect(await runner.runDue()).toBe(1);
      expect(await runner.runDue()).toBe(0);
      clock.advance(DAY);
      expect(await runner.runDue()).toBe(0);
      expect(ran).toEqual([{ orderNo: 'A1' }]);
      expect(await one.repos.jobs.state(id)).toMatchObject({ state: 'done', attempts: 1, lastError: null });
    } finally {
      await closeAll([one]);
    }
  });

  it('retries a failing job after its backoff, then gives it up after maxAttempts, keeping the last error (masked)', async () => {
    const [one] = await instances(1);
    try {
      const clock = fakeClock(T0);
      const log = memoryLog();
      const runner = new JobRunner({ jobs: one.repos.jobs, now: clock.now, log });
      const attempts: number[] = [];
      runner.handle(
        'ballot.notify',
        async (_payload, ctx) => {
          attempts.push(ctx.attempt);
          throw new Error(`SMS to 13812345678 refused (attempt ${ctx.attempt})`);
        },
        { maxAttempts: 3, backoffMs: (attempt) => attempt * MINUTE },
      );
      const id = await runner.schedule('ballot.notify', { raceId: 'r' }, T0);

      expect(await runner.runDue()).toBe(1);
      expect(await one.repos.jobs.state(id)).toMatchObject({ state: 'due', attempts: 1, runAt: T0 + MINUTE });
      clock.advance(MINUTE - 1);
      expect(await runner.runDue()).toBe(0);
      clock.advance(1);
      expect(await runner.runDue()).toBe(1);
      expect(await one.repos.jobs.state(id)).toMatchObject({ state: 'due', attempts: 2, runAt: T0 + 3 * MINUTE });
      clock.advance(2 * MINUTE);
      expect(await runner.runDue()).toBe(1);
      clock.advance(DAY);
      expect(await runner.runDue()).toBe(0);

      expect(attempts).toEqual([1, 2, 3]);
      const state = await one.repos.jobs.state(id);
      expect(state).toMatchObject({ state: 'failed', attempts: 3 });
      expect(state?.lastError).toBe('Error: SMS to 138****5678 refused (attempt 3)');
      expect(log.lines).toHaveLength(3);
      expect(log.lines.join('\n')).not.toContain('13812345678');
      expect(log.lines[2]).toContain('given up');
    } finally {
      await closeAll([one]);
    }
  });

  it('adds a job of a dedupe key once', async () => {
    const [one] = await instances(1);
    try {
      const clock = fakeClock(T0);
      const runner = new JobRunner({ jobs: one.repos.jobs, now: clock.now });
      let runs = 0;
      runner.handle('order.cancel', async () => {
        runs++;
      });
      const first = await runner.schedule('order.cancel', { orderNo: 'A1' }, T0, 'cancel:A1');
      const again = await runner.schedule('order.cancel', { orderNo: 'A1' }, T0 + MINUTE, 'cancel:A1');
      const other = await runner.schedule('order.cancel', { orderNo: 'A2' }, T0, 'cancel:A2');
      expect(again).toBe(first);
      expect(other).not.toBe(first);
      expect(await runner.runDue()).toBe(2);
      // Still kept (done): the key stays taken.
      expect(await runner.schedule('order.cancel', { orderNo: 'A1' }, T0, 'cancel:A1')).toBe(first);
      clock.advance(MINUTE);
      expect(await runner.runDue()).toBe(0);
      expect(runs).toBe(2);
    } finally {
      await closeAll([one]);
    }
  });

  it('claims a job again when the lease of an instance that died runs out; the dead claim can no longer finish it', async () => {
    const [one, two] = await instances(2);
    try {
      const clock = fakeClock(T0);
      const survivor = new JobRunner({ jobs: two.repos.jobs, now: clock.now, leaseMs: MINUTE });
      const ran: number[] = [];
      survivor.handle('order.cancel', async (_payload, ctx) => {
        ran.push(ctx.attempt);
      });
      const id = await survivor.schedule('order.cancel', { orderNo: 'A1' }, T0);
      // The instance that dies claims the job and never reports back.
      const [dead] = await one.repos.jobs.claim({ now: T0, leaseMs: MINUTE, limit: 5, kinds: ['order.cancel'] });
      expect(dead?.id).toBe(id);

      expect(await survivor.runDue()).toBe(0);
      clock.advance(MINUTE - 1);
      expect(await survivor.runDue()).toBe(0);
      clock.advance(1);
      expect(await survivor.runDue()).toBe(1);
      expect(ran).toEqual([2]);
      expect(await two.repos.jobs.state(id)).toMatchObject({ state: 'done', attempts: 2 });
      // A late word from the dead claim changes nothing.
      expect(await one.repos.jobs.complete(dead!, clock.now())).toBe(false);
      expect(await one.repos.jobs.fail(dead!, 'late', clock.now(), clock.now())).toBe(false);
      expect(await two.repos.jobs.state(id)).toMatchObject({ state: 'done', attempts: 2, lastError: null });
    } finally {
      await closeAll([one, two]);
    }
  });

  it('gives up a job whose last attempt died with its instance', async () => {
    const [one] = await instances(1);
    try {
      const clock = fakeClock(T0);
      const runner = new JobRunner({ jobs: one.repos.jobs, now: clock.now, leaseMs: MINUTE });
      let runs = 0;
      runner.handle(
        'order.cancel',
        async () => {
          runs++;
        },
        { maxAttempts: 1 },
      );
      const id = await runner.schedule('order.cancel', {}, T0);
      await one.repos.jobs.claim({ now: T0, leaseMs: MINUTE, limit: 1, kinds: ['order.cancel'] });
      clock.advance(MINUTE);
      expect(await runner.runDue()).toBe(1);
      expect(runs).toBe(0);
      expect(await one.repos.jobs.state(id)).toMatchObject({ state: 'failed', attempts: 2 });
    } finally {
      await closeAll([one]);
    }
  });

  it('runs each of 200 due jobs exactly once with two runners on one database racing for them', async () => {
    const [one, two] = await instances(2);
    try {
      const clock = fakeClock(T0);
      const runs = new Map<number, number>();
      const byRunner = [0, 0];
      const runners = [one, two].map((opened, index) => {
        const runner = new JobRunner({ jobs: opened.repos.jobs, now: clock.now, batchSize: 10 });
        runner.handle('ballot.notify', async (_payload, ctx) => {
          await new Promise((resolve) => setImmediate(resolve));
          runs.set(ctx.jobId, (runs.get(ctx.jobId) ?? 0) + 1);
          byRunner[index]!++;
        });
        return runner;
      });
      const ids = new Set<number>();
      for (let i = 0; i < 200; i++) ids.add(await runners[i % 2]!.schedule('ballot.notify', { i }, T0 - i));

      for (let round = 0; round < 100; round++) {
        const ran = await Promise.all(runners.map((runner) => runner.runDue()));
        if (ran[0] === 0 && ran[1] === 0) break;
      }

      expect(ids.size).toBe(200);
      expect([...runs.keys()].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
      expect([...runs.values()].every((count) => count === 1)).toBe(true);
      expect(byRunner[0]! + byRunner[1]!).toBe(200);
      expect(byRunner.every((count) => count > 0)).toBe(true);
    } finally {
      await closeAll([one, two]);
    }
  });

  it('runs periodic work once per slot across two runners', async () => {
    const [one, two] = await instances(2);
    try {
      const clock = fakeClock(T0 + 30_000);
      const perSlot = new Map<number, number>();
      const runners = [one, two].map((opened) =>
        new JobRunner({ jobs: opened.repos.jobs, now: clock.now }).every('tick', MINUTE, async () => {
          const slot = Math.floor(clock.now() / MINUTE);
          perSlot.set(slot, (perSlot.get(slot) ?? 0) + 1);
        }),
      );
      const first = Math.floor(clock.now() / MINUTE);
      for (let step = 0; step < 5; step++) {
        for (let again = 0; again < 3; again++) await Promise.all(runners.map((runner) => runner.runDue()));
        clock.advance(MINUTE);
      }
      expect([...perSlot.entries()]).toEqual([0, 1, 2, 3, 4].map((n) => [first + n, 1]));
    } finally {
      await closeAll([one, two]);
    }
  });
});

describe('the jobs plugin', () => {
  it('prunes finished jobs after 7 days and sweeps rate-limit hits after an hour', async () => {
    const clock = fakeClock(T0);
    const app = await buildTestApp({ now: clock.now, env: { JOBS: 'off' } });
    try {
      app.jobs.handle('order.cancel', async () => undefined);
      const id = await app.jobs.schedule('order.cancel', {}, T0);
      await app.jobs.runDue();
      expect(await app.repos.jobs.state(id)).toMatchObject({ state: 'done' });
      const month = { max: 1, windowMs: 30 * DAY };
      expect(await app.repos.rateHits.record('test|203.0.113.9', month, T0)).toBeNull();
      expect(await app.repos.rateHits.record('test|203.0.113.9', month, T0 + 1)).not.toBeNull();

      // Every job due by then runs, as the runner's polls run them (the app's periodic work and the daily
      // reconciliation fill more than one batch: each poll claims at most ten).
      const drain = async () => {
        while ((await app.jobs.runDue()) > 0);
      };
      clock.advance(7 * DAY - 1);
      await drain();
      expect(await app.repos.jobs.state(id)).toMatchObject({ state: 'done' });
      clock.advance(DAY);
      await drain();
      expect(await app.repos.jobs.state(id)).toBeUndefined();
      expect(await app.repos.rateHits.record('test|203.0.113.9', month, clock.now())).toBeNull();
    } finally {
      await app.close();
    }
  });

  it('waits on close for the running job, which is recorded before the database closes', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = await buildTestApp({ logger: 'warn', logStream });
    let finished = false;
    app.jobs.handle('slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      finished = true;
    });
    await app.jobs.schedule('slow', {}, app.config.now());
    const running = app.jobs.runDue();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await app.close();
    expect(finished).toBe(true);
    expect(await running).toBeGreaterThanOrEqual(1);
    expect(lines.join('')).not.toContain('job runner');
  });
});
