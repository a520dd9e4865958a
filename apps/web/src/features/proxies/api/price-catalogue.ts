import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** The price catalogue in fen (GET /token/prices), the numbers the server charges. */
export function getPriceCatalogue(signal?: AbortSignal) {
  return callApi('tokenPrices', undefined, { signal });
}

/** Query options of the catalogue. */
export function priceCatalogueQueryOptions() {
  return queryOptions({ queryKey: ['proxies', 'prices'], queryFn: ({ signal }) => getPriceCatalogue(signal), staleTime: 5 * 60_000 });
}

/** The catalogue of the price preview. */
export function usePriceCatalogue() {
  return useQuery(priceCatalogueQueryOptions());
}
