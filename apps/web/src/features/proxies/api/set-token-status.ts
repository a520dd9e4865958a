import { useMutation } from '@tanstack/react-query';
import { refreshTokenLists } from '../../../entities/proxies/token-list';
import { callApi } from '../../../lib/api-client';

/** Enables or disables a proxy (PUT /token/{id}). */
export function setTokenStatus(id: number, status: 'enabled' | 'disabled') {
  return callApi('tokenSetStatus', { id, status });
}

/** Mutation of the enable/disable action; the lists reload afterwards. */
export function useSetTokenStatus() {
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: 'enabled' | 'disabled' }) => setTokenStatus(id, status),
    onSettled: refreshTokenLists,
  });
}
