/**
 * Exit choice for dynamic tokens, the same on every gateway with no shared
 * state: rendezvous hashing of (token, session, time window) over the area's
 * usable exits. Windows are anchored to the clock (shifted per token and
 * session so that tokens do not all rotate at once): 3 to 5 minutes (fixed
 * per token) without a session, `sesstime` minutes (default 10) with one.
 * Consecutive windows always choose different exits when there are two or
 * more, so the exit really rotates; an exit that goes away moves only the
 * sessions that were on it.
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

// MurmurHash3's finaliser: mixes a 32-bit value so that every input bit affects every output bit.
function mix(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Length of a token's rotation window (3-5 minutes, stable per token). */
export function rotationWindowMs(tokenId: number): number {
  return ROTATION_MIN_MS + (hash(`window:${tokenId}`) % (ROTATION_MAX_MS - ROTATION_MIN_MS + 1));
}

/** What the exit choice depends on. */
export type TRotationInput = {
  tokenId: number;
  session?: string;
  sesstimeMinutes?: number;
  /** Usable exit ids of the area. */
  candidates: number[];
  /** Milliseconds since the epoch. */
  now: number;
};

/** The window `now` falls in: its number, length and end (ms since the epoch). */
export function rotationWindow(input: Pick<TRotationInput, 'tokenId' | 'session' | 'sesstimeMinutes' | 'now'>): {
  index: number;
  lengthMs: number;
  endsAt: number;
} {
  const lengthMs = input.session
    ? (input.sesstimeMinutes ?? DEFAULT_SESSTIME_MINUTES) * 60_000
    : rotationWindowMs(input.tokenId);
  const offset = hash(`offset:${input.tokenId}:${input.session ?? ''}`) % lengthMs;
  const index = Math.floor((input.now + offset) / lengthMs);
  return { index, lengthMs, endsAt: (index + 1) * lengthMs - offset };
}

/**
 * The candidates in the order to try them: the chosen exit first, then the
 * rest by their rendezvous score (so fallbacks agree across gateways too).
 */
export function rankExits(input: TRotationInput): number[] {
  const { candidates } = input;
  if (candidates.length <= 1) return [...candidates];
  const seed = hash(`${input.tokenId}:${input.session ?? ''}`);
  const { index } = rotationWindow(input);
  const score = (exitId: number, window: number) =>
    mix(seed ^ mix(window ^ 0x5bd1e995) ^ mix(Math.imul(exitId, 0x9e3779b1)));
  const top = (window: number, except: Set<number>) => {
    let best = -1;
    let bestScore = -1;
    for (const id of candidates) {
      if (except.has(id)) continue;
      const s = score(id, window);
      if (s > bestScore || (s === bestScore && id < best)) [best, bestScore] = [id, s];
    }
    return best;
  };
  let chosen: number;
  if (candidates.length === 2) {
    // Two exits: alternate, starting where the seed says.
    const sorted = [...candidates].sort((a, b) => a - b);
    chosen = sorted[(index + seed) % 2];
  } else if (index % 2 === 0) {
    // Even windows take the best exit; odd windows the best other than both neighbours' choice.
    chosen = top(index, new Set());
  } else {
    chosen = top(index, new Set([top(index - 1, new Set()), top(index + 1, new Set())]));
  }
  const rest = candidates.filter((id) => id !== chosen).sort((a, b) => score(b, index) - score(a, index) || a - b);
  return [chosen, ...rest];
}
