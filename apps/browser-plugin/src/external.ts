import type { TPluginAnswer, TPluginRefusal } from '@proxy/contract/plugin-protocol';
import type { TProxySettings } from './settings';

/** The sender of an external message, as Chromium tells it. */
export type TSender = { origin?: string; url?: string };

/** What handling a console's message needs (the service worker wires the real ones). */
export type TExternalDeps = {
  consoleOrigin: string | null;
  version: string;
  verify: (grant: unknown) => Promise<{ ok: true; proxy: TProxySettings } | { ok: false; reason: TPluginRefusal }>;
  /** Stores the proxy, turns it on and sets it in the browser; answers a refusal when the browser will not. */
  apply: (proxy: TProxySettings) => Promise<TPluginRefusal | null>;
  activeTokenId: () => Promise<number | null>;
};

/** True when the message comes from a page of the console's own origin (and only then). */
export function isFromConsole(sender: TSender, consoleOrigin: string | null): boolean {
  if (!consoleOrigin) return false;
  if (sender.origin !== undefined) return sender.origin === consoleOrigin;
  try {
    return sender.url !== undefined && new URL(sender.url).origin === consoleOrigin;
  } catch {
    return false;
  }
}

/**
 * Answers one message from a web page: only the console's origin is heard;
 * "hello" tells the version and the active proxy; "apply" sets the proxy of a
 * verified grant (every check passes before anything changes).
 */
export async function handleExternalMessage(
  message: unknown,
  sender: TSender,
  deps: TExternalDeps,
): Promise<TPluginAnswer> {
  if (!isFromConsole(sender, deps.consoleOrigin)) return { ok: false, reason: 'wrong-origin' };
  const type = message && typeof message === 'object' ? (message as { type?: unknown }).type : undefined;
  if (type === 'hello')
    return { ok: true, type: 'hello', version: deps.version, active_token_id: await deps.activeTokenId() };
  if (type !== 'apply') return { ok: false, reason: 'bad-message' };
  const verified = await deps.verify((message as { grant?: unknown }).grant);
  if (!verified.ok) return verified;
  const refusal = await deps.apply(verified.proxy);
  if (refusal) return { ok: false, reason: refusal };
  return { ok: true, type: 'apply', version: deps.version, token_id: verified.proxy.token_id };
}
