import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { TRouteRequest } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

/** Query key of the user's two-factor state (GET /user/totp). */
export const TOTP_STATUS_QUERY_KEY = ['users', 'totp'] as const;

/** Query options of the two-factor state. */
export function totpStatusQueryOptions() {
  return queryOptions({
    queryKey: TOTP_STATUS_QUERY_KEY,
    queryFn: ({ signal }) =>
      callApi('userTotpStatus', undefined, { signal, failureMessage: translate('users:totp.loadFailed') }),
    staleTime: 0,
    retry: false,
  });
}

/** The two-factor state of the user centre's card. */
export function useTotpStatus() {
  return useQuery(totpStatusQueryOptions());
}

const refreshStatus = () => queryClient.invalidateQueries({ queryKey: TOTP_STATUS_QUERY_KEY });

/** Starts enrolment: a new secret (QR code and text). */
export function useTotpSetup() {
  return useMutation({ mutationFn: () => callApi('userTotpSetup', undefined) });
}

/** Confirms enrolment with a current code; answers the recovery codes. */
export function useTotpEnable() {
  return useMutation({
    mutationFn: (input: TRouteRequest<'userTotpEnable'>) => callApi('userTotpEnable', input),
    onSuccess: refreshStatus,
  });
}

/** Turns two-factor off with a current code or a recovery code. */
export function useTotpDisable() {
  return useMutation({
    mutationFn: (input: TRouteRequest<'userTotpDisable'>) => callApi('userTotpDisable', input),
    onSuccess: refreshStatus,
  });
}

/** New recovery codes with a current code. */
export function useTotpRegenerate() {
  return useMutation({
    mutationFn: (input: TRouteRequest<'userTotpRecoveryCodes'>) => callApi('userTotpRecoveryCodes', input),
    onSuccess: refreshStatus,
  });
}
