import { useMutation } from '@tanstack/react-query';
import type { TIpList, TRouteRequest } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { IP_LISTS_QUERY_KEY } from './ip-list';

/** `ip` (entries separated by ";") and an optional remark. */
export type TAddIpEntriesInput = TRouteRequest<'userWhitelistAdd'>;

/** Adds entries to a list, all or nothing; answers the created entries. */
export function addIpEntries(list: TIpList, input: TAddIpEntriesInput) {
  return list === 'whitelist' ? callApi('userWhitelistAdd', input) : callApi('userBlacklistAdd', input);
}

/** Mutation of a list's add form; the list reloads afterwards. */
export function useAddIpEntries(list: TIpList) {
  return useMutation({
    mutationFn: (input: TAddIpEntriesInput) => addIpEntries(list, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...IP_LISTS_QUERY_KEY, list] }),
  });
}
