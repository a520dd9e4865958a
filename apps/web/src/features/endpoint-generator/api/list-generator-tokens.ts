import { useMemo } from 'react';
import type { TProxyToken } from '@proxy/contract';
import { useTokenLists } from '../../../entities/proxies/token-list';

/** The lists the generator offers: dynamic residential first, then static residential and data-center. */
const PICKER_LISTS = ['isp/dynamic', 'isp/static', 'idc/static'] as const;
/** The enabled proxies, as many as a list page holds. */
const PICKER_QUERY = { page: 1, page_size: 200, status: 'enabled' } as const;

/** The picker's tokens, dynamic and static; failures are not toasted per list (the page says it once). */
export function useGeneratorTokens() {
  const lists = useTokenLists(PICKER_LISTS, PICKER_QUERY, { skipTips: true });
  const data = useMemo<{ dynamic: TProxyToken[]; static: TProxyToken[] } | undefined>(
    () =>
      lists.pages
        ? { dynamic: lists.pages[0].records, static: [...lists.pages[1].records, ...lists.pages[2].records] }
        : undefined,
    [lists.pages],
  );
  return { data, isPending: lists.isPending, isError: lists.isError, isSuccess: data !== undefined };
}
