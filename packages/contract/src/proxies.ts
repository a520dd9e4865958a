import { z } from 'zod';
import { ZBatchResult, ZPageQuery, zPage } from './envelope';
import { TRAFFIC_MIN_GB } from './pricing-rules';
import {
  EXPORT_LINE_FORMATS,
  PROXY_BATCH_MAX,
  PROXY_CATEGORIES,
  PROXY_LISTS,
  PROXY_NETWORKS,
  PROXY_QUANTITY_MAX,
  PROXY_REMARK_MAX,
  PROXY_STATUSES,
  PROXY_TRAFFIC_MAX_GB,
  ZProxyToken,
  ZTokenBatchBody,
  ZTokenRemarkBody,
  ZTokenStatusBody,
  zProxyDays,
} from './proxies-tokens';
import {
  ZAutoRenewal,
  ZAutoRenewBody,
  ZAutoRenewUndoResult,
  ZPayway,
  ZRenewalCancelBody,
  ZRenewalCancelInfo,
  ZRenewalCancelResult,
  ZRenewBody,
  ZRenewPreview,
  ZRenewPreviewBody,
  ZRenewResult,
} from './proxies-renewals';
import { zCountryId } from './areas';
import { defineRoute, type TRouteDef } from './route-def';
import { zId, zIdParam, zJsonNumber, zQueryDate } from './validators';

/**
 * The proxy products' calls (spec sections 3 and 7, ARCHITECTURE.md Proxies):
 * purchase, the seven lists, switches, batch calls, renewals, remark and
 * export. What a token is lives in proxies-tokens.ts, renewals in
 * proxies-renewals.ts.
 */

const zAreaCode = z
  .string({ error: 'required' })
  .trim()
  .toLowerCase()
  .max(64, { error: 'tooLong' })
  .regex(/^[a-z0-9_]*$/, { error: 'invalidValue' });

// JSON bodies take JSON booleans.
const zBool = z.boolean({ error: 'booleanRequired' });

const purchaseBase = {
  category: z.enum(PROXY_CATEGORIES, { error: 'invalidValue' }).default('isp'),
  network: z.enum(PROXY_NETWORKS, { error: 'invalidValue' }),
  country_id: zCountryId,
  state_id: zAreaCode.optional(),
  city_id: zAreaCode.optional(),
  quantity: zJsonNumber('quantityRange')
    .int({ error: 'quantityRange' })
    .min(1, { error: 'quantityRange' })
    .max(PROXY_QUANTITY_MAX, { error: 'quantityRange' }),
  auto_renew: zBool.optional(),
  remark: z.string().trim().max(PROXY_REMARK_MAX, { error: 'tooLong' }).optional(),
};

/** GB of traffic: from 0.1, at most one decimal. */
export const zTrafficGb = zJsonNumber('trafficRange')
  .min(TRAFFIC_MIN_GB, { error: 'trafficRange' })
  .max(PROXY_TRAFFIC_MAX_GB, { error: 'trafficRange' })
  .refine((gb) => Math.abs(gb * 10 - Math.round(gb * 10)) < 1e-9, { error: 'trafficDecimals' });

/** Body of POST /token/static/traffic and /token/variable/traffic. */
export const ZBuyTrafficBody = z.object({ ...purchaseBase, traffic_gb: zTrafficGb });
/** Parsed traffic purchase. */
export type TBuyTrafficBody = z.infer<typeof ZBuyTrafficBody>;
/** Body of POST /token/static/ip and /token/variable/ip. */
export const ZBuyIpBody = z.object({ ...purchaseBase, days: zProxyDays });
/** Parsed IP purchase. */
export type TBuyIpBody = z.infer<typeof ZBuyIpBody>;

/** Answer of a purchase: the tokens, the cost and the balance after it (yuan). */
export const ZBuyResult = z.object({
  tokens: z.array(ZProxyToken),
  cost: z.number(),
  balance: z.number(),
  order_id: z.number().int(),
});
/** Parsed purchase answer. */
export type TBuyResult = z.infer<typeof ZBuyResult>;

const zDateParam = zQueryDate.optional();

/** Filters of the seven lists (and the export). */
export const ZProxyListQuery = ZPageQuery.extend({
  status: z.enum(PROXY_STATUSES, { error: 'invalidValue' }).optional(),
  country: zAreaCode.optional(),
  /** Matches the remark or the username. */
  keyword: z.string().trim().max(100, { error: 'tooLong' }).optional(),
  created_from: zDateParam,
  created_to: zDateParam,
  expires_from: zDateParam,
  expires_to: zDateParam,
});
/** Parsed list filters. */
export type TProxyListQuery = z.infer<typeof ZProxyListQuery>;
/** A page of tokens. */
export const ZProxyTokenPage = zPage(ZProxyToken);

/** Query of GET /token/export: ids or the list filters, a file format and a line format. */
export const ZExportQuery = ZProxyListQuery.omit({ page: true, page_size: true }).extend({
  token_ids: z
    .string()
    .trim()
    // Ids in canonical digits (safe integers), comma separated, at most a batch.
    .regex(/^[1-9]\d{0,14}(,[1-9]\d{0,14})*$/, { error: 'invalidValue' })
    .transform((v) => v.split(',').map(Number))
    .refine((ids) => ids.length <= PROXY_BATCH_MAX, { error: 'tooMany' })
    .optional(),
  list: z.enum(PROXY_LISTS, { error: 'invalidValue' }).optional(),
  format: z.enum(['txt', 'csv'], { error: 'invalidValue' }).default('txt'),
  line: z.enum(EXPORT_LINE_FORMATS, { error: 'invalidValue' }).default('hpup'),
});
/** Parsed export query. */
export type TExportQuery = z.infer<typeof ZExportQuery>;

/** The /token calls of proxy products: the seven lists, purchase, switches, batch calls, renewals, remark and export. */
export const PROXY_ROUTES = {
  tokenListStaticTraffic: defineRoute({
    method: 'GET',
    path: '/token/list/static/traffic',
    auth: 'user',
    isCachedPerUser: true,
    summary: 'Static residential proxies by traffic',
    tag: 'proxy',
    input: ZProxyListQuery,
    output: ZProxyTokenPage,
  }),
  tokenListStaticIp: defineRoute({
    method: 'GET',
    path: '/token/list/static/ip',
    auth: 'user',
    isCachedPerUser: true,
    summary: 'Static residential proxies by IP',
    tag: 'proxy',
    input: ZProxyListQuery,
    output: ZProxyTokenPage,
  }),
  tokenListVariableTraffic: defineRoute({
    method: 'GET',
    path: '/token/list/variable/traffic',
    auth: 'user',
    isCachedPerUser: true,
    summary: 'Dynamic residential proxies by traffic',
    tag: 'proxy',
    input: ZProxyListQuery,
    output: ZProxyTokenPage,
  }),
  tokenListVariableIp: defineRoute({
    method: 'GET',
    path: '/token/list/variable/ip',
    auth: 'user',
    isCachedPerUser: true,
    summary: 'Dynamic residential proxies by IP',
    tag: 'proxy',
    input: ZProxyListQuery,
    output: ZProxyTokenPage,
  }),
  tokenListIspDynamic: defineRoute({
    method: 'GET',
    path: '/token/list/isp/dynamic',
    auth: 'user',
    isCachedPerUser: true,
    summary: 'All dynamic residential proxies',
    tag: 'proxy',
    input: ZProxyListQuery,
    output: ZProxyTokenPage,
  }),
  tokenListIspStatic: defineRoute({
    method: 'GET',
    path: '/token/list/isp/static',
    auth: 'user',
    isCachedPerUser: true,
    summary: 'All static residential proxies',
    tag: 'proxy',
    input: ZProxyListQuery,
    output: ZProxyTokenPage,
  }),
  tokenListIdcStatic: defineRoute({
    method: 'GET',
    path: '/token/list/idc/static',
    auth: 'user',
    isCachedPerUser: true,
    summary: 'Data-center proxies',
    tag: 'proxy',
    input: ZProxyListQuery,
    output: ZProxyTokenPage,
  }),
  tokenBatchDelete: defineRoute({
    method: 'DELETE',
    path: '/token/batch',
    auth: 'user',
    body: 'json',
    summary: 'Delete proxies (per item: unknown ids count as failed)',
    tag: 'proxy',
    input: ZTokenBatchBody,
    output: ZBatchResult,
  }),
  tokenBatchRestore: defineRoute({
    method: 'PUT',
    path: '/token/batch/restore',
    auth: 'user',
    summary: 'Restore deleted proxies (per item: unknown ids count as failed)',
    tag: 'proxy',
    input: ZTokenBatchBody,
    output: ZBatchResult,
  }),
  tokenSetStatus: defineRoute({
    method: 'PUT',
    path: '/token/:id',
    auth: 'user',
    summary: 'Enable or disable a proxy',
    tag: 'proxy',
    input: ZTokenStatusBody,
    output: ZProxyToken,
  }),
  tokenDelete: defineRoute({
    method: 'DELETE',
    path: '/token/:id',
    auth: 'user',
    summary: 'Delete a proxy (it can be restored)',
    tag: 'proxy',
    input: zIdParam,
  }),
  tokenReset: defineRoute({
    method: 'PUT',
    path: '/token/reset/:id',
    auth: 'user',
    summary: 'Reset a proxy password',
    tag: 'proxy',
    input: zIdParam,
    output: ZProxyToken,
  }),
  tokenPaywayList: defineRoute({
    method: 'GET',
    path: '/token/payway/list',
    auth: 'user',
    summary: 'Payment options for renewals',
    tag: 'proxy',
    output: z.array(ZPayway),
  }),
  tokenCreateStaticTraffic: defineRoute({
    method: 'POST',
    path: '/token/static/traffic',
    auth: 'user',
    summary: 'Buy static proxies by traffic (optional Idempotency-Key header)',
    tag: 'proxy',
    input: ZBuyTrafficBody,
    output: ZBuyResult,
  }),
  tokenCreateStaticIp: defineRoute({
    method: 'POST',
    path: '/token/static/ip',
    auth: 'user',
    summary: 'Buy static proxies by IP (optional Idempotency-Key header)',
    tag: 'proxy',
    input: ZBuyIpBody,
    output: ZBuyResult,
  }),
  tokenCreateVariableTraffic: defineRoute({
    method: 'POST',
    path: '/token/variable/traffic',
    auth: 'user',
    summary: 'Buy dynamic residential proxies by traffic (optional Idempotency-Key header)',
    tag: 'proxy',
    input: ZBuyTrafficBody,
    output: ZBuyResult,
  }),
  tokenCreateVariableIp: defineRoute({
    method: 'POST',
    path: '/token/variable/ip',
    auth: 'user',
    summary: 'Buy dynamic residential proxies by IP (optional Idempotency-Key header)',
    tag: 'proxy',
    input: ZBuyIpBody,
    output: ZBuyResult,
  }),
  tokenIpRenew: defineRoute({
    method: 'POST',
    path: '/token/ip/renew',
    auth: 'user',
    summary: 'Renew static IP proxies (optional Idempotency-Key header)',
    tag: 'proxy',
    input: ZRenewBody,
    output: ZRenewResult,
  }),
  tokenIpAutoRenew: defineRoute({
    method: 'POST',
    path: '/token/ip/auto/renew',
    auth: 'user',
    summary: 'Auto-renew static IP proxies on or off',
    tag: 'proxy',
    input: ZAutoRenewBody,
    output: ZBatchResult,
  }),
  tokenVariableIpRenew: defineRoute({
    method: 'POST',
    path: '/token/variable/ip/renew',
    auth: 'user',
    summary: 'Renew dynamic IP proxies (optional Idempotency-Key header)',
    tag: 'proxy',
    input: ZRenewBody,
    output: ZRenewResult,
  }),
  tokenVariableIpAutoRenew: defineRoute({
    method: 'POST',
    path: '/token/variable/ip/auto/renew',
    auth: 'user',
    summary: 'Auto-renew dynamic IP proxies on or off',
    tag: 'proxy',
    input: ZAutoRenewBody,
    output: ZBatchResult,
  }),
  tokenIpRenewPreview: defineRoute({
    method: 'POST',
    path: '/token/ip/renew/preview',
    auth: 'user',
    summary: 'Price a renewal of static IP proxies without renewing: per proxy, in total, and what the balance covers',
    tag: 'proxy',
    input: ZRenewPreviewBody,
    output: ZRenewPreview,
  }),
  tokenVariableIpRenewPreview: defineRoute({
    method: 'POST',
    path: '/token/variable/ip/renew/preview',
    auth: 'user',
    summary: 'Price a renewal of dynamic IP proxies without renewing: per proxy, in total, and what the balance covers',
    tag: 'proxy',
    input: ZRenewPreviewBody,
    output: ZRenewPreview,
  }),
  tokenAutoRenewal: defineRoute({
    method: 'GET',
    path: '/token/auto-renew/latest/:token_id',
    auth: 'user',
    summary: "A proxy's latest auto-renewal and whether it can still be undone (null when it never auto-renewed)",
    tag: 'proxy',
    input: z.object({ token_id: zId }),
    output: ZAutoRenewal.nullable(),
  }),
  tokenAutoRenewUndo: defineRoute({
    method: 'POST',
    path: '/token/auto-renew/undo/:token_id',
    auth: 'user',
    summary: "Undo a proxy's auto-renewal within 24 hours when it carried no traffic since: refund and the old expiry",
    tag: 'proxy',
    input: z.object({ token_id: zId }),
    output: ZAutoRenewUndoResult,
  }),
  renewalCancelInfo: defineRoute({
    method: 'GET',
    path: '/token/auto-renew/cancel',
    auth: 'none',
    summary: 'What a cancel-this-renewal link (from the auto-renewal notice) would cancel; no sign-in',
    tag: 'proxy',
    input: ZRenewalCancelBody,
    output: ZRenewalCancelInfo,
  }),
  renewalCancel: defineRoute({
    method: 'POST',
    path: '/token/auto-renew/cancel',
    auth: 'none',
    summary:
      "Cancel one upcoming auto-renewal by its signed link (works once, until the charge time): the proxy's auto-renew turns off",
    tag: 'proxy',
    input: ZRenewalCancelBody,
    output: ZRenewalCancelResult,
  }),
  tokenRemark: defineRoute({
    method: 'PUT',
    path: '/token/remark/:token_id',
    auth: 'user',
    summary: 'Edit a proxy remark',
    tag: 'proxy',
    input: ZTokenRemarkBody,
    output: ZProxyToken,
  }),
  tokenExport: defineRoute({
    method: 'GET',
    path: '/token/export',
    auth: 'user',
    summary: 'Export proxies as a file (token_ids, or every token matching the list filters)',
    tag: 'proxy',
    input: ZExportQuery,
    isBlob: true,
  }),
} as const satisfies Record<string, TRouteDef>;
