import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TBuyResult, TProxyNetwork } from '@proxy/contract';
import { showSuccess } from '../../../lib/message';
import { useBuyProxies, type TBuyRequest } from '../api/buy-proxies';
import { createIdempotencyKey } from '../../../lib/idempotency-key';
import type { TBilling, TScreenConfig } from '../utils/screens';

/** Fields of the purchase form. */
export type TPurchaseValues = {
  billing: TBilling;
  country_id?: string;
  state_id?: string;
  city_id?: string;
  network: TProxyNetwork;
  quantity: number | null;
  traffic_gb: number | null;
  days: number | null;
  auto_renew: boolean;
  remark?: string;
};

/** A fresh purchase form: one HTTP proxy by IP for one day. */
export const INITIAL_PURCHASE: TPurchaseValues = {
  billing: 'ip',
  network: 'HTTP',
  quantity: 1,
  traffic_gb: 1,
  days: 1,
  auto_renew: false,
};

/** The request the form values make (undefined parts left out). */
function toRequest(values: TPurchaseValues): TBuyRequest {
  const common = {
    network: values.network,
    country_id: values.country_id ?? '',
    state_id: values.state_id || undefined,
    city_id: values.city_id || undefined,
    quantity: values.quantity ?? 0,
    remark: values.remark?.trim() || undefined,
  };
  return values.billing === 'traffic'
    ? { billing: 'traffic', body: { ...common, traffic_gb: values.traffic_gb ?? 0 } }
    : { billing: 'ip', body: { ...common, days: values.days ?? 0, auto_renew: values.auto_renew } };
}

/**
 * Submitting a purchase and its answer. One Idempotency-Key per submission:
 * a retry of the same request (e.g. after a network error) reuses it, so it
 * debits once; a changed request or "buy more" gets a new one.
 */
export function usePurchase(screen: TScreenConfig) {
  const { t } = useTranslation('proxies');
  const buy = useBuyProxies(screen);
  const [result, setResult] = useState<TBuyResult | null>(null);
  const pending = useRef<{ key: string; body: string } | null>(null);

  const submit = async (values: TPurchaseValues) => {
    const request = toRequest(values);
    const body = JSON.stringify(request);
    if (pending.current?.body !== body) pending.current = { key: createIdempotencyKey(), body };
    try {
      const answer = await buy.mutateAsync({ request, idempotencyKey: pending.current.key });
      pending.current = null;
      setResult(answer);
      showSuccess(t('buy.success', { count: answer.tokens.length }));
    } catch {
      // The request layer has shown the reason (no stock, insufficient balance...); the key stays for a retry.
    }
  };

  return {
    /** The created proxies, once bought. */
    result,
    isBuying: buy.isPending,
    submit,
    /** Back to the form for another purchase. */
    startOver: () => {
      setResult(null);
      pending.current = null;
    },
    /** Forgets the shown answer (the drawer closes). */
    clearResult: () => setResult(null),
  };
}
