import { useMemo } from 'react';
import type { TProxyToken } from '@proxy/contract';
import { useTokenLists } from '../../../entities/proxies/token-list';

const LISTS = ['isp/dynamic', 'isp/static', 'idc/static'] as const;
const QUERY = { page: 1, page_size: 200, status: 'enabled' } as const;

/** The user's enabled HTTP proxies, the ones the plugin can take. */
export function usePluginProxies() {
  const lists = useTokenLists(LISTS, QUERY, { skipTips: true });
  const data = useMemo<TProxyToken[] | undefined>(
    () => lists.pages?.flatMap((page) => page.records).filter((token) => token.network === 'HTTP'),
    [lists.pages],
  );
  return { data, isPending: lists.isPending, isError: lists.isError };
}
