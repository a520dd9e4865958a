import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { TWebhookCreateBody, TWebhookUpdateBody } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

/** Query key of the endpoint list (GET /user/webhooks). */
export const WEBHOOKS_QUERY_KEY = ['webhooks'] as const;

/** The user's webhook endpoints. */
export function getWebhooks(signal?: AbortSignal) {
  return callApi('webhookList', undefined, { signal, failureMessage: translate('webhooks:loadFailed') });
}

/** The endpoint list of the page. */
export function useWebhooks() {
  return useQuery(
    queryOptions({
      queryKey: WEBHOOKS_QUERY_KEY,
      queryFn: ({ signal }) => getWebhooks(signal),
      staleTime: 0,
      retry: false,
    }),
  );
}

const reload = () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_QUERY_KEY });

/** Registers an endpoint; the answer carries its secret (shown once). */
export function useCreateWebhook() {
  return useMutation({ mutationFn: (body: TWebhookCreateBody) => callApi('webhookCreate', body), onSettled: reload });
}

/** Changes an endpoint (URL, description, events, on/off). */
export function useUpdateWebhook() {
  return useMutation({ mutationFn: (body: TWebhookUpdateBody) => callApi('webhookUpdate', body), onSettled: reload });
}

/** Removes an endpoint. */
export function useDeleteWebhook() {
  return useMutation({ mutationFn: (id: number) => callApi('webhookDelete', { id }), onSettled: reload });
}

/** Replaces an endpoint's secret; the answer carries the new one (shown once). */
export function useRotateWebhookSecret() {
  return useMutation({ mutationFn: (id: number) => callApi('webhookRotateSecret', { id }), onSettled: reload });
}

/** Sends a signed ping to the endpoint now; answers its delivery. */
export function useTestWebhook() {
  return useMutation({
    mutationFn: (id: number) => callApi('webhookTest', { id }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['webhooks'] }),
  });
}
