import { useRef, type ReactNode } from 'react';
import { useLocation, useOutlet } from 'react-router';
import { PAGE_CACHE_SIZE } from '@proxy/contract/light';
import { useTabs } from '../lib/tabs';

type TEntry = { key: string; element: ReactNode };

/**
 * Next cache content: the current page moves to the end with its latest
 * element; pages no longer open as tabs are dropped; the oldest go beyond `size`.
 */
export function nextPageCache(
  cache: TEntry[],
  key: string,
  element: ReactNode,
  openKeys: ReadonlySet<string>,
  size = PAGE_CACHE_SIZE,
): TEntry[] {
  const next = cache.filter((e) => e.key !== key && openKeys.has(e.key));
  next.push({ key, element });
  return next.slice(Math.max(0, next.length - size));
}

/**
 * The layout's outlet with a page cache (spec section 2: at most 3 pages):
 * the last visited pages stay mounted, hidden, so their state survives a tab switch.
 */
export function KeepAliveOutlet() {
  const outlet = useOutlet();
  const { pathname } = useLocation();
  const { tabs } = useTabs();
  const cacheRef = useRef<TEntry[]>([]);
  // Computed during render from (pathname, outlet, tabs) only, so a repeated render gives the same cache.
  cacheRef.current = nextPageCache(cacheRef.current, pathname, outlet, new Set(tabs.map((t) => t.key)));
  return (
    <>
      {cacheRef.current.map((entry) => (
        <div key={entry.key} data-page-key={entry.key} style={entry.key === pathname ? undefined : { display: 'none' }}>
          {entry.element}
        </div>
      ))}
    </>
  );
}
