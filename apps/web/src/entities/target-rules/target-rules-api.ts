import { useMutation, useQuery } from '@tanstack/react-query';
import type { TTargetRuleMode } from '@proxy/contract';
import { callApi } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';

/** Query keys of target rules: the account's list, and a proxy's lists. */
export const TARGET_RULES_QUERY_KEY = ['target-rules'] as const;
const accountKey = [...TARGET_RULES_QUERY_KEY, 'account'] as const;
const tokenKey = (tokenId: number) => [...TARGET_RULES_QUERY_KEY, 'token', tokenId] as const;

/** A list to save: its mode and the textarea's lines (the server skips blank ones). */
export type TTargetRulesInput = { mode: TTargetRuleMode; rules: string[] };

/** The account's list (null when none is set). */
export function useAccountTargetRules() {
  return useQuery({ queryKey: accountKey, queryFn: ({ signal }) => callApi('userTargetRules', undefined, { signal }) });
}

/** A proxy's own list, the account's, and which applies. */
export function useTokenTargetRules(tokenId: number) {
  return useQuery({
    queryKey: tokenKey(tokenId),
    queryFn: ({ signal }) => callApi('tokenTargetRules', { token_id: tokenId }, { signal }),
  });
}

// Any change may change what applies to every proxy: reload all target rules.
const reload = () => queryClient.invalidateQueries({ queryKey: TARGET_RULES_QUERY_KEY });

/** Sets or removes the account's list. */
export function useSaveAccountTargetRules() {
  return useMutation({
    mutationFn: (input: TTargetRulesInput | null) =>
      input ? callApi('userTargetRulesSet', input) : callApi('userTargetRulesRemove'),
    onSuccess: reload,
  });
}

/** Sets or removes a proxy's own list. */
export function useSaveTokenTargetRules(tokenId: number) {
  return useMutation({
    mutationFn: (input: TTargetRulesInput | null) =>
      input
        ? callApi('tokenTargetRulesSet', { token_id: tokenId, ...input })
        : callApi('tokenTargetRulesRemove', { token_id: tokenId }),
    onSuccess: reload,
  });
}
