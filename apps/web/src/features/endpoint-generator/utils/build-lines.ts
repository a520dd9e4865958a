import {
  SESSTIME_DEFAULT_MINUTES,
  SESSTIME_MAX_MINUTES,
  SPIDER_COUNT_MAX,
  formatEndpointLine,
  formatProxyUsername,
  type TEndpointSession,
  type TExportLineFormat,
} from '@proxy/contract';

/** Rotating: a new exit every few minutes; sticky: one exit per session id for `sesstime` minutes. */
export type TSessionMode = TEndpointSession;

/** Most lines one preview or file holds (the server's limit). */
export const ENDPOINT_COUNT_MAX = SPIDER_COUNT_MAX;
/** Sticky minutes offered by default (the server's default). */
export const DEFAULT_STICKY_MINUTES = SESSTIME_DEFAULT_MINUTES;
/** Length of a generated session id. */
export const SESSION_ID_LENGTH = 8;

/** What the generator needs of a token: its gateway credentials; static tokens are pinned to one exit. */
export type TGeneratorToken = { host: string; port: number; username: string; password: string; isPinned?: boolean };

/** Settings of one batch of endpoint lines. */
export type TLineSettings = {
  country?: string;
  state?: string;
  city?: string;
  mode: TSessionMode;
  /** Sticky minutes (1-120); only with mode "sticky". */
  sesstime?: number;
  format: TExportLineFormat;
  count: number;
};

const SESSION_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A random session id of lower-case letters and digits (the grammar allows [a-z0-9_]). */
export function createSessionId(length = SESSION_ID_LENGTH): string {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  let out = '';
  // 256 is not a multiple of 36; the slight bias does not matter for session ids.
  for (const byte of bytes) out += SESSION_ALPHABET[byte % SESSION_ALPHABET.length];
  return out;
}

/** Clamps sticky minutes into 1-120. */
export function clampStickyMinutes(minutes: number | undefined): number {
  if (minutes === undefined || !Number.isFinite(minutes)) return DEFAULT_STICKY_MINUTES;
  return Math.min(SESSTIME_MAX_MINUTES, Math.max(1, Math.round(minutes)));
}

/** Clamps a line count into 1-ENDPOINT_COUNT_MAX. */
export function clampCount(count: number | undefined): number {
  if (count === undefined || !Number.isFinite(count)) return 1;
  return Math.min(ENDPOINT_COUNT_MAX, Math.max(1, Math.floor(count)));
}

/**
 * Endpoint lines for a token in the username grammar of ARCHITECTURE.md
 * (`USER-country-us-state-ca-city-x-session-abc-sesstime-10`). Sticky lines
 * each get their own session id, so each line holds its own exit; rotating
 * lines carry no session and rotate on the gateway. A static token gets one
 * plain line.
 */
export function buildEndpointLines(
  token: TGeneratorToken,
  settings: TLineSettings,
  newSessionId: () => string = createSessionId,
): string[] {
  // A static token always leaves through its own exit: options would change nothing, so it has one plain line (as the server's file).
  if (token.isPinned) return [formatEndpointLine(token, settings.format)];
  const count = clampCount(settings.count);
  const area = {
    country: settings.country || undefined,
    state: settings.state || undefined,
    city: settings.city || undefined,
  };
  const lines: string[] = [];
  const used = new Set<string>();
  for (let i = 0; i < count; i++) {
    let session: string | undefined;
    if (settings.mode === 'sticky') {
      session = newSessionId();
      // A repeated id (unlikely with 36^8 choices) would share an exit: make it unique.
      if (used.has(session)) session = `${session}_${i}`;
      used.add(session);
    }
    const username = formatProxyUsername(token.username, {
      ...area,
      session,
      sesstime: settings.mode === 'sticky' ? clampStickyMinutes(settings.sesstime) : undefined,
    });
    lines.push(
      formatEndpointLine({ host: token.host, port: token.port, username, password: token.password }, settings.format),
    );
  }
  return lines;
}
