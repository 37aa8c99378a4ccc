/**
 * Files of runners' data are readable by the server's account only (issue 27): the data folder and every
 * folder the server makes are 0700, the database, its WAL and shared-memory files, uploads, secrets and the
 * CLI's output files 0600 (an older file of the same name included). SQLite gives its -wal and -shm files the
 * database file's mode whenever it makes them again, so the database file's mode covers them too.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';

export const OWNER_FILE_MODE = 0o600;
export const OWNER_DIR_MODE = 0o700;

/** chmod that leaves a file system without modes (Windows, some network mounts) as it is. */
function chmodIfPossible(file: string, mode: number) {
  try {
    chmodSync(file, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM' && code !== 'ENOTSUP') throw error;
  }
}

/** Makes the folder (and its parents) when missing; the folder itself owner-only, also when it existed. */
export function ownerOnlyDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: OWNER_DIR_MODE });
  chmodIfPossible(dir, OWNER_DIR_MODE);
}

/** The folders a file store makes (asynchronously), owner-only. */
export async function ownerOnlyDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: OWNER_DIR_MODE });
  await chmod(dir, OWNER_DIR_MODE).catch(() => undefined);
}

/**
 * The SQLite database file made (empty) owner-only before SQLite opens it, or made owner-only when it exists,
 * with its -wal and -shm files of an earlier run.
 */
export function ownerOnlyDatabaseFile(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', OWNER_FILE_MODE));
  for (const each of [file, `${file}-wal`, `${file}-shm`]) chmodIfPossible(each, OWNER_FILE_MODE);
}
