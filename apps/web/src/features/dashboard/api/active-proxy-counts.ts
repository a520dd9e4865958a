import { useMemo } from 'react';
import { useTokenLists } from '../../../entities/proxies/token-list';

/** Enabled proxies per kind: dynamic residential, static residential and data-center. */
export type TActiveProxyCounts = { dynamic: number; static: number; idc: number };

const KIND_LISTS = ['isp/dynamic', 'isp/static', 'idc/static'] as const;
/** One record is enough: the counts are the lists' totals. */
const COUNT_QUERY = { page: 1, page_size: 1, status: 'enabled' } as const;

/** Enabled proxies per kind, from the three list calls with page_size 1; failures show in the card, not as toasts. */
export function useActiveProxyCounts() {
  const lists = useTokenLists(KIND_LISTS, COUNT_QUERY, { skipTips: true });
  const data = useMemo<TActiveProxyCounts | undefined>(
    () =>
      lists.pages
        ? { dynamic: lists.pages[0].total, static: lists.pages[1].total, idc: lists.pages[2].total }
        : undefined,
    [lists.pages],
  );
  return { data, isPending: lists.isPending, isError: lists.isError, refetch: lists.refetch };
}
