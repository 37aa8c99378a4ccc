/**
 * Token check (spec §4, §9): a stored token is checked with getCommonInfo, 10 s time-out. Network failures
 * are retried up to 5 times; if the server stays unreachable the visitor stays logged in.
 */
import { API_PATHS } from '@/config/api-paths';
import { ApiError, apiRequest } from '@/lib/api-client';

export const TOKEN_CHECK_TIMEOUT_MS = 10_000;
export const TOKEN_CHECK_RETRIES = 5;

export type TokenCheck = 'valid' | 'invalid' | 'unreachable';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function checkToken(
  token: string,
  { retries = TOKEN_CHECK_RETRIES, retryDelayMs = 300 } = {},
): Promise<TokenCheck> {
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
      if (!transient) return 'invalid';
      if (attempt >= retries) return 'unreachable';
      await wait(retryDelayMs * (attempt + 1));
    }
  }
}
