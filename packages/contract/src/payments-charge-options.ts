import { z } from 'zod';
import { ZPageQuery, zPage } from './envelope';
import { PAY_METHODS } from './payments';
import { VERSION_STATUSES, zEffectiveAt, zFen } from './pricing';
import { defineRoute, type TRouteDef } from './route-def';

/**
 * Operators' recharge options (spec section 9): the option sets, versioned with
 * an effective time like the prices, and the payment methods switched on or off.
 */

/** Most options in one recharge option set. */
export const CHARGE_OPTIONS_MAX = 20;

/** One recharge option as operators edit it, in fen. */
export const ZAdminChargeOption = z.object({
  amount_fen: zFen(1, 'optionAmountRange'),
  gift_fen: zFen(0, 'optionGiftRange'),
});

/** A version of the recharge option set. */
export const ZChargeOptionVersion = z.object({
  version: z.number().int(),
  effective_at: z.string(),
  created_at: z.string(),
  /** E-mail of the operator who made it; null for the defaults of a fresh install. */
  created_by: z.string().nullable(),
  status: z.enum(VERSION_STATUSES),
  options: z.array(z.object({ amount_fen: z.number().int(), gift_fen: z.number().int() })),
});
/** Parsed option set version. */
export type TChargeOptionVersion = z.infer<typeof ZChargeOptionVersion>;

/** A payment method as operators see it: configured on the server, switched on, offered to customers (both). */
export const ZPayMethodState = z.object({
  method: z.enum(PAY_METHODS),
  is_configured: z.boolean(),
  is_enabled: z.boolean(),
  is_offered: z.boolean(),
});
/** Parsed method state. */
export type TPayMethodState = z.infer<typeof ZPayMethodState>;

/** GET /admin/charge-options: the set in effect, the sets scheduled, the methods and the fee (fixed by the spec). */
export const ZAdminChargeOptions = z.object({
  current: ZChargeOptionVersion.nullable(),
  scheduled: z.array(ZChargeOptionVersion),
  methods: z.array(ZPayMethodState),
  fee: z.object({ percent: z.number(), fixed_fen: z.number().int() }),
  min_amount_fen: z.number().int(),
  max_amount_fen: z.number().int(),
});
/** Parsed operators' options. */
export type TAdminChargeOptions = z.infer<typeof ZAdminChargeOptions>;

/** POST /admin/charge-options: a new option set (1-20 options, distinct amounts, display order as given), in effect from effective_at (absent: now). */
export const ZChargeOptionSetInput = z
  .object({
    options: z
      .array(ZAdminChargeOption, { error: 'optionsCount' })
      .min(1, { error: 'optionsCount' })
      .max(CHARGE_OPTIONS_MAX, { error: 'optionsCount' })
      .superRefine((options, ctx) => {
        const seen = new Set<number>();
        options.forEach((o, i) => {
          if (seen.has(o.amount_fen))
            ctx.addIssue({ code: 'custom', path: [i, 'amount_fen'], message: 'optionAmountDuplicate' });
          seen.add(o.amount_fen);
        });
      }),
    effective_at: zEffectiveAt,
  })
  .meta({ examples: [{ options: [{ amount_fen: 10000, gift_fen: 500 }], effective_at: '2026-12-01T00:00:00+08:00' }] });
/** Parsed option set. */
export type TChargeOptionSetInput = z.infer<typeof ZChargeOptionSetInput>;

/** Operators: the recharge option sets (versioned, with an effective time) and the payment methods switched on or off; the fee is the spec's. */
export const CHARGE_OPTION_ADMIN_ROUTES = {
  adminChargeOptions: defineRoute({
    method: 'GET',
    path: '/admin/charge-options',
    auth: 'admin',
    summary:
      'The recharge option set in effect, the sets scheduled for later, every payment method (configured, switched on, offered) and the fixed fee',
    tag: 'admin',
    output: ZAdminChargeOptions,
  }),
  adminChargeOptionVersions: defineRoute({
    method: 'GET',
    path: '/admin/charge-options/versions',
    auth: 'admin',
    summary: 'Versions of the recharge option set, newest first, each scheduled, current or past',
    tag: 'admin',
    input: ZPageQuery,
    output: zPage(ZChargeOptionVersion),
  }),
  adminChargeOptionCreate: defineRoute({
    method: 'POST',
    path: '/admin/charge-options',
    auth: 'admin',
    body: 'json',
    summary:
      'A new recharge option set (amounts and gifts in fen, amounts within the top-up bounds and distinct) as a new version, in effect from effective_at (absent: now); orders record the version whose gift they got',
    tag: 'admin',
    input: ZChargeOptionSetInput,
    output: ZChargeOptionVersion,
  }),
  adminPayMethodSet: defineRoute({
    method: 'PUT',
    path: '/admin/charge-options/methods/:method',
    auth: 'admin',
    body: 'json',
    summary:
      'Switch a payment method on or off for every API instance at once: a method that is off is not offered and its new orders are refused; a method whose provider is not configured cannot be switched on',
    tag: 'admin',
    input: z.object({
      method: z.enum(PAY_METHODS, { error: 'payMethodInvalid' }),
      is_enabled: z.boolean({ error: 'booleanRequired' }),
    }),
    output: ZPayMethodState,
  }),
} as const satisfies Record<string, TRouteDef>;
