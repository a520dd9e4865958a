import { useMemo, useState } from 'react';
import type { TProxyToken } from '@proxy/contract';
import { useTokenLists } from '../../../entities/proxies/token-list';

/** Days ahead the expiring-soon list looks. */
export const EXPIRING_WITHIN_DAYS = 3;
const EXPIRING_PAGE_SIZE = 50;

/** A proxy that expires soon, with the list it belongs to. */
export type TExpiringProxy = TProxyToken & { kind: 'dynamic' | 'static' | 'idc' };

const KIND_LISTS = ['isp/dynamic', 'isp/static', 'idc/static'] as const;
const KINDS = ['dynamic', 'static', 'idc'] as const;

/** The lists' query for enabled proxies expiring within 3 days of `now`. */
function expiringQuery(now: Date) {
  return {
    page: 1,
    page_size: EXPIRING_PAGE_SIZE,
    status: 'enabled' as const,
    expires_from: now.toISOString(),
    expires_to: new Date(now.getTime() + EXPIRING_WITHIN_DAYS * 24 * 60 * 60 * 1000).toISOString(),
  };
}

/** Enabled proxies expiring within 3 days of the page's opening, soonest first; failures show in the card, not as toasts. */
export function useExpiringProxies() {
  // The window is fixed when the card mounts, so the query (and its key) stays the same.
  const [query] = useState(() => expiringQuery(new Date()));
  const lists = useTokenLists(KIND_LISTS, query, { skipTips: true });
  const data = useMemo<TExpiringProxy[] | undefined>(
    () =>
      lists.pages
        ?.flatMap((page, i) => page.records.map((record) => ({ ...record, kind: KINDS[i] })))
        .sort((a, b) => Date.parse(a.expires_at) - Date.parse(b.expires_at)),
    [lists.pages],
  );
  return { data, isPending: lists.isPending, isError: lists.isError, refetch: lists.refetch };
}
