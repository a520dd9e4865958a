import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { browserTzOffsetMinutes } from '../utils/time-zone';
import type { TPeriodDays } from './statistics-amount';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The window of the last `days` days ending now: from local midnight `days - 1` days ago. */
export function trafficWindow(days: number, now = new Date()): { from: Date; to: Date } {
  const from = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  from.setTime(from.getTime() - (days - 1) * DAY_MS);
  return { from, to: now };
}

/** Traffic of all the user's proxies per day (GET /token/session/traffic, granularity day). */
export function getSessionTraffic(days: TPeriodDays, signal?: AbortSignal) {
  const { from, to } = trafficWindow(days);
  return callApi(
    'tokenSessionTraffic',
    { from: from.toISOString(), to: to.toISOString(), granularity: 'day', tz_offset_minutes: browserTzOffsetMinutes() },
    { signal, skipTips: true },
  );
}

/** Query options of the traffic series. */
export function sessionTrafficQueryOptions(days: TPeriodDays) {
  return queryOptions({
    queryKey: ['dashboard', 'traffic', days],
    queryFn: ({ signal }) => getSessionTraffic(days, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
  });
}

/** The traffic series. */
export function useSessionTraffic(days: TPeriodDays) {
  return useQuery(sessionTrafficQueryOptions(days));
}
