import { AppError } from './app-error';

/**
 * Fixed-window attempt counter kept in memory, keyed by address and by
 * account (ARCHITECTURE.md, Security). With several API instances each keeps
 * its own count, which only makes the limit more lenient by that factor.
 */
export function createRateLimiter(options: { max: number; windowMs: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { count: number; resetAt: number }>();
  return {
    /** Counts one attempt for every key; throws RATE_LIMITED when any is over the limit. */
    hit(...keys: (string | undefined | null)[]) {
      const t = now();
      if (windows.size > 50_000) for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
      let isOver = false;
      for (const key of keys) {
        if (!key) continue;
        let w = windows.get(key);
        if (!w || w.resetAt <= t) {
          w = { count: 0, resetAt: t + options.windowMs };
          windows.set(key, w);
        }
        w.count += 1;
        if (w.count > options.max) isOver = true;
      }
      if (isOver) throw new AppError('RATE_LIMITED');
    },
    reset() {
      windows.clear();
    },
  };
}

/** The limiter type. */
export type TRateLimiter = ReturnType<typeof createRateLimiter>;
