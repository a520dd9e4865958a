import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TProxyToken } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';

/** Most tokens offered in the picker (the lists' page limit). */
const PICKER_PAGE_SIZE = 200;

/** The enabled tokens the generator can use: dynamic (GET /token/list/isp/dynamic) and static (residential and data-center). */
export async function listGeneratorTokens(signal?: AbortSignal): Promise<{ dynamic: TProxyToken[]; static: TProxyToken[] }> {
  const query = { page: 1, page_size: PICKER_PAGE_SIZE, status: 'enabled' as const };
  const [dynamic, ispStatic, idcStatic] = await Promise.all([
    callApi('tokenListIspDynamic', query, { signal }),
    callApi('tokenListIspStatic', query, { signal }),
    callApi('tokenListIdcStatic', query, { signal }),
  ]);
  return { dynamic: dynamic.records, static: [...ispStatic.records, ...idcStatic.records] };
}

/** Query options of the picker's tokens. */
export function generatorTokensQueryOptions() {
  return queryOptions({ queryKey: ['endpoint-generator', 'tokens'], queryFn: ({ signal }) => listGeneratorTokens(signal), staleTime: 30_000 });
}

/** The picker's tokens. */
export function useGeneratorTokens() {
  return useQuery(generatorTokensQueryOptions());
}
