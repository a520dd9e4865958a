import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';

/** Query key of the built plugin's info (GET /plugin/info). */
export const PLUGIN_INFO_QUERY_KEY = ['plugin', 'info'] as const;

/** The built plugin's version, id and size. */
export function getPluginInfo(signal?: AbortSignal) {
  return callApi('pluginInfo', undefined, { signal });
}

/** Query options of the plugin info (the id rarely changes: kept a while). */
export function pluginInfoQueryOptions() {
  return queryOptions({
    queryKey: PLUGIN_INFO_QUERY_KEY,
    queryFn: ({ signal }) => getPluginInfo(signal),
    staleTime: 5 * 60_000,
  });
}

/** The built plugin's info. */
export function usePluginInfo() {
  return useQuery(pluginInfoQueryOptions());
}
