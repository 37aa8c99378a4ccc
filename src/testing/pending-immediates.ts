/**
 * The setImmediate tasks queued and not yet run, so that a test file can let them run out before its document
 * goes: React's scheduler works in them, and one that runs after the environment is torn down throws "window is
 * not defined". setup-tests.ts imports this module first. The scheduler keeps the setImmediate it found when it
 * was first loaded, and a worker process may load it once for several files: the count lives on globalThis and
 * setImmediate is wrapped once per process.
 */
const KEY = Symbol.for('race-site.pendingImmediates');

interface Tracker {
  pending: Set<unknown>;
  run: typeof setImmediate;
}

const gone = (error: ReferenceError) =>
  typeof (globalThis as { window?: unknown }).window === 'undefined' &&
  /^(window|document) is not defined$/.test(error.message);

function install(): Tracker {
  const run = globalThis.setImmediate;
  const clear = globalThis.clearImmediate;
  const pending = new Set<unknown>();
  const tracked = function setImmediate(callback: (...args: unknown[]) => void, ...args: unknown[]) {
    const id: unknown = run(
      (...given: unknown[]) => {
        pending.delete(id);
        try {
          callback(...given);
        } catch (error) {
          // Still, a task can come after the drain (a timer of the page that fired late) and run once the file's
          // document is gone: React's scheduler then has nothing left to render into. That one error, and only
          // when there is no window any more, is the end of the file, not a failure of a test.
          if (!(error instanceof ReferenceError) || !gone(error)) throw error;
        }
      },
      ...args,
    );
    pending.add(id);
    return id;
  };
  // util.promisify(setImmediate) and the like keep working: the original's own properties come along.
  Object.defineProperties(tracked, Object.getOwnPropertyDescriptors(run));
  globalThis.setImmediate = tracked as unknown as typeof setImmediate;
  globalThis.clearImmediate = ((id?: unknown) => {
    pending.delete(id);
    clear(id as Parameters<typeof clearImmediate>[0]);
  }) as typeof clearImmediate;
  return { pending, run };
}

const scope = globalThis as unknown as Record<symbol, Tracker | undefined>;
const tracker = (scope[KEY] ??= install());

/**
 * Lets the event loop turn `minTurns` times, then on while setImmediate tasks are queued (those run, and those
 * they queue in turn), at most `maxTurns` times, so that a task that always queues another cannot hold the file.
 */
export async function drainImmediates(minTurns = 10, maxTurns = 1000): Promise<void> {
  for (let turn = 0; turn < maxTurns && (turn < minTurns || tracker.pending.size > 0); turn += 1) {
    await new Promise((resolve) => tracker.run(resolve));
  }
}
