import { randomInt } from 'node:crypto';

/**
 * Exit choice for dynamic tokens. An exit, once chosen, holds for a window
 * that starts at first use: 3 to 5 minutes (fixed per token) without a
 * session, `sesstime` minutes (default 10) with one. When the window ends the
 * next use picks a different exit, so the exit really rotates. Windows are
 * kept per gateway.
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

/** Remembers the current exit per token and session. */
export function createRotation(now: () => number) {
  const held = new Map<string, { exitId: number; until: number }>();

  function prune(t: number): void {
    for (const [key, entry] of held) if (entry.until <= t) held.delete(key);
  }

  return {
    /**
     * The exit (one of `candidates`, node ids) for this token and session now.
     * Keeps the held exit while its window lasts and it is still a candidate.
     */
    choose(input: { tokenId: number; session?: string; sesstimeMinutes?: number; candidates: number[] }): number {
      const { candidates } = input;
      const t = now();
      const key = `${input.tokenId}:${input.session ?? ''}`;
      const entry = held.get(key);
      if (entry && entry.until > t && candidates.includes(entry.exitId)) return entry.exitId;
      let pick = candidates[randomInt(candidates.length)];
      if (entry && candidates.length > 1 && pick === entry.exitId) {
        // Rotating means a different exit than the last one.
        const others = candidates.filter((c) => c !== entry.exitId);
        pick = others[randomInt(others.length)];
      }
      const windowMs = input.session ? (input.sesstimeMinutes ?? DEFAULT_SESSTIME_MINUTES) * 60_000 : rotationWindowMs(input.tokenId);
      if (held.size > 100_000) prune(t);
      held.set(key, { exitId: pick, until: t + windowMs });
      return pick;
    },
    size: () => held.size,
  };
}
