import { queryOptions, useQuery } from '@tanstack/react-query';
import { TRAFFIC_POINTS_MAX } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Bytes of a proxy metered but not charged since it was bought (GET /token/session/traffic by day, its total beside
 * the charged one): no more days than one traffic query answers.
 */
export async function getTokenUncharged(tokenId: number, createdAt: string, signal?: AbortSignal): Promise<number> {
  const now = Date.now();
  const from = Math.max(Date.parse(createdAt) || now, now - (TRAFFIC_POINTS_MAX - 2) * DAY_MS);
  const traffic = await callApi(
    'tokenSessionTraffic',
    { token_id: tokenId, from: new Date(from).toISOString(), granularity: 'day' },
    { signal, skipTips: true },
  );
  return traffic.total_uncharged_bytes;
}

/** The detail drawer's "not charged" figure of a proxy. */
export function useTokenUncharged(tokenId: number, createdAt: string) {
  return useQuery(
    queryOptions({
      queryKey: ['proxies', 'uncharged', tokenId, createdAt],
      queryFn: ({ signal }) => getTokenUncharged(tokenId, createdAt, signal),
      staleTime: 60_000,
      retry: false,
    }),
  );
}
