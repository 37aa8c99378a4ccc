/**
 * Stored user data (spec §3 "User data", browser storage key userData) and the token. The token is stored
 * with the user data and mirrored into the app store. Corrupt stored data is removed and the page reloads
 * once (spec §8) — a session flag prevents a reload loop. All of it goes through lib/storage.ts, which falls
 * back to memory for the session when the browser refuses site data.
 */
import * as z from 'zod/mini';
import { localStore, sessionStore, type KeyValueStore } from '@/lib/storage';
import { useAppStore } from '@/stores/app-store';

export const USER_DATA_KEY = 'userData';
export const TOKEN_KEY = 'token';
/** The sign-up form's drafts (features/registration/utils/entry-draft.ts), removed on logout. */
export const ENTRY_DRAFTS_KEY = 'race-site:entry-drafts';
const RECOVERY_FLAG = 'race-site:recovered-storage';

const optStr = z.optional(z.nullable(z.string()));
const optNum = z.optional(z.nullable(z.union([z.number(), z.string()])));

export const userDataSchema = z.looseObject({
  token: z.string().check(z.minLength(1)),
  accountInfo: z.optional(
    z.looseObject({
      accountIcon: optStr,
      accountId: optNum,
      accountNick: optStr,
      accountNo: optStr,
      accountPhone: optStr,
      accountStatus: optNum,
      accountType: optNum,
      loginType: optNum,
      osId: optNum,
      userId: optNum,
    }),
  ),
  userInfo: z.optional(
    z.looseObject({
      userId: optNum,
      userName: optStr,
      userEmail: optStr,
      userPhone: optStr,
      userGender: optNum,
    }),
  ),
  username: optStr,
  loginIdentityType: optNum,
  authorities: z.optional(z.array(z.unknown())),
});

export type UserData = z.infer<typeof userDataSchema>;

export class CorruptStorageError extends Error {
  constructor(readonly key: string) {
    super(`Stored item ${key} is corrupt`);
    this.name = 'CorruptStorageError';
  }
}

/** Longest token the site accepts: a signed token (JWT) is well under 4 KB, the reference server's 43 chars. */
export const MAX_TOKEN_LENGTH = 4096;
const TOKEN_CHARS = /^[\w\-.~+/=:]+$/;

/**
 * A value that could be a token: printable token characters (base64, base64url, hex, JWT), at most
 * MAX_TOKEN_LENGTH. Anything else is corrupt stored data, dropped without asking the server (spec §8).
 */
export function isPlausibleToken(token: string): boolean {
  return token.length > 0 && token.length <= MAX_TOKEN_LENGTH && TOKEN_CHARS.test(token);
}

/** Reads userData; throws CorruptStorageError when it is not valid JSON of the right shape. */
export function readUserData(storage: KeyValueStore = localStore): UserData | null {
  const raw = storage.getItem(USER_DATA_KEY);
  if (raw === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new CorruptStorageError(USER_DATA_KEY);
  }
  const result = userDataSchema.safeParse(parsed);
  if (!result.success) throw new CorruptStorageError(USER_DATA_KEY);
  return result.data;
}

export function readStoredToken(storage: KeyValueStore = localStore): string | null {
  const token = storage.getItem(TOKEN_KEY);
  return token && token.trim() ? token : null;
}

/**
 * The token a start-up check must look at: the token key, else the token kept inside userData (a login
 * saved by an older version, or a token key removed on its own). Corrupt userData is left to restoreUser.
 */
export function readLoginToken(storage: KeyValueStore = localStore): string | null {
  const token = readStoredToken(storage);
  if (token) return token;
  try {
    return readUserData(storage)?.token ?? null;
  } catch (error) {
    if (error instanceof CorruptStorageError) return null;
    throw error;
  }
}

export function saveUserData(data: UserData, storage: KeyValueStore = localStore): void {
  storage.setItem(USER_DATA_KEY, JSON.stringify(data));
  storage.setItem(TOKEN_KEY, data.token);
  useAppStore.getState().setToken(data.token);
}

/** Clearing user data removes the stored user data and the token (spec §4). */
export function clearUserData(storage: KeyValueStore = localStore): void {
  storage.removeItem(USER_DATA_KEY);
  storage.removeItem(TOKEN_KEY);
  storage.removeItem(ENTRY_DRAFTS_KEY);
  useAppStore.getState().setToken(null);
}

/**
 * Removes a corrupt item and reloads the page once. Returns true when a reload was started; false when
 * this session already recovered once (the caller then goes on without the item).
 */
export function recoverCorruptItem(
  key: string,
  {
    storage = localStore as KeyValueStore,
    session = sessionStore as KeyValueStore,
    reload = () => window.location.reload(),
  } = {},
): boolean {
  storage.removeItem(key);
  if (key === USER_DATA_KEY) storage.removeItem(TOKEN_KEY);
  // An item the browser would not remove would come back after the reload: go on without it instead.
  if (storage.getItem(key) !== null) return false;
  if (session.getItem(RECOVERY_FLAG)) return false;
  session.setItem(RECOVERY_FLAG, '1');
  reload();
  return true;
}

/** Called once the app has rendered: a later corruption may reload once again. */
export function clearRecoveryFlag(session: KeyValueStore = sessionStore): void {
  session.removeItem(RECOVERY_FLAG);
}
