import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** The margin today and over the last 30 days (GET /admin/economics/summary), for the overview's glance. */
export function useEconomicsSummary() {
  return useQuery({
    queryKey: ['admin', 'overview', 'economics-summary'],
    queryFn: ({ signal }) =>
      callApi('adminEconomicsSummary', {}, { signal, failureMessage: translate('admin-overview:margin.failed') }),
  });
}
