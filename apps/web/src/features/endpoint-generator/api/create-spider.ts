import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TRouteRequest } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { SPIDER_RECORDS_KEY } from './spider-records';

/** Builds an endpoint file on the server (POST /token/create/spider); the page shows "endpoint generation failed" itself. */
export function createSpider(body: TRouteRequest<'tokenCreateSpider'>) {
  return callApi('tokenCreateSpider', body, { skipTips: true });
}

/** Mutation of the "Generate file" button; refreshes the history. */
export function useCreateSpider() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createSpider,
    onSuccess: () => client.invalidateQueries({ queryKey: SPIDER_RECORDS_KEY }),
  });
}
