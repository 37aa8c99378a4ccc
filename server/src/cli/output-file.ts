/**
 * The files the organiser's CLI writes: exports of runners' data and invitation codes (bearer passes) are
 * readable by their owner only, also when an older file of that name is overwritten; a table goes out as .csv
 * or .xlsx by the file's name.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { formatCsv } from '../lib/csv.ts';
import { OWNER_FILE_MODE } from '../lib/owner-only.ts';
import { xlsx } from '../lib/xlsx.ts';

/** Writes the file (with `mode`, owner-only unless told, applied to an existing file too); the line to show when it cannot. */
export function writeOutputFile(file: string, bytes: string | Buffer, mode = OWNER_FILE_MODE): string | undefined {
  try {
    writeFileSync(file, bytes, { mode });
    // The mode applies when the file is created: an older file of that name gets it too.
    chmodSync(file, mode);
    return undefined;
  } catch (error) {
    return `Cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
  }
}

/** A table of runners' data as .csv (by the name's extension) or else .xlsx (sheet `sheet`), owner-only. */
export function writeTableFile(
  file: string,
  table: readonly (readonly string[])[],
  sheet: string,
  now: number,
): string | undefined {
  const bytes = /\.csv$/i.test(file) ? formatCsv(table) : xlsx(sheet, table, new Date(now));
  return writeOutputFile(file, bytes);
}

/**
 * Writes the file from a stream of its bytes (a long export, written as it is read), owner-only like
 * writeOutputFile; the line to show when it cannot.
 */
export async function writeOutputStream(
  file: string,
  chunks: AsyncIterable<string | Buffer>,
  mode = OWNER_FILE_MODE,
): Promise<string | undefined> {
  try {
    const handle = await open(file, 'w', mode);
    // The mode applies when the file is created: an older file of that name gets it too.
    await handle.chmod(mode).catch(async (error: unknown) => {
      await handle.close();
      throw error;
    });
    await pipeline(Readable.from(chunks), handle.createWriteStream());
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    return `Cannot write ${file}: ${code}`;
  }
}
