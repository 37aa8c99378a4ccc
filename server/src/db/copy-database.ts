/**
 * Copies an SQLite data folder's database into an empty PostgreSQL database: the path of an organiser who
 * outgrows one machine (`site copy-to-postgres`). Every table the migrations made is copied row by row with
 * its ids, in one transaction on the target (all or nothing), and PostgreSQL's id counters are moved past
 * the copied ids. Rate-limit hits are not copied (they are an hour's memory at most).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isFileKey, type FileStore } from '../lib/file-store.ts';
import { sql, type Db } from './engine.ts';

/** Tables in an order that keeps every foreign key satisfied (parents first). */
export const COPIED_TABLES = [
  'races',
  'domain_bindings',
  'site_configs',
  'users',
  'tokens',
  'verification_codes',
  'code_guesses',
  'captcha_challenges',
  'outbox',
  'registrations',
  'results',
  'photos',
  'race_data_versions',
  'uploads',
  'server_secrets',
  'stored_files',
  'jobs',
  'registration_forms',
  'direct_applications',
  'direct_application_sizes',
  'registration_confirmations',
  'mailing_choices',
  'race_documents',
  'entry_places',
  'teams',
  'invitation_codes',
  'entries',
  'entry_events',
  'submissions',
  'orders',
  'order_lines',
  'payments',
  'payment_notifications',
  'refunds',
  'ballots',
  'letter_versions',
  'letter_signatures',
  'pickup_slots',
  'pickup_bookings',
  'staff_keys',
  'participants',
  'refund_requests',
  'deferrals',
  'reconciliation_runs',
  'reconciliation_lines',
  'reconciliation_differences',
  'entry_closures',
  'message_templates',
  'message_campaigns',
  'site_drafts',
] as const;

/** Tables whose `id` is an identity column on PostgreSQL. */
const IDENTITY_TABLES = new Set([
  'site_configs',
  'users',
  'tokens',
  'verification_codes',
  'outbox',
  'registrations',
  'results',
  'photos',
  'uploads',
  'jobs',
  'registration_forms',
  'direct_applications',
  'teams',
  'invitation_codes',
  'entries',
  'entry_events',
  'orders',
  'payments',
  'refunds',
  'letter_signatures',
  'pickup_bookings',
  'staff_keys',
  'participants',
  'refund_requests',
  'deferrals',
  'reconciliation_runs',
  'reconciliation_differences',
  'message_campaigns',
]);

const BATCH = 500;

export class CopyRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CopyRefusedError';
  }
}

async function columnsOf(source: Db, table: string): Promise<string[]> {
  const rows = await source.all<{ name: string }>(sql`SELECT name FROM pragma_table_info(${table})`);
  return rows.map((row) => row.name);
}

/** The number of rows of every copied table. */
export async function tableCounts(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of COPIED_TABLES) {
    counts[table] = (await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.table(table)}`))?.n ?? 0;
  }
  return counts;
}

/**
 * Copies every table of `source` (SQLite, migrated to the latest version) into `target` (PostgreSQL, migrated,
 * empty). Refuses a target that holds any row already. Returns the rows copied per table.
 */
export async function copyDatabase(source: Db, target: Db): Promise<Record<string, number>> {
  if (source.engine !== 'sqlite' || target.engine !== 'postgres') {
    throw new CopyRefusedError('the copy goes from an SQLite data folder into a PostgreSQL database');
  }
  const copied: Record<string, number> = {};
  await target.transaction(async (tx) => {
    await tx.lock('migrations');
    const present = Object.entries(await tableCounts(tx)).filter(([, n]) => n > 0);
    if (present.length > 0) {
      throw new CopyRefusedError(
        `the PostgreSQL database is not empty (${present.map(([t, n]) => `${t}: ${n}`).join(', ')}); copy into a new database`,
      );
    }
    for (const table of COPIED_TABLES) {
      const columns = await columnsOf(source, table);
      const columnList = sql.join(columns.map((column) => sql.ref(column)));
      const order = columns.includes('id') ? sql`ORDER BY id` : sql``;
      let offset = 0;
      for (;;) {
        const rows = await source.all<Record<string, unknown>>(
          sql`SELECT ${columnList} FROM ${sql.table(table)} ${order} LIMIT ${BATCH} OFFSET ${offset}`,
        );
        if (rows.length === 0) break;
        const values = sql.join(rows.map((row) => sql`(${sql.join(columns.map((column) => row[column]))})`));
        await tx.run(sql`INSERT INTO ${sql.table(table)} (${columnList}) VALUES ${values}`);
        offset += rows.length;
      }
      copied[table] = offset;
      if (IDENTITY_TABLES.has(table) && offset > 0) {
        await tx.run(
          sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), (SELECT max(id) FROM ${sql.table(table)}))`,
        );
      }
    }
  });
  return copied;
}

/** Every file under the data folder's site-configs/ and uploads/, as file-store keys. */
async function folderKeys(root: string): Promise<string[]> {
  const keys: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(path.join(root, relative), { withFileTypes: true });
    } catch {
      return; // no such folder: nothing stored there
    }
    for (const entry of entries) {
      const key = `${relative}/${entry.name}`;
      if (entry.isDirectory()) await walk(key);
      else if (entry.isFile() && isFileKey(key) && !entry.name.endsWith('.tmp')) keys.push(key);
    }
  };
  await walk('site-configs');
  await walk('uploads');
  return keys.sort();
}

/**
 * Copies the data folder's published site configs and uploads into `store` (the target's storage when it
 * keeps files in the database). Returns how many files were copied.
 */
export async function copyFolderFiles(dataDir: string, store: FileStore): Promise<number> {
  const keys = await folderKeys(dataDir);
  for (const key of keys) await store.put(key, await readFile(path.join(dataDir, ...key.split('/'))));
  return keys.length;
}
