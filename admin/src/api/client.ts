/**
 * The console's calls to /api/admin/. The session is an HttpOnly cookie; every changing call also sends the
 * session's CSRF token (x-csrf-token), which the server checks. An answer resolves to its `data`; a refusal
 * rejects with a ConsoleApiError whose message is already in the console's language. A 401 (session ended)
 * clears the signed-in member, and the shell shows the sign-in page.
 */
import axios, { type AxiosResponse } from 'axios';
import type { Envelope } from '#contract/api';
import { ADMIN_API_PREFIX, CSRF_HEADER } from '#contract/staff';
import { consoleMessage } from '../messages';
import { useConsole } from '../store';

export class ConsoleApiError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly msgCode: string | undefined,
    /** The refusal's data when it has some (a form's refusals by field: `{ fields }`). */
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ConsoleApiError';
  }
}

/** How long a call may take before the console says it timed out. */
const CALL_LIMIT_MS = 30_000;
/**
 * The slowest upload a file call allows for (bytes a second, about 400 kbit/s: a venue's shared uplink): a
 * call carrying a file may take CALL_LIMIT_MS plus its body at this rate. A 20 MB asset (27 MB as base64)
 * gets about 9½ minutes, where the general 30 s would fail it on anything slower than 7 Mbit/s.
 */
const SLOWEST_UPLOAD_BYTES_PER_SECOND = 50_000;

/** The time limit of a call whose body carries a file of `chars` characters (its text, or its bytes as base64). */
export function fileCallLimitMs(chars: number): number {
  return CALL_LIMIT_MS + Math.ceil((chars / SLOWEST_UPLOAD_BYTES_PER_SECOND) * 1000);
}

const http = axios.create({ baseURL: ADMIN_API_PREFIX, timeout: CALL_LIMIT_MS, withCredentials: true });

http.interceptors.request.use((config) => {
  const method = (config.method ?? 'get').toLowerCase();
  const csrf = useConsole.getState().me?.csrf;
  if (method !== 'get' && csrf) config.headers.set(CSRF_HEADER, csrf);
  return config;
});

function unwrap<T>(response: AxiosResponse<Envelope<T>>): T {
  const body = response.data;
  if (body && typeof body === 'object' && body.code === 0) return body.data;
  const language = useConsole.getState().language;
  const code = typeof body?.code === 'number' ? body.code : response.status;
  if (code === 401 && useConsole.getState().me) useConsole.getState().setMe(null);
  throw new ConsoleApiError(
    consoleMessage(language, body?.msgCode, body?.msgParams, body?.msg),
    code,
    body?.msgCode,
    body?.data ?? undefined,
  );
}

function failure(error: unknown): never {
  if (error instanceof ConsoleApiError) throw error;
  const language = useConsole.getState().language;
  if (axios.isAxiosError(error) && error.response?.data && typeof error.response.data === 'object') {
    unwrap(error.response as AxiosResponse<Envelope<never>>);
  }
  const timedOut = axios.isAxiosError(error) && error.code === 'ECONNABORTED';
  throw new ConsoleApiError(consoleMessage(language, timedOut ? 'consoleTimeout' : 'consoleNetwork'), 0, undefined);
}

type Params = Record<string, string | number | boolean | undefined | null>;

export const api = {
  async get<T>(path: string, params?: Params): Promise<T> {
    try {
      return unwrap(await http.get<Envelope<T>>(path, { params }));
    } catch (error) {
      return failure(error);
    }
  },
  async post<T>(path: string, body?: unknown, timeout = CALL_LIMIT_MS): Promise<T> {
    try {
      return unwrap(await http.post<Envelope<T>>(path, body ?? {}, { timeout }));
    } catch (error) {
      return failure(error);
    }
  },
  /**
   * A call whose body carries a file (imports, bill, tracking and code files as text or base64, assets): its
   * time limit grows with the body's text.
   */
  postFile<T>(path: string, body: Record<string, unknown>): Promise<T> {
    const chars = Object.values(body).reduce<number>((sum, v) => sum + (typeof v === 'string' ? v.length : 0), 0);
    return api.post<T>(path, body, fileCallLimitMs(chars));
  },
};

/** A download link's address for a GET call (exports): the browser sends the session cookie itself. */
export function apiUrl(path: string, params?: Params): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const query = search.toString();
  return `${ADMIN_API_PREFIX}${path}${query ? `?${query}` : ''}`;
}
