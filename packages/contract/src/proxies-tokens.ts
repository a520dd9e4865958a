import { z } from 'zod';
import { zId, zJsonNumber } from './validators';

/**
 * A proxy / token (spec sections 3 and 7, ARCHITECTURE.md Proxies): its
 * category, network, product, billing and status, the rule of its own state,
 * the limits of the calls on tokens, its lines and URL, the token as the lists
 * show it, and the fields of the calls on one or many tokens.
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
  token: {
    status: TTokenStatus;
    deletedAt: Date | null;
    expiresAt: Date;
    trafficLimitBytes: number | null;
    trafficUsedBytes: number;
  },
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
export const PROXY_LISTS = [
  'static/traffic',
  'static/ip',
  'variable/traffic',
  'variable/ip',
  'isp/static',
  'isp/dynamic',
  'idc/static',
] as const;
/** One of the seven lists. */
export type TProxyList = (typeof PROXY_LISTS)[number];

/** Export line formats (ARCHITECTURE.md): host:port:user:pass, user:pass@host:port, http://..., socks5://... */
export const EXPORT_LINE_FORMATS = ['hpup', 'upahp', 'http', 'socks5'] as const;
/** An export line format. */
export type TExportLineFormat = (typeof EXPORT_LINE_FORMATS)[number];

/** One endpoint line in a format. */
export function formatEndpointLine(
  endpoint: { host: string; port: number; username: string; password: string },
  format: TExportLineFormat,
): string {
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
export function proxyUrlOf(endpoint: {
  host: string;
  port: number;
  username: string;
  password: string;
  network: TProxyNetwork;
}): string {
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

/** Whole days of an IP purchase or renewal (1-365). */
export const zProxyDays = zJsonNumber('daysRange')
  .int({ error: 'daysRange' })
  .min(1, { error: 'daysRange' })
  .max(PROXY_DAYS_MAX, { error: 'daysRange' });

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
        area: {
          country: 'us',
          state: 'ca',
          city: 'losangeles',
          country_name: 'United States',
          state_name: 'California',
          city_name: 'Los Angeles',
        },
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

/** Ids of a batch call. */
export const zTokenIds = z
  .array(
    zJsonNumber('invalidValue')
      .int({ error: 'invalidValue' })
      .positive({ error: 'invalidValue' })
      .max(Number.MAX_SAFE_INTEGER, { error: 'invalidValue' }),
    { error: 'selectionRequired' },
  )
  .min(1, { error: 'selectionRequired' })
  .max(PROXY_BATCH_MAX, { error: 'tooMany' });
/** Body of DELETE /token/batch and PUT /token/batch/restore. */
export const ZTokenBatchBody = z.object({ token_ids: zTokenIds });

/** Body of PUT /token/:id. */
export const ZTokenStatusBody = z.object({
  id: zId,
  status: z.enum(['enabled', 'disabled'], { error: 'invalidValue' }),
});
/** Body of PUT /token/remark/:token_id. */
export const ZTokenRemarkBody = z.object({
  /** The path's id (the spec's body repeats it; the path decides). */
  token_id: zId,
  remark: z.string({ error: 'required' }).trim().max(PROXY_REMARK_MAX, { error: 'tooLong' }),
});
