import { useSyncExternalStore } from 'react';
import { ACCESS_TOKEN_TTL_S } from '@proxy/contract/light';
import { currentFullPath, navigateTo } from './navigation';
import { queryClient } from './query-client';
import { prefixedKey, readRecord, removeRecord, writeRecord, type TStoreKind, type TStoredRecord } from './storage';
import { clearTabs } from './tabs';

/**
 * The signed-in session: the access token kept as `{ value, time, expire }`
 * (216000 s) in localStorage with "remember me" (kept across browser
 * restarts) or sessionStorage without it (spec sections 3, 9; ARCHITECTURE.md).
 */

const TOKEN_KEY = 'TOKEN';
/** Set at sign-in so the notice dialog shows once per sign-in. */
export const NOTICE_PENDING_KEY = 'NOTICE_PENDING';
/** Pages a signed-out visitor lands on; logout from them adds no redirect query. */
const AUTH_PATHS = ['/login', '/register', '/reset-password'];

const listeners = new Set<() => void>();
let version = 0;

function notify(): void {
  version += 1;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Set when a stored token was found expired (and removed): the session ran out by itself.
let hasFoundExpiredToken = false;

function isTokenStored(kind: TStoreKind): boolean {
  try {
    return (kind === 'local' ? window.localStorage : window.sessionStorage).getItem(prefixedKey(TOKEN_KEY)) !== null;
  } catch {
    return false;
  }
}

/** The stored token record and the store holding it, or null. */
export function getTokenRecord(): (TStoredRecord<string> & { kind: TStoreKind }) | null {
  for (const kind of ['session', 'local'] as const) {
    const wasStored = isTokenStored(kind);
    const record = readRecord<string>(kind, TOKEN_KEY);
    if (record && typeof record.value === 'string' && record.value) return { ...record, kind };
    // readRecord removes an expired record: the session ended by its own expiry (216000 s).
    if (wasStored && !isTokenStored(kind)) hasFoundExpiredToken = true;
  }
  return null;
}

/** True once after a stored token was found expired, so the guard can say the session expired. */
export function takeExpiredSession(): boolean {
  const hasExpired = hasFoundExpiredToken;
  hasFoundExpiredToken = false;
  return hasExpired;
}

/** Stores the token after sign-in; `remember` keeps it across browser restarts. */
export function saveSession(token: string, options: { remember: boolean }): void {
  const kind: TStoreKind = options.remember ? 'local' : 'session';
  removeRecord(kind === 'local' ? 'session' : 'local', TOKEN_KEY);
  writeRecord(kind, TOKEN_KEY, token, ACCESS_TOKEN_TTL_S);
  writeRecord('session', NOTICE_PENDING_KEY, true);
  hasFoundExpiredToken = false;
  notify();
}

/** Replaces the token after a refresh, in the store that held it. */
export function replaceToken(token: string): void {
  const kind = getTokenRecord()?.kind ?? 'session';
  writeRecord(kind, TOKEN_KEY, token, ACCESS_TOKEN_TTL_S);
  notify();
}

/** The stored, unexpired access token, or null. */
export function getAccessToken(): string | null {
  return getTokenRecord()?.value ?? null;
}

/** True when an unexpired access token is stored. */
export function isSignedIn(): boolean {
  return getAccessToken() !== null;
}

/** Removes the token from both stores without navigating. */
export function clearToken(): void {
  removeRecord('local', TOKEN_KEY);
  removeRecord('session', TOKEN_KEY);
  notify();
}

/** True when signed in; re-renders on sign-in, refresh and logout. */
export function useIsSignedIn(): boolean {
  useSyncExternalStore(
    subscribe,
    () => version,
    () => version,
  );
  return isSignedIn();
}

/** Runs after a sign-in or logout (used by the shell to reset per-user state). */
export function onSessionChange(listener: () => void): () => void {
  return subscribe(listener);
}

/**
 * Signs out locally (spec section 4): clears the token, tabs, query cache and
 * user state, and goes to /login with a redirect query holding the current
 * page, unless the visitor is already on a sign-in page.
 */
export function logout(options: { keepRedirect?: boolean } = {}): void {
  const keepRedirect = options.keepRedirect ?? true;
  removeRecord('local', TOKEN_KEY);
  removeRecord('session', TOKEN_KEY);
  removeRecord('session', NOTICE_PENDING_KEY);
  clearTabs();
  queryClient.clear();
  notify();
  const path = window.location.pathname;
  if (AUTH_PATHS.includes(path)) return;
  const redirect = keepRedirect && path !== '/404' ? `?redirect=${encodeURIComponent(currentFullPath())}` : '';
  navigateTo(`/login${redirect}`, { replace: true });
}
