import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { useIsSignedIn } from '../../lib/session';

/** Query key of the operator's notice (GET /site/notice). */
export const SITE_NOTICE_QUERY_KEY = ['site', 'notice'] as const;

/** The notice published last, in the interface language (null when none). */
export function getSiteNotice(signal?: AbortSignal) {
  return callApi('siteNotice', undefined, { signal, skipTips: true });
}

/** Query options of the notice. */
export function siteNoticeQueryOptions() {
  return queryOptions({
    queryKey: SITE_NOTICE_QUERY_KEY,
    queryFn: ({ signal }) => getSiteNotice(signal),
    staleTime: 60_000,
    retry: false,
  });
}

/** The notice; does not run while signed out. */
export function useSiteNotice() {
  const isSignedIn = useIsSignedIn();
  return useQuery({ ...siteNoticeQueryOptions(), enabled: isSignedIn });
}
