import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** The price catalogue in fen (GET /token/prices): what the server charges now. */
export function getPriceCatalogue(signal?: AbortSignal) {
  return callApi('tokenPrices', undefined, { signal, skipTips: true });
}

/** Query options of the catalogue. */
export function priceCatalogueQueryOptions() {
  return queryOptions({ queryKey: ['dashboard', 'prices'], queryFn: ({ signal }) => getPriceCatalogue(signal), staleTime: 5 * 60_000 });
}

/** The catalogue shown in the price table (the contract's list prices until it loads). */
export function usePriceCatalogue() {
  return useQuery(priceCatalogueQueryOptions());
}
