/**
 * Watching the races' data versions (race-center-repository.ts dataVersions): the cached public lookups of
 * routes/race-center are dropped when results, photos or registrations change, here or elsewhere.
 */
import type { Repositories } from '../../db/repositories.ts';

/** A reading of the races' data versions (race-center-repository.ts dataVersions): `key=version` pairs. */
const versionsOf = (reading: string) =>
  new Map(
    reading
      .split(' ')
      .filter(Boolean)
      .map((pair) => {
        const at = pair.lastIndexOf('=');
        return [pair.slice(0, at), Number(pair.slice(at + 1))] as const;
      }),
  );

/**
 * Calls `changed` after every write of results, photos or registrations through this instance (at once), and
 * when a reading of the races' data versions from the database (every `pollMs`, and once after each own write)
 * holds a version newer than any seen, or no longer holds a race: writes by another instance or by the CLI.
 * Versions only grow, so a reading that is not newer (one taken before this instance's own write, answered
 * after it) changes nothing; the reading after an own write drops the cache a second time (it holds that write's
 * new version, and may hold another's). Answers the function that stops watching (call it when the app closes).
 */
export async function watchDataVersions(repos: Repositories, pollMs: number, changed: () => void): Promise<() => void> {
  const raceCenter = repos.raceCenter;
  const seen = new Map<string, number>();
  /** Folds a reading into what has been seen; true when it held anything newer. */
  const fold = (reading: string) => {
    let newer = false;
    const versions = versionsOf(reading);
    for (const [key, version] of versions) {
      if (version > (seen.get(key) ?? -Infinity)) {
        seen.set(key, version);
        newer = true;
      }
    }
    // A race removed: its answers go too.
    for (const key of seen.keys()) {
      if (!versions.has(key)) {
        seen.delete(key);
        newer = true;
      }
    }
    return newer;
  };
  // A reading with anything newer drops the cache. The database is away for a moment: the next poll asks again
  // (/readyz reports it meanwhile).
  const check = () =>
    raceCenter.dataVersions().then(
      (reading) => {
        if (fold(reading)) changed();
      },
      () => undefined,
    );
  // The reading after this instance's own write may be answered after another instance's write too (the two
  // queries need not run in the order they were asked): anything newer in it drops the cache again, else that
  // other write would be folded in unseen and its change kept out of the lookups until the answers expire.
  const unsubscribe = raceCenter.onChange(() => {
    changed();
    void check();
  });
  fold(await raceCenter.dataVersions());
  const poll = setInterval(() => void check(), pollMs);
  poll.unref();
  return () => {
    clearInterval(poll);
    unsubscribe();
  };
}
