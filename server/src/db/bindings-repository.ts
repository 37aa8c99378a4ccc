import type { Database } from 'better-sqlite3';
import type { RaceBinding } from '#contract/site-config/race-types';

interface BindingRow {
  domain_name: string;
  race_id: string;
  bound_at: number;
}

export interface BindingRecord extends RaceBinding {
  boundAt: number;
}

const toRecord = (row: BindingRow): BindingRecord => ({
  domainName: row.domain_name,
  raceId: row.race_id,
  boundAt: row.bound_at,
});

/** Domain → race bindings. A domain has at most one race; rebinding replaces. */
export function createBindingsRepository(db: Database) {
  const byDomain = db.prepare<[string], BindingRow>(
    'SELECT domain_name, race_id, bound_at FROM domain_bindings WHERE domain_name = ?',
  );
  const all = db.prepare<[], BindingRow>(
    'SELECT domain_name, race_id, bound_at FROM domain_bindings ORDER BY domain_name',
  );
  const upsert = db.prepare<[string, string, number]>(`
    INSERT INTO domain_bindings (domain_name, race_id, bound_at) VALUES (?, ?, ?)
    ON CONFLICT (domain_name) DO UPDATE SET race_id = excluded.race_id, bound_at = excluded.bound_at
  `);
  const remove = db.prepare<[string]>('DELETE FROM domain_bindings WHERE domain_name = ?');

  return {
    findByDomain(domainName: string): BindingRecord | undefined {
      const row = byDomain.get(domainName);
      return row ? toRecord(row) : undefined;
    },

    list(): BindingRecord[] {
      return all.all().map(toRecord);
    },

    /** Binds the domain to the race (which must exist: the foreign key refuses otherwise). */
    bind(domainName: string, raceId: string, now: number): void {
      upsert.run(domainName, raceId, now);
    },

    unbind(domainName: string): boolean {
      return remove.run(domainName).changes > 0;
    },
  };
}

export type BindingsRepository = ReturnType<typeof createBindingsRepository>;
