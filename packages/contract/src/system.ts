import { z } from 'zod';
import { defineRoute, type TRouteDef } from './route-def';
import { zJsonNumber } from './validators';

/** Largest fair-use traffic of IP-billed dynamic proxies, in GB per day (docs/operator-guide.md). */
export const FAIR_USE_GB_PER_DAY_MAX = 1000;

/** Fair-use traffic of IP-billed dynamic proxies in GB per day: 0 (off) to 1000, at most one decimal. */
export const zFairUseGbPerDay = zJsonNumber('fairUseRange').refine(
  (gb) => gb >= 0 && gb <= FAIR_USE_GB_PER_DAY_MAX && Math.abs(gb * 10 - Math.round(gb * 10)) < 1e-9,
  { error: 'fairUseRange' },
);

/** Longest marketing figure of residential IPs or uptime ("32M+", "99.9%"), in characters. */
export const CLAIM_TEXT_MAX = 16;
/** Most countries a marketing figure may claim (there are 249 ISO 3166 countries). */
export const CLAIM_COUNTRIES_MAX = 250;

/** A marketing figure written as text (residential IPs, uptime): 1 to 16 characters once trimmed. */
export const zClaimText = z
  .string({ error: 'claimText' })
  .trim()
  .min(1, { error: 'claimText' })
  .max(CLAIM_TEXT_MAX, { error: 'claimText' });

/** The marketing figure of countries served: a whole number from 1 to 250. */
export const zClaimCountries = zJsonNumber('claimCountries').refine(
  (n) => Number.isInteger(n) && n >= 1 && n <= CLAIM_COUNTRIES_MAX,
  { error: 'claimCountries' },
);

/** Operator-set settings stored in the database. */
export const ZSystemSettings = z.object({
  /** Operators must have two-factor sign-in on to use the operator area. */
  admin_totp_required: z.boolean({ error: 'invalidValue' }),
  /**
   * Traffic included per day in an IP-billed dynamic proxy bought or renewed while it is above 0; such a proxy may
   * leave through upstream pools (docs/pools.md). 0 is off, the default.
   */
  ip_dynamic_fair_use_gb_per_day: z.number(),
  /** Marketing figure of residential IPs shown on every page that names it ("32M+" until set). */
  claim_residential_ips: z.string(),
  /** Marketing figure of countries served (195 until set). */
  claim_countries: z.number().int(),
  /** Marketing figure of uptime ("99.9%" until set). */
  claim_uptime: z.string(),
});
/** Parsed system settings. */
export type TSystemSettings = z.infer<typeof ZSystemSettings>;

/** Body of PUT /admin/system/settings: the settings to change (one left out keeps its value). */
export const ZSystemSettingsUpdate = z.object({
  admin_totp_required: z.boolean({ error: 'invalidValue' }).optional(),
  ip_dynamic_fair_use_gb_per_day: zFairUseGbPerDay.optional(),
  claim_residential_ips: zClaimText.optional(),
  claim_countries: zClaimCountries.optional(),
  claim_uptime: zClaimText.optional(),
});
/** Parsed settings change. */
export type TSystemSettingsUpdate = z.infer<typeof ZSystemSettingsUpdate>;

/** A country in stock: where an active exit is, or named by an enabled pool's coverage. */
export const ZCountryInStock = z.object({
  id: z.string(),
  name_zh: z.string(),
  name_en: z.string(),
  /** An active exit (exit_nodes) is in the country. */
  has_exits: z.boolean(),
  /** An enabled pool's coverage list names the country. */
  has_pools: z.boolean(),
});

/** The countries actually in stock beside the claimed figure (GET /admin/system/claims-stock). */
export const ZClaimsStock = z.object({
  /** Countries with an active exit or named by an enabled pool's coverage list, by code. */
  countries: z.array(ZCountryInStock),
  /** An enabled pool covers "all" countries: it serves every country, whatever the list says. */
  pools_serve_all: z.boolean(),
});
/** Countries in stock. */
export type TClaimsStock = z.infer<typeof ZClaimsStock>;

/** The outcome of one readiness check: ok, off (not part of this process), or why it fails. */
export const ZReadinessCheck = z.object({ status: z.enum(['ok', 'off', 'failed']), reason: z.string().optional() });

/** Readiness of the API process (GET /health/ready); the answer of a 503 carries it in `data` too. */
export const ZReadiness = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.object({
    database: ZReadinessCheck,
    migrations: ZReadinessCheck,
    change_feed: ZReadinessCheck,
    gateway: ZReadinessCheck,
  }),
  /** One line per failed check (empty when ready). */
  reasons: z.array(z.string()),
});
/** Readiness of the API process. */
export type TReadiness = z.infer<typeof ZReadiness>;

/** Calls of the service itself: health, the OpenAPI document and the operators' security settings. */
export const SYSTEM_ROUTES = {
  health: defineRoute({
    method: 'GET',
    path: '/health',
    auth: 'none',
    summary: 'Liveness and database check',
    tag: 'service',
    output: z.object({ status: z.literal('ok'), database: z.string() }),
  }),
  healthLive: defineRoute({
    method: 'GET',
    path: '/health/live',
    auth: 'none',
    summary: 'Liveness: the process answers (no dependency is checked)',
    tag: 'service',
    output: z.object({ status: z.literal('live') }),
  }),
  healthReady: defineRoute({
    method: 'GET',
    path: '/health/ready',
    auth: 'none',
    summary:
      'Readiness: database reachable, migrations at the expected version, change feed listening, the embedded ' +
      "gateway's state loaded and fresh. 503 NOT_READY with the failed checks' reasons (data.reasons) otherwise",
    tag: 'service',
    output: ZReadiness,
  }),
  openapi: defineRoute({
    method: 'GET',
    path: '/openapi.json',
    auth: 'none',
    summary: 'This API as an OpenAPI 3.1 document',
    tag: 'service',
    isBlob: true,
  }),
  adminSystemSettings: defineRoute({
    method: 'GET',
    path: '/admin/system/settings',
    auth: 'admin',
    summary:
      'Settings of the installation: two-factor required for operators, fair-use traffic of IP-billed dynamic ' +
      'proxies, the marketing figures',
    tag: 'admin',
    output: ZSystemSettings,
  }),
  adminSystemSettingsUpdate: defineRoute({
    method: 'PUT',
    path: '/admin/system/settings',
    auth: 'admin',
    summary:
      'Change the settings (turning the two-factor requirement on needs two-factor on the caller; a setting left ' +
      'out keeps its value)',
    tag: 'admin',
    input: ZSystemSettingsUpdate,
    output: ZSystemSettings,
  }),
  adminSystemClaimsStock: defineRoute({
    method: 'GET',
    path: '/admin/system/claims-stock',
    auth: 'admin',
    summary:
      'The countries actually in stock, to keep the marketing figures honest: those with an active exit and those ' +
      "an enabled pool's coverage names (a pool covering all countries is said apart)",
    tag: 'admin',
    output: ZClaimsStock,
  }),
} as const satisfies Record<string, TRouteDef>;
