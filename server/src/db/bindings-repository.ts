import type { RaceBinding } from '#contract/site-config/race-types';
import { sql, type Db } from './engine.ts';

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
export function createBindingsRepository(db: Db) {
  return {
    async findByDomain(domainName: string): Promise<BindingRecord | undefined> {
      const row = await db.get<BindingRow>(
        sql`SELECT domain_name, race_id, bound_at FROM domain_bindings WHERE domain_name = ${domainName}`,
      );
      return row ? toRecord(row) : undefined;
    },

    async list(): Promise<BindingRecord[]> {
      const rows = await db.all<BindingRow>(
        sql`SELECT domain_name, race_id, bound_at FROM domain_bindings ORDER BY domain_name`,
      );
      return rows.map(toRecord);
    },

    /** Binds the domain to the race (which must exist: the foreign key refuses otherwise). */
    async bind(domainName: string, raceId: string, now: number): Promise<void> {
      await db.run(sql`
        INSERT INTO domain_bindings (domain_name, race_id, bound_at) VALUES (${domainName}, ${raceId}, ${now})
        ON CONFLICT (domain_name) DO UPDATE SET race_id = excluded.race_id, bound_at = excluded.bound_at
      `);
    },

    async unbind(domainName: string): Promise<boolean> {
      return (await db.run(sql`DELETE FROM domain_bindings WHERE domain_name = ${domainName}`)) > 0;
    },
  };
}

export type BindingsRepository = ReturnType<typeof createBindingsRepository>;
