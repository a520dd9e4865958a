import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { browserTzOffsetMinutes } from '../utils/time-zone';

/** Periods offered by the charts. */
export type TPeriodDays = 7 | 30 | 90;

/** Spend and recharge per day in yuan over the last `days` days, in the browser's time zone (GET /user/statistics/amount). */
export function getStatisticsAmount(days: TPeriodDays, signal?: AbortSignal) {
  return callApi(
    'userStatisticsAmount',
    { days, tz_offset_minutes: browserTzOffsetMinutes() },
    { signal, skipTips: true },
  );
}

/** Query options of the spend series. */
export function statisticsAmountQueryOptions(days: TPeriodDays) {
  return queryOptions({
    queryKey: ['dashboard', 'spend', days],
    queryFn: ({ signal }) => getStatisticsAmount(days, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
  });
}

/** The spend series. */
export function useStatisticsAmount(days: TPeriodDays) {
  return useQuery(statisticsAmountQueryOptions(days));
}
