import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Windows the overview offers, in days. */
export const OVERVIEW_WINDOWS = [7, 30, 90] as const;
/** A window of the overview. */
export type TOverviewWindow = (typeof OVERVIEW_WINDOWS)[number];

/** The operator overview of the last `days` days (GET /admin/overview). */
export function useAdminOverview(days: TOverviewWindow) {
  return useQuery({
    queryKey: ['admin', 'overview', days],
    queryFn: ({ signal }) =>
      callApi('adminOverview', { days }, { signal, failureMessage: translate('admin-overview:errors.load') }),
    placeholderData: keepPreviousData,
  });
}
