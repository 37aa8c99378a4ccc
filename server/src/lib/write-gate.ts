/**
 * The write gate of a multi-worker SQLite server (WORKERS > 1): the workers' write transactions take turns in
 * the order they asked, through the primary process.
 *
 * Without it, SQLite's one write lock goes to whoever tries BEGIN IMMEDIATE at the right moment: a busy worker
 * commits and begins its next transaction in the same tick, while the other polls every millisecond and finds
 * the lock free only when the first one's queue runs dry, so its runners wait far longer than the load
 * explains (registration opening's p99). The gate is a first-in, first-out queue kept by the primary: a worker
 * asks before it takes its connection, the primary grants the workers one at a time, in order, and a worker
 * that dies holding or awaiting the gate is dropped from it. Writers outside the cluster (the organiser's CLI)
 * still meet the lock itself and retry (db/engine.ts).
 */
import type { Worker } from 'node:cluster';

/** A turn at writing: `acquire` resolves when it is this process's turn; `release` ends the turn. */
export interface WriteGate {
  acquire(): Promise<void>;
  release(): void;
}

const ACQUIRE = 'race-site:write-acquire';
const GRANT = 'race-site:write-grant';
const RELEASE = 'race-site:write-release';

type GateMessage = { writeGate?: string };

/** A worker's side: asks the primary over the cluster's IPC channel. */
export function workerWriteGate(channel: {
  send: (message: GateMessage) => void;
  on: (event: 'message', listener: (message: unknown) => void) => void;
}): WriteGate {
  const waiting: (() => void)[] = [];
  channel.on('message', (message) => {
    if ((message as GateMessage | null)?.writeGate === GRANT) waiting.shift()?.();
  });
  return {
    acquire: () =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
        channel.send({ writeGate: ACQUIRE });
      }),
    release: () => channel.send({ writeGate: RELEASE }),
  };
}

/** What the primary needs of a worker: to tell it apart, to send it the grant, and whether it still runs. */
type GateWorker = Pick<Worker, 'send' | 'isDead'>;

/**
 * The primary's side: one queue of turns. Call `message` for every worker message and `exit` when a worker
 * exits (server.ts wires them to the cluster's events).
 */
export function primaryWriteGate() {
  const queue: GateWorker[] = [];
  let holder: GateWorker | null = null;
  const grantNext = () => {
    while (holder === null && queue.length > 0) {
      const next = queue.shift()!;
      if (next.isDead()) continue;
      holder = next;
      next.send({ writeGate: GRANT });
    }
  };
  return {
    message(worker: GateWorker, message: unknown) {
      const kind = (message as GateMessage | null)?.writeGate;
      if (kind === ACQUIRE) {
        queue.push(worker);
        grantNext();
      } else if (kind === RELEASE && holder === worker) {
        holder = null;
        grantNext();
      }
    },
    exit(worker: GateWorker) {
      for (let i = queue.length - 1; i >= 0; i--) if (queue[i] === worker) queue.splice(i, 1);
      if (holder === worker) {
        holder = null;
        grantNext();
      }
    },
  };
}
