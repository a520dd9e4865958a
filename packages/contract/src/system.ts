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

/** Operator-set settings stored in the database. */
export const ZSystemSettings = z.object({
  /** Operators must have two-factor sign-in on to use the operator area. */
  admin_totp_required: z.boolean({ error: 'invalidValue' }),
  /**
   * Traffic included per day in an IP-billed dynamic proxy bought or renewed while it is above 0; such a proxy may
   * leave through upstream pools (docs/pools.md). 0 is off, the default.
   */
  ip_dynamic_fair_use_gb_per_day: z.number(),
});
/** Parsed system settings. */
export type TSystemSettings = z.infer<typeof ZSystemSettings>;

/** Body of PUT /admin/system/settings: the settings to change (one left out keeps its value). */
export const ZSystemSettingsUpdate = z.object({
  admin_totp_required: z.boolean({ error: 'invalidValue' }).optional(),
  ip_dynamic_fair_use_gb_per_day: zFairUseGbPerDay.optional(),
});
/** Parsed settings change. */
export type TSystemSettingsUpdate = z.infer<typeof ZSystemSettingsUpdate>;

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
      'Settings of the installation: two-factor required for operators, fair-use traffic of IP-billed dynamic proxies',
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
} as const satisfies Record<string, TRouteDef>;
