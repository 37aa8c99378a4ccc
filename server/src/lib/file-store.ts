/**
 * The one storage of uploaded files and published site-config documents, so that nothing an instance needs
 * lives only on its own disk: a folder (DATA_DIR, or FILES_DIR, a folder every instance shares) or the
 * database (stored_files). Keys are relative paths with '/' between segments, the same in both:
 *   site-configs/<md5>.json (and .json.br)   a published document, content-addressed
 *   uploads/<subdir>/<name>                  an uploaded file, served at /files/<subdir>/<name>
 * In a folder a key is the file's path under the root, the layout data folders have always had.
 *
 * A stored key never changes: `put` of a key that is already stored leaves it as it is. Only `replace` changes
 * a key's bytes, for the event's assets (a name the organiser replaces, services/organiser/event-assets.ts).
 */
import { randomUUID } from 'node:crypto';
import { readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db, EngineName } from '../db/engine.ts';
import { createStoredFilesRepository } from '../db/stored-files-repository.ts';
import { parseServerEnv, type Env } from './env.ts';
import { OWNER_FILE_MODE, ownerOnlyDir, ownerOnlyDirSync } from './owner-only.ts';

export interface FileStore {
  readonly kind: 'folder' | 'database';
  /** Stores the bytes under `key`, unless the key is already stored (then it is left as it is). */
  put(key: string, bytes: Buffer): Promise<void>;
  /** The bytes of `key`, or undefined when nothing is stored under it. */
  get(key: string): Promise<Buffer | undefined>;
  has(key: string): Promise<boolean>;
  /** Stores the bytes under `key` in place of any stored there; a reader sees the old bytes or the new, whole. */
  replace(key: string, bytes: Buffer): Promise<void>;
  /** Forgets `key`; nothing happens when it is not stored. */
  remove(key: string): Promise<void>;
  /** The stored keys under the folder `prefix` (ending in '/'), at any depth, sorted. */
  list(prefix: string): Promise<string[]>;
}

/** The keys of a published site-config document and of its brotli copy. */
export const siteConfigKey = (md5: string) => `site-configs/${md5}.json`;
export const siteConfigBrotliKey = (md5: string) => `${siteConfigKey(md5)}.br`;
/** The key of a file served at /files/<rest>. */
export const uploadKey = (rest: string) => `uploads/${rest}`;

const MAX_KEY_LENGTH = 1024;

/** A key no store accepts: empty, absolute, with '.' or '..' or empty segments, a backslash or a control character. */
export class FileKeyError extends Error {
  constructor(key: string) {
    super(`Not a file key: ${JSON.stringify(key.slice(0, 200))}`);
    this.name = 'FileKeyError';
  }
}

export function isFileKey(key: string): boolean {
  if (key === '' || key.length > MAX_KEY_LENGTH || key.startsWith('/')) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(key)) return false;
  return key.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

function checkedKey(key: string): string {
  if (!isFileKey(key)) throw new FileKeyError(key);
  return key;
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;
/** A key whose path is missing, or is a folder, or passes through a file. */
const NOT_STORED = new Set(['ENOENT', 'EISDIR', 'ENOTDIR']);

/** Files under `root`, written to a temporary name and renamed, so a reader never sees half a file. */
export function folderFileStore(root: string): FileStore {
  const base = path.resolve(root);
  const fileOf = (key: string) => {
    const file = path.join(base, ...checkedKey(key).split('/'));
    const relative = path.relative(base, file);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) throw new FileKeyError(key);
    return file;
  };
  const isFile = async (file: string) => {
    try {
      return (await stat(file)).isFile();
    } catch (error) {
      if (NOT_STORED.has(errorCode(error) ?? '')) return false;
      throw error;
    }
  };
  /** Writes a temporary file and renames it over `file` (atomic: a reader never sees half a file). */
  const write = async (file: string, bytes: Buffer) => {
    // Owner-only (issue 27): uploads are ID photos and medical certificates.
    await ownerOnlyDir(path.dirname(file));
    const temp = `${file}.${randomUUID()}.tmp`;
    try {
      await writeFile(temp, bytes, { flag: 'wx', mode: OWNER_FILE_MODE });
      await rename(temp, file);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  };
  return {
    kind: 'folder',
    async put(key, bytes) {
      const file = fileOf(key);
      if (await isFile(file)) return;
      await write(file, bytes);
    },
    async replace(key, bytes) {
      await write(fileOf(key), bytes);
    },
    async get(key) {
      try {
        return await readFile(fileOf(key));
      } catch (error) {
        if (NOT_STORED.has(errorCode(error) ?? '')) return undefined;
        throw error;
      }
    },
    async has(key) {
      return isFile(fileOf(key));
    },
    async remove(key) {
      try {
        await unlink(fileOf(key));
      } catch (error) {
        if (!NOT_STORED.has(errorCode(error) ?? '')) throw error;
      }
    },
    async list(prefix) {
      const folder = fileOf(checkedKey(prefix.replace(/\/$/, '')));
      let names: string[];
      try {
        names = await readdir(folder, { recursive: true });
      } catch (error) {
        if (NOT_STORED.has(errorCode(error) ?? '')) return [];
        throw error;
      }
      const keys: string[] = [];
      for (const name of names) {
        const key = `${prefix}${name.split(path.sep).join('/')}`;
        // Temporary names of a put in progress and folders are not stored keys.
        if (!name.endsWith('.tmp') && (await isFile(path.join(folder, name)))) keys.push(key);
      }
      return keys.sort();
    },
  };
}

/** Files in the database's stored_files table, shared by every instance on the database. */
export function databaseFileStore(db: Db, now: () => number = Date.now): FileStore {
  const files = createStoredFilesRepository(db);
  return {
    kind: 'database',
    put: async (key, bytes) => files.put(checkedKey(key), bytes, now()),
    get: async (key) => files.get(checkedKey(key)),
    has: async (key) => files.has(checkedKey(key)),
    replace: async (key, bytes) => files.replace(checkedKey(key), bytes, now()),
    remove: async (key) => files.remove(checkedKey(key)),
    list: async (prefix) => files.keys(checkedKey(prefix.replace(/\/$/, '')) + '/'),
  };
}

export type FileStorage = { kind: 'folder'; root: string } | { kind: 'database' };

/**
 * Where files are kept (FILE_STORAGE, FILES_DIR): as FILE_STORAGE says; unset, in a folder on SQLite and in
 * the database on PostgreSQL unless FILES_DIR names a shared folder. A folder is FILES_DIR, else the data folder.
 */
export function fileStorageFor(engine: EngineName, dataDir: string, env: Env): FileStorage {
  const { FILE_STORAGE, FILES_DIR } = parseServerEnv(env, ['FILE_STORAGE', 'FILES_DIR']);
  const kind = FILE_STORAGE ?? (engine === 'postgres' && FILES_DIR === undefined ? 'database' : 'folder');
  return kind === 'database' ? { kind } : { kind, root: path.resolve(FILES_DIR ?? dataDir) };
}

export function createFileStore(options: { db: Db; dataDir: string; env: Env; now?: () => number }): FileStore {
  const storage = fileStorageFor(options.db.engine, options.dataDir, options.env);
  if (storage.kind === 'database') return databaseFileStore(options.db, options.now);
  // Files kept before the folder was owner-only are closed to others by their root (issue 27).
  ownerOnlyDirSync(storage.root);
  return folderFileStore(storage.root);
}
