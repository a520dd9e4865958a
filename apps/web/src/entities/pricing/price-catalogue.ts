import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';

/** Query key of the price catalogue (GET /token/prices). */
export const PRICE_CATALOGUE_QUERY_KEY = ['prices', 'catalogue'] as const;

/**
 * The price catalogue in fen, the numbers the server charges. Not toasted
 * when it fails: every screen falls back to the contract's list prices and
 * says so where it matters (the purchase form).
 */
export function getPriceCatalogue(signal?: AbortSignal) {
  return callApi('tokenPrices', undefined, { signal, skipTips: true });
}

/** Query options of the catalogue. */
export function priceCatalogueQueryOptions() {
  return queryOptions({
    queryKey: PRICE_CATALOGUE_QUERY_KEY,
    queryFn: ({ signal }) => getPriceCatalogue(signal),
    staleTime: 5 * 60_000,
  });
}

/** The price catalogue (undefined until it loads). */
export function usePriceCatalogue() {
  return useQuery(priceCatalogueQueryOptions());
}
