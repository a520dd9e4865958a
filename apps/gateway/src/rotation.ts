/**
 * Exit choice for dynamic tokens, the same on every gateway with no shared
 * state: weighted rendezvous hashing of (token, session, time window) over the
 * area's usable exits and the upstream pools that serve it (by priority first). Windows are anchored to the clock (shifted per token and
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

/** A candidate of the exit choice: an exit or a pool, by a key unique among candidates (`e7`, `p3`). */
export type TRankedCandidate = {
  key: string;
  /** Lower is tried first: candidates of the lowest priority are chosen among, the others follow by priority. */
  priority: number;
  /** Shares the choices among candidates of one priority (weighted rendezvous hashing), at least 1. */
  weight: number;
  /**
   * It changes its exit by itself from one window to the next (a pool, asked for a new session each window): it
   * may be chosen in consecutive windows. An exit (one address) never is, when its priority has another candidate.
   */
  isSelfRotating?: boolean;
};

/** Priority and weight of an exit as a candidate (a pool's defaults: an exit and a default pool share alike). */
export const EXIT_PRIORITY = 10;
export const EXIT_WEIGHT = 100;

/** What the choice over keyed candidates depends on. */
export type TCandidateRotationInput<T extends TRankedCandidate> = Omit<TRotationInput, 'candidates'> & {
  candidates: readonly T[];
};

// A key's own 32-bit hash (kept per key string: candidates repeat across connections).
const keyHashes = new Map<string, number>();
function keyHash(key: string): number {
  let h = keyHashes.get(key);
  if (h === undefined) {
    h = mix(hash(`key:${key}`));
    if (keyHashes.size > 100_000) keyHashes.clear();
    keyHashes.set(key, h);
  }
  return h;
}

/**
 * The candidates in the order to try them. Among the candidates of the lowest priority, weighted rendezvous hashing
 * of (token, session, window) chooses the first, the same on every gateway. An exit is never chosen in two
 * consecutive windows when that priority has another candidate, so the exit really rotates: even windows take the
 * weighted best; odd windows the weighted best other than the exits both neighbouring windows chose; two exits
 * alone alternate. Pools rotate by themselves (a new pool session each window), so among pools alone the choice is
 * the weighted one in every window and the weights hold exactly. The rest follow by priority, then by their
 * weighted score in the window (so fallbacks agree across gateways too).
 */
export function rankCandidates<T extends TRankedCandidate>(input: TCandidateRotationInput<T>): T[] {
  const { candidates } = input;
  if (candidates.length <= 1) return [...candidates];
  const seed = hash(`${input.tokenId}:${input.session ?? ''}`);
  const { index } = rotationWindow(input);
  // Weighted rendezvous: -ln(u) / weight, the lowest wins (u uniform in (0, 1) from the hash).
  const score = (c: T, window: number) => {
    const h = mix(seed ^ mix(window ^ 0x5bd1e995) ^ keyHash(c.key));
    return -Math.log((h + 0.5) / 4294967296) / Math.max(1, c.weight);
  };
  const before = (a: T, b: T, window: number) => {
    const d = score(a, window) - score(b, window);
    return d < 0 || (d === 0 && a.key < b.key);
  };
  let topPriority = Infinity;
  for (const c of candidates) if (c.priority < topPriority) topPriority = c.priority;
  const top = candidates.filter((c) => c.priority === topPriority);
  const best = (window: number, except: ReadonlySet<T>) => {
    let chosen: T | undefined;
    for (const c of top) {
      if (except.has(c)) continue;
      if (!chosen || before(c, chosen, window)) chosen = c;
    }
    return chosen!;
  };
  let chosen: T;
  if (top.length === 1) {
    chosen = top[0];
  } else if (top.length === 2 && !top[0].isSelfRotating && !top[1].isSelfRotating) {
    // Two exits: alternate, starting where the seed says.
    const sorted = [...top].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    chosen = sorted[(index + seed) % 2];
  } else if (index % 2 === 0) {
    // Even windows take the best; odd windows the best other than the exits both neighbours chose.
    chosen = best(index, new Set());
  } else {
    const except = new Set<T>();
    for (const near of [best(index - 1, except), best(index + 1, except)]) if (!near.isSelfRotating) except.add(near);
    chosen = best(index, except);
  }
  const scores = new Map(candidates.map((c) => [c, score(c, index)]));
  const rest = candidates
    .filter((c) => c !== chosen)
    .sort((a, b) => a.priority - b.priority || scores.get(a)! - scores.get(b)! || (a.key < b.key ? -1 : 1));
  return [chosen, ...rest];
}

/** Exits only (all of one priority and weight), by id: the candidates' order as rankCandidates gives it. */
export function rankExits(input: TRotationInput): number[] {
  const candidates = input.candidates.map((id) => ({
    id,
    key: `e${id}`,
    priority: EXIT_PRIORITY,
    weight: EXIT_WEIGHT,
  }));
  return rankCandidates({ ...input, candidates }).map((c) => c.id);
}
