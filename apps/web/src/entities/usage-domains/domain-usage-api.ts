import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { callApi, downloadBlob } from '../../lib/api-client';
import { translate } from '../../lib/i18n';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Periods the console offers, in UTC days (today included); the API takes at most 93. */
export const DOMAIN_USAGE_PERIODS = [7, 30, 90] as const;
/** One period. */
export type TDomainUsagePeriod = (typeof DOMAIN_USAGE_PERIODS)[number];

/** A domain usage query: one proxy (tokenId) or the whole account, over the last `days` UTC days. */
export type TDomainUsageScope = { tokenId?: number; days: TDomainUsagePeriod };

/** The last `days` UTC days up to today, both included (YYYY-MM-DD). */
export function utcPeriod(days: number, now = new Date()): { from: string; to: string } {
  const to = now.toISOString().slice(0, 10);
  const from = new Date(Date.parse(`${to}T00:00:00.000Z`) - (days - 1) * DAY_MS).toISOString().slice(0, 10);
  return { from, to };
}

function queryOf(scope: TDomainUsageScope) {
  return { ...(scope.tokenId === undefined ? {} : { token_id: scope.tokenId }), ...utcPeriod(scope.days) };
}

/** GET /token/session/domains: traffic by target domain of a proxy or the account. */
export function getDomainUsage(scope: TDomainUsageScope, signal?: AbortSignal) {
  // The card or section shows a failure in place.
  return callApi('tokenSessionDomains', queryOf(scope), { signal, skipTips: true });
}

/** The figures of a scope; kept a minute (the gateways add to today's rows with each usage batch). */
export function useDomainUsage(scope: TDomainUsageScope) {
  return useQuery(
    queryOptions({
      queryKey: ['usage-domains', scope.tokenId ?? 'account', scope.days],
      queryFn: ({ signal }) => getDomainUsage(scope, signal),
      placeholderData: keepPreviousData,
      staleTime: 60_000,
      retry: false,
    }),
  );
}

/** Downloads the same figures as CSV (GET /token/session/domains/export). */
export async function exportDomainUsage(scope: TDomainUsageScope): Promise<void> {
  const query = queryOf(scope);
  const blob = await callApi('tokenSessionDomainsExport', query, {
    failureMessage: translate('dashboard:domainUsage.exportFailed'),
  });
  const name = scope.tokenId === undefined ? 'account' : `proxy-${scope.tokenId}`;
  downloadBlob(blob as Blob, `domains-${name}-${query.from}-${query.to}-utc.csv`);
}

/** Mutation of the CSV button. */
export function useExportDomainUsage() {
  return useMutation({ mutationFn: exportDomainUsage });
}
