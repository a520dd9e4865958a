import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { IP_LISTS_QUERY_KEY } from './ip-list';

/** Removes an entry from either list. */
export function removeIpEntry(id: number) {
  return callApi('userIpRemove', { id });
}

/** Mutation of the delete buttons; both lists reload afterwards. */
export function useRemoveIpEntry() {
  return useMutation({
    mutationFn: removeIpEntry,
    onSettled: () => queryClient.invalidateQueries({ queryKey: IP_LISTS_QUERY_KEY }),
  });
}
