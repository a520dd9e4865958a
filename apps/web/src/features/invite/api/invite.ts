import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TRebateStatus } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Root key of every invite query. */
export const INVITE_QUERY_KEY = ['invite'] as const;

/** My code, link, inviter, totals and rate (GET /invite/info). */
export function useInviteInfo() {
  return useQuery({
    queryKey: [...INVITE_QUERY_KEY, 'info'],
    queryFn: ({ signal }) =>
      callApi('inviteInfo', undefined, { signal, failureMessage: translate('invite:errors.fetchInfo') }),
  });
}

/** The rules in force (GET /invite/rebate/config). */
export function useRebateConfig() {
  return useQuery({
    queryKey: [...INVITE_QUERY_KEY, 'config'],
    queryFn: ({ signal }) =>
      callApi('inviteRebateConfig', undefined, { signal, failureMessage: translate('invite:errors.fetchConfig') }),
  });
}

/** One page of the accounts I invited (GET /invite/records). */
export function useInviteRecords(query: { page: number; page_size: number }) {
  return useQuery(
    queryOptions({
      queryKey: [...INVITE_QUERY_KEY, 'records', query],
      queryFn: ({ signal }) =>
        callApi('inviteRecords', query, { signal, failureMessage: translate('invite:errors.fetchRecords') }),
      placeholderData: keepPreviousData,
    }),
  );
}

/** One page of my rebates, optionally in one state (GET /invite/rebate/records). */
export function useRebateRecords(query: { page: number; page_size: number; status?: TRebateStatus }) {
  return useQuery(
    queryOptions({
      queryKey: [...INVITE_QUERY_KEY, 'rebates', query],
      queryFn: ({ signal }) =>
        callApi('inviteRebateRecords', query.status ? query : { page: query.page, page_size: query.page_size }, {
          signal,
          failureMessage: translate('invite:errors.fetchRebates'),
        }),
      placeholderData: keepPreviousData,
    }),
  );
}
