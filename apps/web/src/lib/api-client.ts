import {
  API_PREFIX,
  DEFAULT_STATUS_MESSAGES,
  ERRORS,
  OK_CODE,
  REQUEST_TIMEOUT_MS,
  ROUTE_TABLE,
  unknownErrorMessage,
} from '@proxy/contract/light';
import type { TRouteName, TRouteOutput, TRouteRequest } from '@proxy/contract';
import { getLanguage, translate } from './i18n';
import { showError } from './message';
import { currentFullPath, hardNavigate } from './navigation';
import { clearToken, getAccessToken, isSignedIn, logout, onSessionChange } from './session';
import { readValue, removeRecord, writeRecord } from './storage';

/** A failed call (spec section 8): body code (or HTTP status) and message. */
export class ApiError extends Error {
  /** Body code, or the HTTP status when the body has none; -1 for network failures. */
  readonly code: number;
  /** Message shown to the user, in the interface language. */
  readonly msg: string;
  /** HTTP status when a response arrived. */
  readonly status?: number;
  /** `data` of the envelope (e.g. `{ error, issues }`). */
  readonly data?: unknown;
  /** Key of the toast that told this failure, if one did (a form that shows it under a field takes it back). */
  tipKey?: string;

  constructor(fields: { code: number; msg: string; status?: number; data?: unknown }) {
    super(fields.msg);
    this.name = 'ApiError';
    this.code = fields.code;
    this.msg = fields.msg;
    this.status = fields.status;
    this.data = fields.data;
  }
}

/** Body code of network failures and cancelled calls (no answer arrived). */
export const NETWORK_ERROR_CODE = -1;
/** Body code of a revoked session (spec section 8). */
export const SESSION_REVOKED_CODE = ERRORS.SESSION_REVOKED.code;

/** Options of one call. */
export type TCallOptions = {
  /** Do not toast a failure (the caller shows it its own way). */
  skipTips?: boolean;
  /**
   * The action's own failure message (spec section 8, e.g. "export failed"),
   * toasted instead of the server's text; see failureTip.
   */
  failureMessage?: string;
  signal?: AbortSignal;
  headers?: Record<string, string>;
};

/**
 * Where and how long calls go: base URL `/api`, 60000 ms timeout. Tests point
 * `defaults.baseURL` at their stub server.
 */
export const apiHttp = { defaults: { baseURL: API_PREFIX, timeout: REQUEST_TIMEOUT_MS } };

/** One request as the transport sends it. */
type TRequest = {
  url: string;
  method: string;
  headers: Record<string, string>;
  params?: Record<string, unknown>;
  data?: XMLHttpRequestBodyInit;
  isBlob?: boolean;
  signal?: AbortSignal;
};

/** An answer of any HTTP status: the body parsed as JSON when it is JSON text, else the text (or the Blob). */
type TResponse = { status: number; data: unknown };

/** Why no answer arrived. */
type TTransportFailure = 'timeout' | 'network' | 'canceled';

class TransportError extends Error {
  constructor(readonly reason: TTransportFailure) {
    super(reason);
  }
}

/** Query string of a GET call: null/undefined left out, arrays as `key[]`, dates in ISO form, objects as JSON. */
export function toQueryString(params: Record<string, unknown>): string {
  const query = new URLSearchParams();
  const text = (value: unknown) =>
    value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (item !== undefined && item !== null) query.append(`${key}[]`, text(item));
    } else query.append(key, text(value));
  }
  return query.toString();
}

function parseBody(text: string): unknown {
  if (!text) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Sends one request over XMLHttpRequest (the browser's own transport, a few
 * hundred bytes instead of a request library). Resolves with any answer,
 * whatever its status; rejects with TransportError when none arrived.
 */
function send(request: TRequest): Promise<TResponse> {
  return new Promise((resolve, reject) => {
    if (request.signal?.aborted) {
      reject(new TransportError('canceled'));
      return;
    }
    const query = request.params ? toQueryString(request.params) : '';
    const url = `${apiHttp.defaults.baseURL.replace(/\/+$/, '')}${request.url}${query ? `?${query}` : ''}`;
    const xhr = new XMLHttpRequest();
    xhr.open(request.method.toUpperCase(), url, true);
    // The timeout as a timer of its own (jsdom, where the tests run, handles XMLHttpRequest.timeout slowly).
    let isTimedOut = false;
    const timer = setTimeout(() => {
      isTimedOut = true;
      xhr.abort();
    }, apiHttp.defaults.timeout);
    xhr.responseType = request.isBlob ? 'blob' : 'text';
    xhr.setRequestHeader('Accept', 'application/json, text/plain, */*');
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
    const onAbort = () => xhr.abort();
    const done = () => {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
    };
    xhr.onload = () => {
      done();
      resolve({ status: xhr.status, data: request.isBlob ? xhr.response : parseBody(xhr.responseText) });
    };
    xhr.onerror = () => {
      done();
      reject(new TransportError('network'));
    };
    xhr.onabort = () => {
      done();
      reject(new TransportError(isTimedOut ? 'timeout' : 'canceled'));
    };
    request.signal?.addEventListener('abort', onAbort);
    xhr.send(request.data ?? null);
  });
}

type TEnvelopeLike = { code?: unknown; msg?: unknown; data?: unknown };

function isEnvelope(body: unknown): body is TEnvelopeLike {
  return (
    typeof body === 'object' && body !== null && 'code' in body && typeof (body as TEnvelopeLike).code === 'number'
  );
}

/** Default message for a code when the answer carries none (spec section 8). */
export function defaultMessage(code: number): string {
  const lang = getLanguage();
  return DEFAULT_STATUS_MESSAGES[lang][code] ?? unknownErrorMessage(code, lang);
}

/** Splits input into path parameters (filled into `:name`) and the rest. */
export function buildPath(
  path: string,
  input: Record<string, unknown>,
): { path: string; rest: Record<string, unknown> } {
  const rest = { ...input };
  const filled = path.replace(/:(\w+)/g, (_, name: string) => {
    const value = rest[name];
    delete rest[name];
    if (value === undefined || value === null || value === '')
      throw new Error(`missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
  return { path: filled, rest };
}

/** Form encoding of a flat object; arrays repeat the key, null/undefined are left out. */
export function toFormBody(fields: Record<string, unknown>): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) form.append(key, String(item));
  }
  return form;
}

/** Network failures: a timeout and an unreachable server named in the interface language. */
function networkMessage(reason: TTransportFailure): string {
  return translate(reason === 'timeout' ? 'errors:timeout' : 'errors:network');
}

/**
 * The toast of a failed call. With a failure message, the server's reason
 * follows it ("Export failed: No stock in the selected area") unless the
 * failure is the server's own fault (5xx) or says the same; session failures
 * (401) keep their own message.
 */
export function failureTip(error: ApiError, failureMessage: string | undefined): string {
  if (!failureMessage || error.code === ERRORS.UNAUTHORIZED.code) return error.msg;
  const isServerFault = error.code >= 500 && error.code < 600;
  return error.msg && !isServerFault && error.msg !== failureMessage
    ? `${failureMessage}: ${error.msg}`
    : failureMessage;
}

function fail(error: ApiError, options: TCallOptions): never {
  if (!options.skipTips) error.tipKey = showError(failureTip(error, options.failureMessage));
  throw error;
}

/** Text of a Blob (FileReader where Blob.text is missing, e.g. older engines and jsdom). */
export function readBlobText(blob: Blob): Promise<string> {
  if (typeof blob.text === 'function') return blob.text();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

async function readBlobBody(blob: Blob): Promise<unknown> {
  try {
    return JSON.parse(await readBlobText(blob));
  } catch {
    return null;
  }
}

/**
 * Session endings (spec sections 4, 5 and 8): a session that expired (401) or
 * was revoked (-401) is told once, whatever the call's skipTips (background
 * calls end sessions too), however many calls are refused together; the next
 * sign-in resets it.
 */
let isSessionEndTold = false;
onSessionChange(() => {
  if (isSignedIn()) isSessionEndTold = false;
});

/** Storage name of a session message to show after the page load of a -401 (the toast would not survive it). */
const PENDING_SESSION_MESSAGE_KEY = 'SESSION_MESSAGE';

/** Tells the session's end once; answers false when it was already told. */
function tellSessionEnd(text: string, options: { isAcrossPageLoad?: boolean } = {}): boolean {
  if (isSessionEndTold) return false;
  isSessionEndTold = true;
  showError(text);
  if (options.isAcrossPageLoad) writeRecord('session', PENDING_SESSION_MESSAGE_KEY, text, 60);
  return true;
}

/** Says "登录已过期，请重新登录！" (or its English) unless the session's end was already told. */
export function tellSessionExpired(): void {
  tellSessionEnd(ERRORS.UNAUTHORIZED[getLanguage()]);
}

/** The expiry message once, then logout to /login?redirect=<this page> (spec section 4: a 401 triggers logout). */
export function endExpiredSession(): void {
  tellSessionExpired();
  logout();
}

/** Shows a session message left by the page before a -401's page load (the shell calls it once). */
export function showPendingSessionMessage(): void {
  const text = readValue<string>('session', PENDING_SESSION_MESSAGE_KEY);
  if (!text) return;
  removeRecord('session', PENDING_SESSION_MESSAGE_KEY);
  showError(text);
}

/** The spec-8 handling of a non-zero body code or an HTTP error with a body. */
function handleFailure(
  code: number,
  message: string | undefined,
  status: number | undefined,
  data: unknown,
  options: TCallOptions,
): never {
  const lang = getLanguage();
  if (code === SESSION_REVOKED_CODE) {
    // Spec section 8: clear the token, say the session is no longer valid, hard-navigate to /login
    // (with the redirect query, so signing in again returns to this page).
    const redirect = `/login?redirect=${encodeURIComponent(currentFullPath())}`;
    const isOnSignInPage = window.location.pathname === '/login';
    clearToken();
    const error = new ApiError({ code, msg: ERRORS.SESSION_REVOKED[lang], status, data });
    if (tellSessionEnd(error.msg, { isAcrossPageLoad: true }) && !isOnSignInPage) hardNavigate(redirect);
    throw error;
  }
  if (code === ERRORS.UNAUTHORIZED.code) {
    const error = new ApiError({ code, msg: ERRORS.UNAUTHORIZED[lang], status, data });
    endExpiredSession();
    throw error;
  }
  return fail(new ApiError({ code, msg: message || defaultMessage(code), status, data }), options);
}

/**
 * Calls a route of the contract's table (spec section 7). Resolves with
 * `data` when the body code is 0 (or the raw Blob for file routes); otherwise
 * rejects with ApiError after the spec-8 handling: a toast (the server's
 * message, or the caller's failure message) unless skipTips.
 */
export async function callApi<N extends TRouteName>(
  name: N,
  input?: TRouteRequest<N>,
  options: TCallOptions = {},
): Promise<TRouteOutput<N>> {
  const route = ROUTE_TABLE[name];
  const lang = getLanguage();
  const headers: Record<string, string> = { Lang: lang, ...options.headers };
  if (route.auth !== 'none') {
    const token = getAccessToken();
    if (!token) {
      // Spec section 5: rejected locally as 401, then the 401 rule (logout).
      const error = new ApiError({ code: 401, msg: ERRORS.UNAUTHORIZED[lang], status: 401 });
      endExpiredSession();
      throw error;
    }
    headers.Authorization = `Bearer ${token}`;
  }

  const { path, rest } = buildPath(route.path, (input ?? {}) as Record<string, unknown>);
  const request: TRequest = { url: path, method: route.method, headers, signal: options.signal, isBlob: route.isBlob };
  if (route.body === 'none') request.params = rest;
  else if (route.body === 'form') {
    request.data = toFormBody(rest);
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  } else if (route.body === 'multipart') {
    // Files (Blob) as file parts, other fields as text; the browser writes the boundary.
    const form = new FormData();
    for (const [key, value] of Object.entries(rest)) {
      if (value === undefined || value === null) continue;
      if (value instanceof Blob) form.append(key, value, value instanceof File ? value.name : key);
      else form.append(key, String(value));
    }
    request.data = form;
  } else {
    // JSON bodies keep the path parameters too (spec: PUT /token/remark/{token_id} carries token_id and remark).
    request.data = JSON.stringify({ ...(input as Record<string, unknown> | undefined) });
    headers['Content-Type'] = 'application/json';
  }

  let response: TResponse;
  try {
    response = await send(request);
  } catch (raw) {
    const reason = raw instanceof TransportError ? raw.reason : 'network';
    if (reason === 'canceled') throw new ApiError({ code: NETWORK_ERROR_CODE, msg: 'canceled' });
    return fail(new ApiError({ code: NETWORK_ERROR_CODE, msg: networkMessage(reason) }), options);
  }
  if (response.status < 200 || response.status >= 300) {
    const status = response.status;
    const body = response.data instanceof Blob ? await readBlobBody(response.data) : response.data;
    if (isEnvelope(body)) {
      return handleFailure(
        body.code as number,
        typeof body.msg === 'string' ? body.msg : undefined,
        status,
        body.data,
        options,
      );
    }
    return handleFailure(status, undefined, status, body, options);
  }

  if (route.isBlob) {
    const blob = response.data as Blob;
    // A file route may still answer an error envelope with status 200.
    if (blob instanceof Blob && /json/i.test(blob.type)) {
      const body = await readBlobBody(blob);
      if (isEnvelope(body) && body.code !== OK_CODE) {
        return handleFailure(
          body.code as number,
          typeof body.msg === 'string' ? body.msg : undefined,
          response.status,
          body.data,
          options,
        );
      }
    }
    return blob as TRouteOutput<N>;
  }
  const body = response.data as unknown;
  if (isEnvelope(body) && body.code === OK_CODE) return body.data as TRouteOutput<N>;
  if (isEnvelope(body)) {
    return handleFailure(
      body.code as number,
      typeof body.msg === 'string' ? body.msg : undefined,
      response.status,
      body.data,
      options,
    );
  }
  // An answer that is not an envelope is not a success (spec section 7).
  return handleFailure(response.status === 200 ? 500 : response.status, undefined, response.status, body, options);
}

/** Saves a Blob (e.g. an export) as a file download. */
export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
