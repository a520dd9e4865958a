import { useMutation } from '@tanstack/react-query';
import type { TBuyIpBody, TBuyResult, TBuyTrafficBody } from '@proxy/contract';
import { refreshTokenLists } from '../../../entities/proxies/token-list';
import { refreshBalance } from '../../../entities/users/user-info';
import { callApi } from '../../../lib/api-client';
import type { TBilling, TScreenConfig } from '../utils/screens';

/** A purchase as the form sends it. */
export type TBuyRequest =
  | { billing: 'traffic'; body: Omit<TBuyTrafficBody, 'category'> }
  | { billing: 'ip'; body: Omit<TBuyIpBody, 'category'> };

/**
 * Buys proxies (POST /token/{static|variable}/{traffic|ip}) with the screen's
 * category. The Idempotency-Key makes a retried submission debit once.
 */
export function buyProxies(screen: TScreenConfig, request: TBuyRequest, idempotencyKey: string): Promise<TBuyResult> {
  const headers = { 'Idempotency-Key': idempotencyKey };
  const route = screen.buyRoutes[request.billing satisfies TBilling];
  const body = { ...request.body, category: screen.category };
  // The four calls share one body shape per billing; the route name picks product and billing.
  return callApi(route, body as never, { headers }) as Promise<TBuyResult>;
}

/** Mutation of the purchase form; lists and the balance reload after a purchase. */
export function useBuyProxies(screen: TScreenConfig) {
  return useMutation({
    mutationFn: ({ request, idempotencyKey }: { request: TBuyRequest; idempotencyKey: string }) =>
      buyProxies(screen, request, idempotencyKey),
    // Not awaited: the answer shows at once while list and balance reload.
    onSuccess: () => {
      void refreshTokenLists();
      void refreshBalance();
    },
  });
}
