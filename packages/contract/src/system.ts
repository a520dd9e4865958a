import { z } from 'zod';
import { defineRoute, type TRouteDef } from './route-def';

/** Operator-set settings stored in the database. */
export const ZSystemSettings = z.object({
  /** Operators must have two-factor sign-in on to use the operator area. */
  admin_totp_required: z.boolean({ error: 'invalidValue' }),
});
/** Parsed system settings. */
export type TSystemSettings = z.infer<typeof ZSystemSettings>;

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
    summary: 'Security settings of the installation (two-factor required for operators)',
    tag: 'admin',
    output: ZSystemSettings,
  }),
  adminSystemSettingsUpdate: defineRoute({
    method: 'PUT',
    path: '/admin/system/settings',
    auth: 'admin',
    summary: 'Change the security settings (turning the two-factor requirement on needs two-factor on the caller)',
    tag: 'admin',
    input: ZSystemSettings,
    output: ZSystemSettings,
  }),
} as const satisfies Record<string, TRouteDef>;
