/**
 * Token check (spec §4, §9): a stored token is checked with getCommonInfo, 10 s time-out. Network failures
 * are retried up to 5 times; if the server stays unreachable the visitor stays logged in. A value that
 * cannot be a token (20 KB, spaces, markup) is invalid at once, and so is a token the server refuses to read
 * (400, 413, 431): retrying the same request cannot succeed.
 */
import { API_PATHS } from '#contract/api';
import { ApiError, apiRequest } from '@/lib/api-client';
import { isPlausibleToken } from '@/lib/user-data';

export const TOKEN_CHECK_TIMEOUT_MS = 10_000;
export const TOKEN_CHECK_RETRIES = 5;

export type TokenCheck = 'valid' | 'invalid' | 'unreachable';

/** Answers to a request the server could not read: the token itself is unusable. */
const UNREADABLE_REQUEST = new Set([400, 413, 431]);

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function checkToken(
  token: string,
  { retries = TOKEN_CHECK_RETRIES, retryDelayMs = 300 } = {},
): Promise<TokenCheck> {
  if (!isPlausibleToken(token)) return 'invalid';
  for (let attempt = 0; ; attempt += 1) {
    try {
      await apiRequest({
        method: 'POST',
        url: API_PATHS.commonInfo,
        data: {},
        headers: { token },
        timeout: TOKEN_CHECK_TIMEOUT_MS,
        silent: true,
      });
      return 'valid';
    } catch (error) {
      const transient = error instanceof ApiError && (error.kind === 'network' || error.kind === 'http');
      if (error instanceof ApiError && error.kind === 'timeout') return 'unreachable';
      if (error instanceof ApiError && error.status !== undefined && UNREADABLE_REQUEST.has(error.status)) {
        return 'invalid';
      }
      if (!transient) return 'invalid';
      if (attempt >= retries) return 'unreachable';
      await wait(retryDelayMs * (attempt + 1));
    }
  }
}
