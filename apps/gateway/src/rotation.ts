/**
 * Exit choice for dynamic tokens: the exit holds for a window and changes
 * with the next one. Without a session the window is 3 to 5 minutes (fixed per
 * token); with `session` it is `sesstime` minutes (default 10) and the session
 * id picks the exit, so two sessions of one token can use different exits.
 */

/** Shortest and longest rotation window without a sticky session. */
export const ROTATION_MIN_MS = 3 * 60_000;
export const ROTATION_MAX_MS = 5 * 60_000;
/** Sticky minutes when a session is given without sesstime. */
export const DEFAULT_SESSTIME_MINUTES = 10;

// FNV-1a: a small, stable, well-spread hash of a string.
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Length of a token's rotation window (3-5 minutes, stable per token). */
export function rotationWindowMs(tokenId: number): number {
  return ROTATION_MIN_MS + (hash(`window:${tokenId}`) % (ROTATION_MAX_MS - ROTATION_MIN_MS + 1));
}

/**
 * Index of the exit to use among `count` candidates at time `nowMs`, and when
 * that choice ends. Consecutive windows never pick the same exit when there
 * are two or more, so the exit really changes.
 */
export function pickExitIndex(input: { tokenId: number; session?: string; sesstimeMinutes?: number; count: number; nowMs: number }): { index: number; until: number } {
  const { tokenId, session, count, nowMs } = input;
  if (count <= 1) return { index: 0, until: Number.POSITIVE_INFINITY };
  const windowMs = session ? (input.sesstimeMinutes ?? DEFAULT_SESSTIME_MINUTES) * 60_000 : rotationWindowMs(tokenId);
  const key = `${tokenId}:${session ?? ''}`;
  // Each key gets its own phase so windows of different tokens do not all turn over together.
  const phase = hash(`phase:${key}`) % windowMs;
  const windowIndex = Math.floor((nowMs + phase) / windowMs);
  const base = hash(`base:${key}`) % count;
  // Step 1..count-1 per window: never the same exit twice in a row.
  const step = 1 + (hash(`step:${key}`) % (count - 1));
  return { index: (base + windowIndex * step) % count, until: (windowIndex + 1) * windowMs - phase };
}
