import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** The desktop software's releases (GET /tools/software/list). */
export function getSoftwareList(signal?: AbortSignal) {
  return callApi('softwareList', undefined, { signal, skipTips: true });
}

/** Query options of the releases. */
export function softwareListQueryOptions() {
  return queryOptions({
    queryKey: ['software', 'list'],
    queryFn: ({ signal }) => getSoftwareList(signal),
    retry: false,
  });
}

/** The releases; the page shows a failure in place. */
export function useSoftwareList() {
  return useQuery(softwareListQueryOptions());
}
