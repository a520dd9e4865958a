import { useMemo } from 'react';
import { useQueries } from '@tanstack/react-query';
import { useAreaCountries } from '../../../entities/areas/area-countries';
import { tokenListQueryOptions } from '../../../entities/proxies/token-list';
import type { TExampleValues } from '../utils/openapi';

/** Where an example proxy is looked for: a dynamic one first. */
const EXAMPLE_LISTS = ['isp/dynamic', 'isp/static', 'idc/static'] as const;
const ONE_ENABLED = { page: 1, page_size: 1, status: 'enabled' } as const;

/**
 * Real values for the curl examples, so they work as shown: one of the
 * user's usable proxies (a dynamic one first) and a country with inventory.
 * Empty until the lists have answered; a list that fails just leaves its
 * value out, and nothing is toasted.
 */
export function useExampleValues(): TExampleValues {
  const pages = useQueries({
    queries: EXAMPLE_LISTS.map((list) => tokenListQueryOptions(list, ONE_ENABLED, { skipTips: true })),
  });
  const countries = useAreaCountries('isp', { skipTips: true });
  const isSettled = pages.every((page) => !page.isPending) && !countries.isPending;
  const proxy = pages.map((page) => page.data?.records[0]).find((record) => record !== undefined);
  const countryId = countries.data?.[0]?.id;
  return useMemo<TExampleValues>(
    () =>
      isSettled
        ? {
            proxyId: proxy?.token_id,
            countryId: countryId ?? proxy?.area.country ?? 'us',
            ip: '8.8.8.8',
            limit: 10,
            format: 'text',
          }
        : {},
    [isSettled, proxy, countryId],
  );
}
