import type { TPriceKind, TProxyCategory, TProxyList, TRouteName } from '@proxy/contract';

/** The three proxy screens (spec section 2). */
export type TScreenKey = 'dynamic' | 'static' | 'idc';
/** How a product is billed. */
export type TBilling = 'traffic' | 'ip';

/** Everything that differs between the three screens: product, category, lists and the calls they use. */
export type TScreenConfig = {
  key: TScreenKey;
  /** Residential ISP or data-center (the area lists' `category`). */
  category: TProxyCategory;
  /** Static or dynamic; fixed by the screen (data-center is static only). */
  product: 'static' | 'dynamic';
  /** Price family of the contract's price functions. */
  priceKind: TPriceKind;
  /** Lists the screen can show: every product of the screen, then by billing when the API has such a list. */
  lists: { all: TProxyList; traffic?: TProxyList; ip?: TProxyList };
  /** Purchase calls by billing. */
  buyRoutes: Record<TBilling, Extract<TRouteName, `tokenCreate${string}`>>;
  renewRoute: 'tokenIpRenew' | 'tokenVariableIpRenew';
  autoRenewRoute: 'tokenIpAutoRenew' | 'tokenVariableIpAutoRenew';
};

const STATIC_CALLS = {
  buyRoutes: { traffic: 'tokenCreateStaticTraffic', ip: 'tokenCreateStaticIp' },
  renewRoute: 'tokenIpRenew',
  autoRenewRoute: 'tokenIpAutoRenew',
} as const;

/** Configuration of each screen: /proxy/isp/variable, /proxy/isp/static and /proxy/idc/list. */
export const SCREENS: Record<TScreenKey, TScreenConfig> = {
  dynamic: {
    key: 'dynamic',
    category: 'isp',
    product: 'dynamic',
    priceKind: 'dynamic',
    lists: { all: 'isp/dynamic', traffic: 'variable/traffic', ip: 'variable/ip' },
    buyRoutes: { traffic: 'tokenCreateVariableTraffic', ip: 'tokenCreateVariableIp' },
    renewRoute: 'tokenVariableIpRenew',
    autoRenewRoute: 'tokenVariableIpAutoRenew',
  },
  static: {
    key: 'static',
    category: 'isp',
    product: 'static',
    priceKind: 'static',
    lists: { all: 'isp/static', traffic: 'static/traffic', ip: 'static/ip' },
    ...STATIC_CALLS,
  },
  idc: {
    key: 'idc',
    category: 'idc',
    product: 'static',
    priceKind: 'idc',
    lists: { all: 'idc/static' },
    ...STATIC_CALLS,
  },
};
