import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

/** Deliveries on a page of the log. */
export const DELIVERIES_PAGE_SIZE = 20;

/** Query key of an endpoint's delivery log. */
export const deliveriesQueryKey = (id: number, page: number) => ['webhooks', 'deliveries', id, page] as const;

/** A page of an endpoint's delivery log, newest first. */
export function useWebhookDeliveries(id: number | undefined, page: number) {
  return useQuery(
    queryOptions({
      queryKey: deliveriesQueryKey(id ?? 0, page),
      queryFn: ({ signal }) =>
        callApi(
          'webhookDeliveries',
          { id: id ?? 0, page, page_size: DELIVERIES_PAGE_SIZE },
          { signal, failureMessage: translate('webhooks:deliveries.loadFailed') },
        ),
      enabled: id !== undefined,
      staleTime: 0,
      retry: false,
      placeholderData: keepPreviousData,
    }),
  );
}

/** Delivers a delivery's event again (same event id). */
export function useResendDelivery() {
  return useMutation({
    mutationFn: (id: number) => callApi('webhookResend', { id }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['webhooks', 'deliveries'] }),
  });
}
