import { z } from 'zod';
import { defineRoute, type TRouteDef } from './route-def';

/** Operator-set settings stored in the database. */
export const ZSystemSettings = z.object({
  /** Operators must have two-factor sign-in on to use the operator area. */
  admin_totp_required: z.boolean({ error: 'invalidValue' }),
});
/** Parsed system settings. */
export type TSystemSettings = z.infer<typeof ZSystemSettings>;

/** Calls of the service itself: health, the OpenAPI document and the operators' security settings. */
/** Health check and the OpenAPI document. */
export const SYSTEM_ROUTES = {
  health: defineRoute({
    method: 'GET',
    path: '/health',
    auth: 'none',
    summary: 'Liveness and database check',
    tag: 'service',
    output: z.object({ status: z.literal('ok'), database: z.string() }),
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
