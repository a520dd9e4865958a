import { useMutation } from '@tanstack/react-query';
import type { TRouteRequest } from '@proxy/contract';
import { refreshBalance } from '../../../entities/users/user-info';
import { callApi } from '../../../lib/api-client';
import { refreshSupply } from './supply-list';

/** What the form submits. */
export type TSupplyCreateRequest = TRouteRequest<'supplyCreate'>;

/** Submits a request (POST /token/supply); the fee is frozen. The Idempotency-Key makes a retried submission freeze once. */
export function createSupply(body: TSupplyCreateRequest, idempotencyKey: string) {
  return callApi('supplyCreate', body, { headers: { 'Idempotency-Key': idempotencyKey } });
}

/** Mutation of the form; the history and the balance reload after it. */
export function useCreateSupply() {
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: TSupplyCreateRequest; idempotencyKey: string }) =>
      createSupply(body, idempotencyKey),
    onSuccess: () => {
      void refreshSupply();
      void refreshBalance();
    },
  });
}
