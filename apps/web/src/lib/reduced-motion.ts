import { useSyncExternalStore } from 'react';

/** The system's "reduce motion" setting (WCAG 2.3.3): the console then opens and closes things without animating them. */
const REDUCE_QUERY = '(prefers-reduced-motion: reduce)';

function mediaQuery(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(REDUCE_QUERY)
    : null;
}

function subscribe(listener: () => void): () => void {
  const media = mediaQuery();
  media?.addEventListener?.('change', listener);
  return () => media?.removeEventListener?.('change', listener);
}

/** True while the system asks for reduced motion, re-rendering when it changes. */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => mediaQuery()?.matches === true,
    () => false,
  );
}
