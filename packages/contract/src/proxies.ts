import { z } from 'zod';
import { ZPageQuery, zPage } from './envelope';
import { PRICE_KEYS, TRAFFIC_MIN_GB } from './prices';
import { ZBatchResult } from './envelope';
import { defineRoute, type TRouteDef } from './route-def';
import { zId, zIdParam, zJsonNumber, zQueryDate } from './validators';

/**
 * Shared schemas of the proxy products (spec sections 3 and 7, ARCHITECTURE.md
 * Proxies): purchase, lists, batch calls, renewals, areas, prices and export.
 */

/** Residential ISP or data-center. */
export const PROXY_CATEGORIES = ['isp', 'idc'] as const;
/** A proxy category. */
export type TProxyCategory = (typeof PROXY_CATEGORIES)[number];
/** Protocols a token accepts. */
export const PROXY_NETWORKS = ['HTTP', 'SOCKS5'] as const;
/** A token's protocol. */
export type TProxyNetwork = (typeof PROXY_NETWORKS)[number];
/** Product of a token: static (pinned exit) or dynamic (rotating exits). */
export const PROXY_PRODUCTS = ['static', 'dynamic'] as const;
/** A token's product. */
export type TProxyProduct = (typeof PROXY_PRODUCTS)[number];
/** Billing: by traffic or by IP (days). */
export const PROXY_BILLINGS = ['traffic', 'ip'] as const;
/** A token's billing. */
export type TProxyBilling = (typeof PROXY_BILLINGS)[number];
/** Statuses as stored; a deleted token keeps its status and has deleted_at set. */
export const TOKEN_STATUSES = ['enabled', 'disabled', 'expired', 'invalid'] as const;
/** A stored status. */
export type TTokenStatus = (typeof TOKEN_STATUSES)[number];
/** Statuses as the API shows them ("deleted" when the token is deleted). */
export const PROXY_STATUSES = [...TOKEN_STATUSES, 'deleted'] as const;

/** Refusals that follow from a token's own state (the gateway's reason names). */
export type TTokenStateRefusal = 'token-disabled' | 'token-expired' | 'token-exhausted';

/**
 * Why a token may not carry traffic now, from its own state, or null: the one
 * rule the gateway (which adds IP lists, protocol and connection limits) and
 * the proxy test both apply. `allowanceLeft` lets the gateway count its leases;
 * by default it is the stored limit minus the stored usage.
 */
export function findTokenStateRefusal(
  token: { status: TTokenStatus; deletedAt: Date | null; expiresAt: Date; trafficLimitBytes: number | null; trafficUsedBytes: number },
  nowMs: number,
  allowanceLeft = token.trafficLimitBytes === null ? Infinity : token.trafficLimitBytes - token.trafficUsedBytes,
): TTokenStateRefusal | null {
  if (token.deletedAt || token.status === 'disabled') return 'token-disabled';
  if (token.status === 'expired' || token.expiresAt.getTime() <= nowMs) return 'token-expired';
  if (token.status === 'invalid' || allowanceLeft <= 0) return 'token-exhausted';
  return null;
}
/** A status as shown. */
export type TProxyStatus = (typeof PROXY_STATUSES)[number];

/** Tokens per purchase. */
export const PROXY_QUANTITY_MAX = 100;
/** Days of one IP purchase or renewal. */
export const PROXY_DAYS_MAX = 365;
/** Largest traffic purchase per token, in GB. */
export const PROXY_TRAFFIC_MAX_GB = 100_000;
/** Remark length. */
export const PROXY_REMARK_MAX = 100;
/** Ids per batch call. */
export const PROXY_BATCH_MAX = 500;
/** Bytes in one GB of traffic allowance (binary: 1024^3). */
export const BYTES_PER_GB = 1024 ** 3;

/** The seven lists of spec section 7 (membership in ARCHITECTURE.md, Proxies). */
export const PROXY_LISTS = ['static/traffic', 'static/ip', 'variable/traffic', 'variable/ip', 'isp/static', 'isp/dynamic', 'idc/static'] as const;
/** One of the seven lists. */
export type TProxyList = (typeof PROXY_LISTS)[number];

/** Export line formats (ARCHITECTURE.md): host:port:user:pass, user:pass@host:port, http://..., socks5://... */
export const EXPORT_LINE_FORMATS = ['hpup', 'upahp', 'http', 'socks5'] as const;
/** An export line format. */
export type TExportLineFormat = (typeof EXPORT_LINE_FORMATS)[number];

/** One endpoint line in a format. */
export function formatEndpointLine(endpoint: { host: string; port: number; username: string; password: string }, format: TExportLineFormat): string {
  const { host, port, username, password } = endpoint;
  switch (format) {
    case 'hpup':
      return `${host}:${port}:${username}:${password}`;
    case 'upahp':
      return `${username}:${password}@${host}:${port}`;
    case 'http':
      return `http://${username}:${password}@${host}:${port}`;
    case 'socks5':
      return `socks5://${username}:${password}@${host}:${port}`;
  }
}

/** Proxy URL of a token by its network: http://user:pass@host:port or socks5://... */
export function proxyUrlOf(endpoint: { host: string; port: number; username: string; password: string; network: TProxyNetwork }): string {
  return formatEndpointLine(endpoint, endpoint.network === 'SOCKS5' ? 'socks5' : 'http');
}

/**
 * A proxy's line in an export format. The URL formats name the proxy's own
 * protocol whichever was asked: the gateway refuses SOCKS5 on an HTTP proxy
 * and HTTP on a SOCKS5 one, so a line of the other scheme could never work.
 */
export function formatProxyLine(
  endpoint: { host: string; port: number; username: string; password: string; network: TProxyNetwork },
  format: TExportLineFormat,
): string {
  return format === 'http' || format === 'socks5' ? proxyUrlOf(endpoint) : formatEndpointLine(endpoint, format);
}

const zAreaCode = z
  .string({ error: 'required' })
  .trim()
  .toLowerCase()
  .max(64, { error: 'tooLong' })
  .regex(/^[a-z0-9_]*$/, { error: 'invalidValue' });

/** ISO 3166-1 alpha-2 country code, lower-cased ("us"). */
export const zCountryId = z
  .string({ error: 'countryRequired' })
  .trim()
  .toLowerCase()
  .min(1, { error: 'countryRequired' })
  .regex(/^[a-z]{2}$/, { error: 'invalidValue' });

// JSON bodies take JSON booleans.
const zBool = z.boolean({ error: 'booleanRequired' });

const purchaseBase = {
  category: z.enum(PROXY_CATEGORIES, { error: 'invalidValue' }).default('isp'),
  network: z.enum(PROXY_NETWORKS, { error: 'invalidValue' }),
  country_id: zCountryId,
  state_id: zAreaCode.optional(),
  city_id: zAreaCode.optional(),
  quantity: zJsonNumber('quantityRange').int({ error: 'quantityRange' }).min(1, { error: 'quantityRange' }).max(PROXY_QUANTITY_MAX, { error: 'quantityRange' }),
  auto_renew: zBool.optional(),
  remark: z.string().trim().max(PROXY_REMARK_MAX, { error: 'tooLong' }).optional(),
};

/** GB of traffic: from 0.1, at most one decimal. */
export const zTrafficGb = zJsonNumber('trafficRange')
  .min(TRAFFIC_MIN_GB, { error: 'trafficRange' })
  .max(PROXY_TRAFFIC_MAX_GB, { error: 'trafficRange' })
  .refine((gb) => Math.abs(gb * 10 - Math.round(gb * 10)) < 1e-9, { error: 'trafficDecimals' });

/** Whole days of an IP purchase or renewal (1-365). */
export const zProxyDays = zJsonNumber('daysRange').int({ error: 'daysRange' }).min(1, { error: 'daysRange' }).max(PROXY_DAYS_MAX, { error: 'daysRange' });

/** Body of POST /token/static/traffic and /token/variable/traffic. */
export const ZBuyTrafficBody = z.object({ ...purchaseBase, traffic_gb: zTrafficGb });
/** Parsed traffic purchase. */
export type TBuyTrafficBody = z.infer<typeof ZBuyTrafficBody>;
/** Body of POST /token/static/ip and /token/variable/ip. */
export const ZBuyIpBody = z.object({ ...purchaseBase, days: zProxyDays });
/** Parsed IP purchase. */
export type TBuyIpBody = z.infer<typeof ZBuyIpBody>;

/** Area of a token, codes and names in the request's language. */
export const ZProxyArea = z.object({
  country: z.string(),
  state: z.string(),
  city: z.string(),
  country_name: z.string(),
  state_name: z.string(),
  city_name: z.string(),
});

/** A proxy / token as the lists show it (spec section 3). Times are ISO strings. */
export const ZProxyToken = z
  .object({
    token_id: z.number().int(),
    remark: z.string(),
    /** static or dynamic. */
    product: z.enum(PROXY_PRODUCTS),
    category: z.enum(PROXY_CATEGORIES),
    /** Billing: by IP or by traffic. */
    type: z.enum(PROXY_BILLINGS),
    network: z.enum(PROXY_NETWORKS),
    area: ZProxyArea,
    /** Traffic used and allowance in bytes (limit null for IP products). */
    usage: z.object({ used_bytes: z.number().int(), limit_bytes: z.number().int().nullable() }),
    created_at: z.string(),
    expires_at: z.string(),
    status: z.enum(PROXY_STATUSES),
    auto_renew: z.boolean(),
    host: z.string(),
    port: z.number().int(),
    username: z.string(),
    password: z.string(),
    proxy_url: z.string(),
  })
  .meta({
    examples: [
      {
        token_id: 1024,
        remark: 'shop crawler',
        product: 'dynamic',
        category: 'isp',
        type: 'traffic',
        network: 'HTTP',
        area: { country: 'us', state: 'ca', city: 'losangeles', country_name: 'United States', state_name: 'California', city_name: 'Los Angeles' },
        usage: { used_bytes: 52428800, limit_bytes: 1073741824 },
        created_at: '2026-11-01T08:00:00.000Z',
        expires_at: '2026-12-01T08:00:00.000Z',
        status: 'enabled',
        auto_renew: false,
        host: 'gw.example.com',
        port: 7777,
        username: 'u1a2b3c4',
        password: 'p4ssw0rdX',
        proxy_url: 'http://u1a2b3c4:p4ssw0rdX@gw.example.com:7777',
      },
    ],
  });
/** Parsed token. */
export type TProxyToken = z.infer<typeof ZProxyToken>;

/** Answer of a purchase: the tokens, the cost and the balance after it (yuan). */
export const ZBuyResult = z.object({ tokens: z.array(ZProxyToken), cost: z.number(), balance: z.number(), order_id: z.number().int() });
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

/** Ids of a batch call. */
export const zTokenIds = z
  .array(
    zJsonNumber('invalidValue').int({ error: 'invalidValue' }).positive({ error: 'invalidValue' }).max(Number.MAX_SAFE_INTEGER, { error: 'invalidValue' }),
    { error: 'selectionRequired' },
  )
  .min(1, { error: 'selectionRequired' })
  .max(PROXY_BATCH_MAX, { error: 'tooMany' });
/** Body of DELETE /token/batch and PUT /token/batch/restore. */
export const ZTokenBatchBody = z.object({ token_ids: zTokenIds });

/** Body of PUT /token/:id. */
export const ZTokenStatusBody = z.object({ id: zId, status: z.enum(['enabled', 'disabled'], { error: 'invalidValue' }) });
/** Body of PUT /token/remark/:token_id. */
export const ZTokenRemarkBody = z.object({
  /** The path's id (the spec's body repeats it; the path decides). */
  token_id: zId,
  remark: z.string({ error: 'required' }).trim().max(PROXY_REMARK_MAX, { error: 'tooLong' }),
});

/** Payment options of renewals (the balance is the only one). */
export const PAYWAYS = ['balance'] as const;
/** Body of the renew calls: a payment option must be selected (spec section 5). */
export const ZRenewBody = z.object({
  token_ids: zTokenIds,
  days: zProxyDays,
  payway: z.enum(PAYWAYS, { error: 'paywayRequired' }),
});
/** Answer of a renewal: per-token counts, the cost and the balance after it (yuan). */
export const ZRenewResult = z.object({ success: z.number().int(), failed: z.number().int(), total: z.number().int(), cost: z.number(), balance: z.number() });
/** Body of the renew previews: the tokens and days a renewal would take (no payment option: nothing is paid). */
export const ZRenewPreviewBody = z.object({ token_ids: zTokenIds, days: zProxyDays });
/** One token of a renew preview, in the order the renewal takes them. */
export const ZRenewPreviewItem = z.object({
  token_id: z.number().int(),
  /** The proxy's username (empty for an id that is not one of the caller's). */
  username: z.string(),
  remark: z.string(),
  /** Null for an id that is not one of the caller's. */
  expires_at: z.string().nullable(),
  /** The expiry after the renewal (null when it would not be renewed). */
  new_expires_at: z.string().nullable(),
  /** Price of this token's renewal in yuan (0 when it would not be renewed). */
  price: z.number(),
  /** Whether the renewal takes it: unknown, foreign, deleted, used-up, traffic and other-product tokens count as failed. */
  is_renewable: z.boolean(),
  /** Whether the balance still covers it after the renewable tokens before it. */
  is_covered: z.boolean(),
});
/** Answer of a renew preview: per-token prices, the total and what the balance covers; nothing is charged or changed. */
export const ZRenewPreview = z.object({
  days: z.number().int(),
  items: z.array(ZRenewPreviewItem),
  /** Price of every renewable token in yuan: what the renewal debits. */
  total: z.number(),
  /** The available balance in yuan. */
  balance: z.number(),
  /** How many renewable tokens, and which price, the balance covers in renewal order. */
  covered_count: z.number().int(),
  covered_total: z.number(),
});
/** Parsed renew preview. */
export type TRenewPreview = z.infer<typeof ZRenewPreview>;

/** The latest auto-renewal of a proxy and whether it can be undone now. */
export const ZAutoRenewal = z.object({
  renewal_id: z.number().int(),
  token_id: z.number().int(),
  /** What it charged, in yuan. */
  amount: z.number(),
  renewed_at: z.string(),
  previous_expires_at: z.string(),
  new_expires_at: z.string(),
  /** Until when an undo is possible (24 hours after the renewal). */
  undo_until: z.string(),
  /** Why it cannot be undone now, or null when it can. */
  undo_refusal: z.enum(['undone', 'too_late', 'used', 'superseded']).nullable(),
});
/** Parsed auto-renewal. */
export type TAutoRenewal = z.infer<typeof ZAutoRenewal>;
/** Answer of an undo: the refund and the proxy's expiry put back. */
export const ZAutoRenewUndoResult = z.object({ token_id: z.number().int(), refunded: z.number(), expires_at: z.string(), balance: z.number() });

/** The signed single-use token of a cancel-this-renewal link. */
const zRenewalCancelToken = z.string({ error: 'required' }).trim().min(1, { error: 'required' }).max(200, { error: 'tooLong' });
/** Query and body of the cancel-this-renewal calls. */
export const ZRenewalCancelBody = z.object({ token: zRenewalCancelToken });
/** What a cancel link is about: the proxy, the renewal's charge and time, and whether the link can still be used. */
export const ZRenewalCancelInfo = z.object({
  /** The proxy's username. */
  proxy: z.string(),
  amount: z.number(),
  /** When the renewal charges; the link expires then. */
  charge_at: z.string(),
  /** The proxy's expiry the renewal is for. */
  expires_at: z.string(),
  state: z.enum(['pending', 'used', 'expired']),
});
/** Answer of a cancel: auto-renew is off for the proxy. */
export const ZRenewalCancelResult = z.object({ proxy: z.string(), auto_renew: z.boolean(), expires_at: z.string() });

/** Body of the auto-renew switches. */
export const ZAutoRenewBody = z.object({ token_ids: zTokenIds, auto_renew: zBool });
/** One payment option of GET /token/payway/list. */
export const ZPayway = z.object({ id: z.enum(PAYWAYS), name: z.string(), name_zh: z.string(), name_en: z.string(), balance: z.number() });

/** Query of the area lists: category (isp by default) and the parent codes. */
export const ZAreaQuery = z.object({
  category: z.enum(PROXY_CATEGORIES, { error: 'invalidValue' }).default('isp'),
});
/** One area with inventory: code, names and how many exits are available. */
export const ZArea = z
  .object({
    id: z.string(),
    name: z.string(),
    name_zh: z.string(),
    name_en: z.string(),
    available: z.number().int(),
  })
  .meta({ examples: [{ id: 'us', name: 'United States', name_zh: '美国', name_en: 'United States', available: 12 }] });
/** Parsed area. */
export type TArea = z.infer<typeof ZArea>;

/** The price catalogue in fen by key, as GET /token/prices answers it. */
export const ZPriceCatalogue = z.object(Object.fromEntries(PRICE_KEYS.map((k) => [k, z.number().int()])) as Record<(typeof PRICE_KEYS)[number], z.ZodNumber>);

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
    summary: "Cancel one upcoming auto-renewal by its signed link (works once, until the charge time): the proxy's auto-renew turns off",
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

/** Areas with stock for the purchase form. */
export const AREA_ROUTES = {
  tokenAreaCountries: defineRoute({
    method: 'GET',
    path: '/token/list/area/countries',
    auth: 'user',
    summary: 'Countries with inventory',
    tag: 'proxy',
    input: ZAreaQuery,
    output: z.array(ZArea),
  }),
  tokenAreaStates: defineRoute({
    method: 'GET',
    path: '/token/list/area/state',
    auth: 'user',
    summary: 'States with inventory in a country',
    tag: 'proxy',
    input: ZAreaQuery.extend({ country_id: zCountryId }),
    output: z.array(ZArea),
  }),
  tokenAreaCities: defineRoute({
    method: 'GET',
    path: '/token/list/area/city',
    auth: 'user',
    summary: 'Cities with inventory in a state',
    tag: 'proxy',
    input: ZAreaQuery.extend({ country_id: zCountryId, state_id: z.string().trim().toLowerCase().max(64).default('') }),
    output: z.array(ZArea),
  }),
} as const satisfies Record<string, TRouteDef>;

/** The price catalogue. */
export const PRICING_ROUTES = {
  tokenPrices: defineRoute({ method: 'GET', path: '/token/prices', auth: 'user', summary: 'Price catalogue in fen', tag: 'proxy', output: ZPriceCatalogue }),
} as const satisfies Record<string, TRouteDef>;
