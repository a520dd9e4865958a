import { useMemo } from 'react';
import { Form, type FormInstance } from 'antd';
import { usePriceCatalogue } from '../../../entities/pricing/price-catalogue';
import { useUserInfo } from '../../../entities/users/user-info';
import { previewPrice, yuanNumberToFen } from '../utils/price-preview';
import type { TScreenConfig } from '../utils/screens';
import { INITIAL_PURCHASE, type TPurchaseValues } from './use-purchase';

/**
 * The live price of the purchase form, from the server's catalogue and the
 * contract's price functions, with the balance and whether it is enough.
 */
export function usePriceQuote(screen: TScreenConfig, form: FormInstance<TPurchaseValues>) {
  const catalogue = usePriceCatalogue();
  const userInfo = useUserInfo();
  const billing = Form.useWatch('billing', form) ?? INITIAL_PURCHASE.billing;
  const quantity = Form.useWatch('quantity', form);
  const trafficGb = Form.useWatch('traffic_gb', form);
  const days = Form.useWatch('days', form);

  const preview = useMemo(() => {
    // Until the catalogue arrives there is no price to show; if it fails, the contract's list prices stand in.
    if (catalogue.isPending) return null;
    try {
      return previewPrice(screen.priceKind, { billing, quantity, trafficGb, days }, catalogue.data);
    } catch {
      return null;
    }
  }, [screen.priceKind, billing, quantity, trafficGb, days, catalogue.data, catalogue.isPending]);
  const balanceFen = userInfo.data ? yuanNumberToFen(userInfo.data.balance) : undefined;

  return {
    billing,
    quantity,
    preview,
    balanceFen,
    isShort: preview !== null && balanceFen !== undefined && preview.totalFen > balanceFen,
    isLoadingPrices: catalogue.isPending,
    hasCatalogueFailed: catalogue.isError,
  };
}

/** What the quote hook gives the form. */
export type TPriceQuote = ReturnType<typeof usePriceQuote>;
