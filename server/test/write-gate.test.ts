import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { primaryWriteGate, workerWriteGate, type WriteGate } from '../src/lib/write-gate.ts';

/**
 * Workers and primary wired as the cluster wires them (messages delivered asynchronously, like IPC), so the
 * gate's order and exclusion are what two real worker processes get.
 */
function cluster(n: number) {
  const primary = primaryWriteGate();
  const workers = Array.from({ length: n }, () => {
    const toWorker = new EventEmitter();
    let dead = false;
    const handle = {
      send: (message: unknown) => {
        setImmediate(() => toWorker.emit('message', message));
        return true;
      },
      isDead: () => dead,
    };
    const gate = workerWriteGate({
      send: (message) => setImmediate(() => primary.message(handle, message)),
      on: (event, listener) => toWorker.on(event, listener),
    });
    return {
      gate,
      die: () => {
        dead = true;
        primary.exit(handle);
      },
    };
  });
  return workers;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

async function turn(gate: WriteGate, log: string[], name: string, steps = 3) {
  await gate.acquire();
  try {
    log.push(`${name}:start`);
    for (let i = 0; i < steps; i++) await tick();
    log.push(`${name}:end`);
  } finally {
    gate.release();
  }
}

describe('the write gate of a multi-worker SQLite server', () => {
  it('lets one worker write at a time, in the order they asked, even when one keeps asking', async () => {
    const [a, b] = cluster(2);
    const log: string[] = [];
    // Worker A has five transactions queued, B one asked right after A's first: B must not wait for all of A's.
    const work = [turn(a!.gate, log, 'a1')];
    await tick();
    work.push(turn(b!.gate, log, 'b1'));
    for (let i = 2; i <= 5; i++) work.push(turn(a!.gate, log, `a${i}`));
    await Promise.all(work);
    // Never two at once: every start is followed by its own end.
    for (let i = 0; i < log.length; i += 2) expect(log[i + 1]).toBe(log[i]!.replace(':start', ':end'));
    const order = log.filter((entry) => entry.endsWith(':start')).map((entry) => entry.split(':')[0]);
    expect(order.indexOf('b1')).toBe(1);
    expect(order).toHaveLength(6);
  });

  it('drops a worker that dies holding or awaiting a turn, so the others go on', async () => {
    const [a, b, c] = cluster(3);
    await a!.gate.acquire(); // A holds the turn and dies without releasing it
    const log: string[] = [];
    const bTurn = turn(b!.gate, log, 'b');
    void c!.gate.acquire(); // C waits behind B, then dies before its turn
    await tick();
    await tick();
    c!.die();
    a!.die();
    await bTurn;
    const later = turn(b!.gate, log, 'b2');
    await later;
    expect(log).toEqual(['b:start', 'b:end', 'b2:start', 'b2:end']);
  });
});
