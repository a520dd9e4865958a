import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Query key prefix of the endpoint file history. */
export const SPIDER_RECORDS_KEY = ['endpoint-generator', 'records'] as const;

/** A page of endpoint files, newest first (GET /token/spider/records). */
export function listSpiderRecords(page: number, pageSize: number, signal?: AbortSignal) {
  return callApi(
    'tokenSpiderRecords',
    { page, page_size: pageSize },
    { signal, failureMessage: translate('endpoint-generator:errors.records') },
  );
}

/** Query options of one page of the history. */
export function spiderRecordsQueryOptions(page: number, pageSize: number) {
  return queryOptions({
    queryKey: [...SPIDER_RECORDS_KEY, page, pageSize],
    queryFn: ({ signal }) => listSpiderRecords(page, pageSize, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** One page of the history. */
export function useSpiderRecords(page: number, pageSize: number) {
  return useQuery(spiderRecordsQueryOptions(page, pageSize));
}
