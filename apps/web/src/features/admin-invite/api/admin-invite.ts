import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { TRebateConfigInput, TRebateStatus } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

/** Root key of the operators' rebate queries. */
const ADMIN_INVITE_QUERY_KEY = ['admin', 'invite'] as const;

/** One page of the versions of the rebate rules, newest first. */
export function useRebateConfigVersions(query: { page: number; page_size: number }) {
  return useQuery({
    queryKey: [...ADMIN_INVITE_QUERY_KEY, 'versions', query],
    queryFn: ({ signal }) =>
      callApi('inviteAdminRebateConfigList', query, {
        signal,
        failureMessage: translate('admin-invite:errors.fetchVersions'),
      }),
    placeholderData: keepPreviousData,
  });
}

/** A new version of the rules, effective from now; the lists reload. */
export function useUpdateRebateConfig() {
  return useMutation({
    mutationFn: (input: TRebateConfigInput) =>
      callApi('inviteAdminRebateConfigUpdate', input, { failureMessage: translate('admin-invite:errors.save') }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ADMIN_INVITE_QUERY_KEY }),
  });
}

/** One page of every rebate, optionally in one state. */
export function useAllRebates(query: { page: number; page_size: number; status?: TRebateStatus }) {
  return useQuery({
    queryKey: [...ADMIN_INVITE_QUERY_KEY, 'rebates', query],
    queryFn: ({ signal }) =>
      callApi('inviteAdminRebateList', query.status ? query : { page: query.page, page_size: query.page_size }, {
        signal,
        failureMessage: translate('admin-invite:errors.fetchRebates'),
      }),
    placeholderData: keepPreviousData,
  });
}
