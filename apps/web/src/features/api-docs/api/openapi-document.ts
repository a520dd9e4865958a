import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, readBlobText } from '../../../lib/api-client';
import type { TOpenApiDocument } from '../utils/openapi';

/** The server's OpenAPI document (GET /openapi.json, a file route: the raw JSON, no envelope). */
export async function getOpenApiDocument(signal?: AbortSignal): Promise<TOpenApiDocument> {
  const blob = await callApi('openapi', undefined, { signal, skipTips: true });
  return JSON.parse(await readBlobText(blob as unknown as Blob)) as TOpenApiDocument;
}

/** Query options of the document; it changes only with a new server version. */
export function openApiQueryOptions() {
  return queryOptions({
    queryKey: ['api-docs', 'openapi'],
    queryFn: ({ signal }) => getOpenApiDocument(signal),
    staleTime: 10 * 60_000,
    retry: 1,
  });
}

/** The OpenAPI document. */
export function useOpenApiDocument() {
  return useQuery(openApiQueryOptions());
}
