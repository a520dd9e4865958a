import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { getLanguage } from '../../../lib/i18n';

/** The terms of service in the interface language (GET /site/terms). */
export function getTerms(signal?: AbortSignal) {
  return callApi('siteTerms', undefined, { signal, skipTips: true });
}

/** The terms, per language (the Lang header picks the text). */
export function useTerms() {
  const lang = getLanguage();
  return useQuery(queryOptions({ queryKey: ['terms', lang], queryFn: ({ signal }) => getTerms(signal) }));
}
