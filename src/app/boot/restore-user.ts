/**
 * Restores the stored user data and token into the app store; corrupt data recovers (spec §8), and a
 * stored value that cannot be a token is dropped with the login.
 */
import {
  CorruptStorageError,
  USER_DATA_KEY,
  clearUserData,
  isPlausibleToken,
  readStoredToken,
  readUserData,
  recoverCorruptItem,
  type UserData,
} from '@/lib/user-data';
import { useAppStore } from '@/stores/app-store';

export type RestoreResult = { user: UserData | null; reloading: boolean };

export function restoreUser(deps: Parameters<typeof recoverCorruptItem>[1] = {}): RestoreResult {
  try {
    const user = readUserData(deps.storage);
    const token = readStoredToken(deps.storage) ?? user?.token ?? null;
    if ((!user && token) || (token && !isPlausibleToken(token))) {
      // A token without user data is half a login, an absurd one is corrupt: start logged out.
      clearUserData(deps.storage);
      return { user: null, reloading: false };
    }
    useAppStore.getState().setToken(token);
    return { user, reloading: false };
  } catch (error) {
    if (!(error instanceof CorruptStorageError)) throw error;
    useAppStore.getState().setToken(null);
    return { user: null, reloading: recoverCorruptItem(USER_DATA_KEY, deps) };
  }
}
