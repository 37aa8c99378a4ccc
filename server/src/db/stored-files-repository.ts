/**
 * Files kept in the database (stored_files, migration 8): uploads and published site-config documents when
 * FILE_STORAGE is 'database' (lib/file-store.ts), so that every instance on the database serves every file.
 * SQLite keeps the bytes as a BLOB, PostgreSQL as BYTEA; both drivers hand them back as a Buffer.
 */
import { sql, type Db } from './engine.ts';

export function createStoredFilesRepository(db: Db) {
  return {
    /** Stores the bytes under a key; a key already stored keeps its bytes (keys never change meaning). */
    async put(key: string, bytes: Buffer, now: number): Promise<void> {
      await db.run(sql`
        INSERT INTO stored_files (file_key, bytes, byte_length, created_at)
        VALUES (${key}, ${bytes}, ${bytes.length}, ${now})
        ON CONFLICT (file_key) DO NOTHING
      `);
    },
    /** Stores the bytes under a key in place of any stored there (an asset replaced under its name). */
    async replace(key: string, bytes: Buffer, now: number): Promise<void> {
      await db.run(sql`
        INSERT INTO stored_files (file_key, bytes, byte_length, created_at)
        VALUES (${key}, ${bytes}, ${bytes.length}, ${now})
        ON CONFLICT (file_key) DO UPDATE SET bytes = excluded.bytes, byte_length = excluded.byte_length,
          created_at = excluded.created_at
      `);
    },
    async get(key: string): Promise<Buffer | undefined> {
      const row = await db.get<{ bytes: Uint8Array }>(sql`SELECT bytes FROM stored_files WHERE file_key = ${key}`);
      if (row === undefined) return undefined;
      return Buffer.isBuffer(row.bytes) ? row.bytes : Buffer.from(row.bytes);
    },
    async has(key: string): Promise<boolean> {
      return (await db.get(sql`SELECT 1 AS found FROM stored_files WHERE file_key = ${key}`)) !== undefined;
    },
    /** The keys that start with `prefix`, sorted. */
    async keys(prefix: string): Promise<string[]> {
      const rows = await db.all<{ file_key: string }>(sql`
        SELECT file_key FROM stored_files WHERE substr(file_key, 1, ${prefix.length}) = ${prefix} ORDER BY file_key
      `);
      return rows.map((row) => row.file_key);
    },
    async remove(key: string): Promise<void> {
      await db.run(sql`DELETE FROM stored_files WHERE file_key = ${key}`);
    },
  };
}

export type StoredFilesRepository = ReturnType<typeof createStoredFilesRepository>;
