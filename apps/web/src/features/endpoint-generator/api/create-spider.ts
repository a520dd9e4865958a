import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TRouteRequest } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { SPIDER_RECORDS_KEY } from './spider-records';

/** Builds an endpoint file on the server (POST /token/create/spider); failures say "endpoint generation failed" with the reason. */
export function createSpider(body: TRouteRequest<'tokenCreateSpider'>) {
  return callApi('tokenCreateSpider', body, { failureMessage: translate('endpoint-generator:errors.generate') });
}

/** Mutation of the "Generate file" button; refreshes the history. */
export function useCreateSpider() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createSpider,
    onSuccess: () => client.invalidateQueries({ queryKey: SPIDER_RECORDS_KEY }),
  });
}
