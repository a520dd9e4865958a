import type { TOAuthProvider } from '@proxy/contract';
import { readRecord, removeRecord, writeRecord } from '../../../lib/storage';
import { getSafeRedirect } from './redirect';

/** Marks our own postMessage payloads among whatever else the window receives. */
export const OAUTH_MESSAGE_SOURCE = 'proxy-console-oauth';

/**
 * BroadcastChannel name used when the popup lost its `window.opener` (a
 * Cross-Origin-Opener-Policy on the way back from the provider severs it);
 * same-origin windows still reach each other through it.
 */
export const OAUTH_CHANNEL_NAME = 'proxy-console-oauth';

/** What the callback popup posts to the console window that opened it. */
export type TOAuthMessage = {
  source: typeof OAUTH_MESSAGE_SOURCE;
  provider: TOAuthProvider;
  code?: string;
  state?: string;
  access_token?: string;
  /** Set when the provider answered with an error (e.g. the user declined). */
  error?: string;
};

/** True when a message event carries our sign-in result. */
export function isOAuthMessage(data: unknown): data is TOAuthMessage {
  return typeof data === 'object' && data !== null && (data as { source?: unknown }).source === OAUTH_MESSAGE_SOURCE;
}

/** Reads the provider's answer from the callback URL: query (code flow) and fragment (token flow). */
export function readOAuthResult(provider: TOAuthProvider, location: { search: string; hash: string }): TOAuthMessage {
  const query = new URLSearchParams(location.search);
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const pick = (key: string) => query.get(key) ?? fragment.get(key) ?? undefined;
  const result: TOAuthMessage = { source: OAUTH_MESSAGE_SOURCE, provider };
  const code = pick('code');
  const state = pick('state');
  const accessToken = pick('access_token');
  const error = pick('error');
  if (code) result.code = code;
  if (state) result.state = state;
  if (accessToken) result.access_token = accessToken;
  if (error) result.error = error;
  else if (!(code && state) && !accessToken) result.error = 'missing_code';
  return result;
}

// "Remember me" and the wanted page must survive the full-page trip to GitHub and back.
const CONTEXT_KEY = 'OAUTH_CONTEXT';

/** What the login page knew before leaving for the provider. */
export type TOAuthContext = {
  isRemembered: boolean;
  redirect: string;
  /** Invite code to link a new account to (needed when this installation requires invites). */
  inviteCode?: string;
};

/** Keeps "remember me", the redirect target and the invite code for the callback page (10 minutes). */
export function saveOAuthContext(context: TOAuthContext): void {
  writeRecord('session', CONTEXT_KEY, context, 600);
}

/** The context saved before leaving (default: remembered, back to "/"); read once. */
export function takeOAuthContext(): TOAuthContext {
  const saved = readRecord<Partial<TOAuthContext>>('session', CONTEXT_KEY)?.value;
  removeRecord('session', CONTEXT_KEY);
  const redirect = saved?.redirect;
  return {
    isRemembered: saved?.isRemembered !== false,
    redirect: typeof redirect === 'string' ? getSafeRedirect(new URLSearchParams({ redirect })) : '/',
    ...(typeof saved?.inviteCode === 'string' && saved.inviteCode ? { inviteCode: saved.inviteCode } : {}),
  };
}

// The popup may come back without `window.opener`: the state of the sign-in the
// login page started tells the callback page that it is that popup.
const POPUP_KEY = 'OAUTH_POPUP';

/** Records that a popup sign-in with this state is under way (10 minutes). */
export function markPopupSignIn(state: string): void {
  writeRecord('local', POPUP_KEY, state, 600);
}

/** True (once) when the callback answers the popup sign-in the login page started. */
export function takePopupSignIn(state: string | undefined): boolean {
  const pending = readRecord<string>('local', POPUP_KEY)?.value;
  if (!state || pending !== state) return false;
  removeRecord('local', POPUP_KEY);
  return true;
}
