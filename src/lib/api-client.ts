/**
 * The single axios instance (spec §7, §8). The request side adds the contract's headers; the response
 * side unwraps the envelope and turns every failure into one ApiError with the message to show (a server msg
 * of the dictionary in the visitor's language, lib/server-messages.ts).
 * Components never read `code` themselves.
 */
import type { AxiosError, AxiosInstance, AxiosRequestConfig, AxiosResponse, AxiosStatic } from 'axios';
import i18n from 'i18next';
import { CONTRACT_HEADERS, type Envelope } from '#contract/api';
import { getEnv } from '@/config/env';
import { notify, TOAST_SECONDS } from '@/lib/notify';
import { localizeServerMessage } from '@/lib/server-messages';
import { useAppStore } from '@/stores/app-store';

export const REQUEST_TIMEOUT_MS = 60_000;
export { OS_ID, TERMINAL_TYPE } from '#contract/api';
/** Code of the answer to a request whose login has expired. */
export const LOGIN_EXPIRED_CODE = 401;

export type ApiErrorKind = 'business' | 'empty' | 'network' | 'timeout' | 'http' | 'cancelled';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly code?: number,
    readonly status?: number,
    /** A business refusal's `data` (the field refusals of a form's save, say). */
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

declare module 'axios' {
  interface AxiosRequestConfig {
    /**
     * Do not show a toast on failure (spec §8 "Silent" failures); the promise still rejects. 'answers': only
     * the server's answers (business rejections, empty bodies) are silent, because the page shows them
     * itself; transport failures (network, time-out, HTTP errors) still get their toast (lookups, §8).
     */
    silent?: boolean | 'answers';
    /** The answer is a plain document (a config file), not an envelope: return the body as is. */
    raw?: boolean;
  }
}

let clientLoad: Promise<AxiosInstance> | undefined;

/**
 * The axios instance, loaded on the first request: a first visit starts with the answers index.html
 * fetched early (app/boot/early-fetch.ts), so axios stays off the path to the first paint.
 */
function client(): Promise<AxiosInstance> {
  clientLoad ??= import('axios').then(
    ({ default: axios }) => {
      const instance = axios.create({
        baseURL: getEnv().apiBaseUrl === '/' ? undefined : getEnv().apiBaseUrl,
        timeout: REQUEST_TIMEOUT_MS,
        // The contract sends the token header, not an XSRF cookie; reading document.cookie for one throws
        // where site data is blocked (a cross-site frame) and would fail every request.
        withXSRFToken: false,
      });
      instance.interceptors.request.use((config) => {
        const headers = axios.AxiosHeaders.from(config.headers);
        for (const [name, value] of Object.entries(CONTRACT_HEADERS)) headers.set(name, value);
        const { token } = useAppStore.getState();
        if (token) headers.set('token', token);
        config.headers = headers;
        return config;
      });
      instance.interceptors.response.use(onFulfilled, (error: AxiosError) => onRejected(axios, error));
      return instance;
    },
    (error: unknown) => {
      clientLoad = undefined;
      throw error;
    },
  );
  return clientLoad;
}

/** A request through the one client; the client's own failure to load is a network failure. */
async function request<T>(config: AxiosRequestConfig): Promise<AxiosResponse<T>> {
  let instance: AxiosInstance;
  try {
    instance = await client();
  } catch {
    reject(new ApiError('network', t('errors.network')), config, TOAST_SECONDS);
  }
  return instance.request<T>(config);
}

type MessageKey =
  'errors.somethingWrong' | 'errors.network' | 'errors.generic' | 'errors.timeout' | 'errors.serverDown';
const t = (key: MessageKey) => i18n.t(key);
/** An HTTP error without a message for the visitor, in the visitor's language (never axios' English text). */
const httpMessage = (status: number) =>
  status >= 500 ? t('errors.serverDown') : i18n.t('errors.requestFailed', { status });

function isBinary(config: AxiosRequestConfig): boolean {
  return config.responseType === 'blob' || config.responseType === 'arraybuffer';
}

function isQuiet(error: ApiError, config: AxiosRequestConfig | undefined): boolean {
  if (error.kind === 'cancelled' || config?.silent === true) return true;
  return config?.silent === 'answers' && (error.kind === 'business' || error.kind === 'empty');
}

function reject(error: ApiError, config: AxiosRequestConfig | undefined, seconds?: number): never {
  if (!isQuiet(error, config)) notify.error(error.message, seconds);
  throw error;
}

/** The checks every envelope answer passes (a body, an object, code 0); throws the ApiError to report. */
export function checkEnvelope<T>(body: unknown, status?: number): Envelope<T> {
  if (body === undefined || body === null || body === '' || typeof body !== 'object') {
    throw new ApiError('empty', t('errors.somethingWrong'));
  }
  const envelope = body as Partial<Envelope<unknown>>;
  if (envelope.code !== 0) {
    const msg = localizeServerMessage(envelope) ?? t('errors.generic');
    const code = typeof envelope.code === 'number' ? envelope.code : undefined;
    throw new ApiError('business', msg, code, status, envelope.data);
  }
  return body as Envelope<T>;
}

/** A document answer (no envelope) must have a body. */
export function checkDocument<T>(body: unknown): T {
  if (body === undefined || body === null || body === '') throw new ApiError('empty', t('errors.somethingWrong'));
  return body as T;
}

function onFulfilled(response: AxiosResponse): AxiosResponse {
  const { config } = response;
  if (isBinary(config)) return response;
  try {
    if (config.raw) checkDocument(response.data);
    else checkEnvelope(response.data, response.status);
  } catch (error) {
    const apiError = error as ApiError;
    if (apiError.code === LOGIN_EXPIRED_CODE && useAppStore.getState().token) {
      useAppStore.getState().setReloginConfirmOpen(true);
    }
    reject(apiError, config);
  }
  return response;
}

function onRejected(axios: AxiosStatic, error: AxiosError): never {
  const { config } = error;
  if (axios.isCancel(error)) throw new ApiError('cancelled', 'cancelled');
  if (error.response) {
    const { status } = error.response;
    // An HTTP error (below 500) whose body is still an envelope carries a message meant for the visitor; a
    // 5xx says only that the service failed (its msg, e.g. 'Internal Server Error', is not for visitors).
    const body = error.response.data as Partial<Envelope<unknown>> | undefined;
    const shown = status < 500 && body && typeof body === 'object' ? localizeServerMessage(body) : null;
    if (shown !== null) {
      const code = typeof body!.code === 'number' ? body!.code : undefined;
      reject(new ApiError('business', shown, code, status, body!.data), config);
    }
    reject(new ApiError('http', httpMessage(status), undefined, status), config, TOAST_SECONDS);
  }
  if (error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT') {
    reject(new ApiError('timeout', t('errors.timeout')), config, TOAST_SECONDS);
  }
  reject(new ApiError('network', t('errors.network')), config, TOAST_SECONDS);
}

/** A call of the contract: resolves with the envelope (code 0), rejects with ApiError otherwise. */
export async function apiRequest<T>(config: AxiosRequestConfig): Promise<Envelope<T>> {
  const response = await request<Envelope<T>>(config);
  return response.data;
}

/** A plain document (no envelope), e.g. the site configuration or a translation file. */
export async function fetchDocument<T>(config: AxiosRequestConfig): Promise<T> {
  const response = await request<T>({ ...config, raw: true });
  return response.data;
}

/** A binary answer (Blob), returned as is. */
export async function fetchBinary(config: AxiosRequestConfig): Promise<AxiosResponse<Blob>> {
  return request<Blob>({ ...config, responseType: 'blob' });
}
