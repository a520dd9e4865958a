import { z } from 'zod';
import { ZPageQuery, zPage } from './envelope';
import { FEN_PER_YUAN } from './money';
import { defineRoute, type TRouteDef } from './route-def';
import { ZClaims } from './site';
import { zJsonNumber } from './validators';

/**
 * Invite and rebate (spec sections 1, 2, 3, 4, 6, 7 Invite): every account has
 * an invite code; the inviter is fixed at registration; an invitee's
 * successful recharge earns the inviter a rebate under the rules in force
 * (versioned; operators add versions through the spec's /invite/admin calls).
 */

/** States of a rebate (spec section 4): pending (to be paid), success (paid), failed, unknown. */
export const REBATE_STATUSES = ['pending', 'success', 'failed', 'unknown'] as const;
/** A rebate state. */
export type TRebateStatus = (typeof REBATE_STATUSES)[number];

/**
 * Why a rebate is failed or unknown: the inviter is disabled; the recharge was
 * reversed by an operator (a pending rebate cancelled, a paid one taken back);
 * the recharge's state cannot be determined.
 */
export const REBATE_REASONS = ['inviter_disabled', 'recharge_reversed', 'recharge_unknown'] as const;
/** A rebate reason. */
export type TRebateReason = (typeof REBATE_REASONS)[number];

/** Rules of a fresh install (spec section 9 leaves them to the server): 5 %, from 10 yuan, at most 100 yuan per recharge. */
export const DEFAULT_REBATE_RULES = { rateBp: 500, minChargeFen: 1000, maxRebateFen: 10_000 } as const;
/** Highest rate an operator may set, in percent. */
export const MAX_REBATE_RATE_PERCENT = 50;
/** Highest minimum charge or maximum rebate an operator may set, in yuan. */
export const MAX_REBATE_RULE_YUAN = 1_000_000;

/** Rebate rules in integer units: rate in basis points (1/100 of a percent), amounts in fen. */
export type TRebateRules = { rateBp: number; minChargeFen: number; maxRebateFen: number };

/**
 * The rebate of a recharge of `amountFen` (without fee or gift): rate x amount
 * floored to the fen, nothing below the minimum charge, at most the maximum
 * per recharge. The one function the console and the server use.
 */
export function rebateFenOf(amountFen: number, rules: TRebateRules): number {
  if (!Number.isSafeInteger(amountFen) || amountFen < 0)
    throw new RangeError(`amount must be a non-negative integer of fen, got ${amountFen}`);
  if (amountFen < rules.minChargeFen) return 0;
  return Math.min(Math.floor((amountFen * rules.rateBp) / 10_000), rules.maxRebateFen);
}

/** A number with at most two decimals (percent or yuan), as typed into a form or a JSON body. */
function hasTwoDecimalsAtMost(value: number): boolean {
  return Number.isFinite(value) && Math.abs(Math.round(value * FEN_PER_YUAN) - value * FEN_PER_YUAN) < 1e-6;
}

/** The rules as the API shows them (rate in percent, amounts in yuan). */
export const ZRebateConfig = z.object({
  version: z
    .number()
    .int()
    .meta({ examples: [1] }),
  rate: z.number().meta({ examples: [5] }),
  min_charge: z.number().meta({ examples: [10] }),
  max_rebate: z.number().meta({ examples: [100] }),
  effective_at: z.string(),
});
/** Parsed rebate rules. */
export type TRebateConfig = z.infer<typeof ZRebateConfig>;

/** A version of the rules in the operators' history: who made it. */
export const ZRebateConfigVersion = ZRebateConfig.extend({
  created_by: z.string().nullable(),
  is_current: z.boolean(),
});
/** Parsed rules version. */
export type TRebateConfigVersion = z.infer<typeof ZRebateConfigVersion>;

/** POST /invite/admin/rebate/config: a new version of the rules, effective from now. */
export const ZRebateConfigInput = z
  .object({
    rate: zJsonNumber()
      .min(0, { error: 'rebateRateRange' })
      .max(MAX_REBATE_RATE_PERCENT, { error: 'rebateRateRange' })
      .refine(hasTwoDecimalsAtMost, { error: 'twoDecimals' }),
    min_charge: zJsonNumber()
      .min(0, { error: 'rebateAmountRange' })
      .max(MAX_REBATE_RULE_YUAN, { error: 'rebateAmountRange' })
      .refine(hasTwoDecimalsAtMost, { error: 'twoDecimals' }),
    max_rebate: zJsonNumber()
      .min(0.01, { error: 'rebateAmountRange' })
      .max(MAX_REBATE_RULE_YUAN, { error: 'rebateAmountRange' })
      .refine(hasTwoDecimalsAtMost, { error: 'twoDecimals' }),
  })
  .meta({ examples: [{ rate: 5, min_charge: 10, max_rebate: 100 }] });
/** Parsed rules input. */
export type TRebateConfigInput = z.infer<typeof ZRebateConfigInput>;

/** GET /invite/info: my code and link, who invited me, my totals and the rate in force. */
export const ZInviteInfo = z.object({
  invite_code: z.string().meta({ examples: ['K7Q2M9XA'] }),
  invite_link: z.string().meta({ examples: ['https://console.example.com/invite/K7Q2M9XA'] }),
  /** Who invited me (display name), if anyone. */
  inviter_name: z.string().nullable(),
  invited_count: z.number().int(),
  /** Rebates paid to me, in yuan. */
  total_rebate: z.number(),
  /** Rebates earned and waiting to be paid, in yuan. */
  pending_rebate: z.number(),
  /** Rate in force, in percent. */
  rebate_rate: z.number(),
});
/** Parsed invite info. */
export type TInviteInfo = z.infer<typeof ZInviteInfo>;

/** One invited account (spec section 3): the invitee's e-mail masked. */
export const ZInviteRecord = z.object({
  invitee: z.string().meta({ examples: ['be***@example.com'] }),
  register_time: z.string(),
  rebate_count: z.number().int(),
  total_rebate: z.number(),
});
/** Parsed invite record. */
export type TInviteRecord = z.infer<typeof ZInviteRecord>;

/** One rebate (spec section 3). */
export const ZRebateRecord = z.object({
  id: z.number().int(),
  invitee: z.string(),
  charge_amount: z.number(),
  rebate_amount: z.number(),
  status: z.enum(REBATE_STATUSES),
  reason: z.enum(REBATE_REASONS).nullable(),
  /** When it was paid, failed or found unknown; null while pending. */
  processed_time: z.string().nullable(),
  created_at: z.string(),
});
/** Parsed rebate record. */
export type TRebateRecord = z.infer<typeof ZRebateRecord>;

/** A rebate as operators see it: both accounts, the order, the rules version, what a reversal took back. */
export const ZAdminRebateRecord = ZRebateRecord.extend({
  inviter_id: z.number().int(),
  inviter_email: z.string(),
  invitee_id: z.number().int(),
  invitee_email: z.string(),
  order_id: z.string(),
  rule_version: z.number().int(),
  /** Taken back from the inviter after a reversed recharge. */
  reversed_amount: z.number(),
  /** What a reversal could not take back (the inviter's balance was short): for the operator. */
  shortfall_amount: z.number(),
});
/** Parsed operator rebate record. */
export type TAdminRebateRecord = z.infer<typeof ZAdminRebateRecord>;

/** Filter of the rebate lists. */
export const ZRebateQuery = ZPageQuery.extend({
  status: z.enum(REBATE_STATUSES, { error: 'invalidValue' }).optional(),
});
/** Parsed rebate list query. */
export type TRebateQuery = z.infer<typeof ZRebateQuery>;

/** GET /invite/share/{code}, no token: whether the code invites, by whom (display name, never the e-mail), and the product's claims. */
export const ZInviteShare = z.object({
  invite_code: z.string(),
  is_valid: z.boolean(),
  /** The inviter's display name when the code is valid. */
  inviter_name: z.string().nullable(),
  /** Why the code does not invite (spec section 8), in the caller's language; null when valid. */
  message: z.string().nullable(),
  /** Registration needs an invite code: an invalid code's page cannot offer direct registration. */
  invite_required: z.boolean(),
  claims: ZClaims,
});
/** Parsed share info. */
export type TInviteShare = z.infer<typeof ZInviteShare>;

/** Invite and rebate (spec section 7; the admin calls under /invite/admin as the spec names them). */
export const INVITE_ROUTES = {
  inviteInfo: defineRoute({
    method: 'GET',
    path: '/invite/info',
    auth: 'user',
    summary: 'Invite code, link and totals',
    tag: 'invite',
    output: ZInviteInfo,
  }),
  inviteRecords: defineRoute({
    method: 'GET',
    path: '/invite/records',
    auth: 'user',
    summary: 'Invited users, newest first',
    tag: 'invite',
    input: ZPageQuery,
    output: zPage(ZInviteRecord),
  }),
  inviteRebateRecords: defineRoute({
    method: 'GET',
    path: '/invite/rebate/records',
    auth: 'user',
    isCachedPerUser: true,
    summary: 'Rebates earned, newest first',
    tag: 'invite',
    input: ZRebateQuery,
    output: zPage(ZRebateRecord),
  }),
  inviteRebateConfig: defineRoute({
    method: 'GET',
    path: '/invite/rebate/config',
    auth: 'user',
    summary: 'Rebate rules in force',
    tag: 'invite',
    output: ZRebateConfig,
  }),
  inviteShare: defineRoute({
    method: 'GET',
    path: '/invite/share/:code',
    auth: 'none',
    summary: 'Public invite share info',
    tag: 'invite',
    input: z.object({ code: z.string().max(64) }),
    output: ZInviteShare,
  }),
  inviteAdminRebateConfigUpdate: defineRoute({
    method: 'POST',
    path: '/invite/admin/rebate/config',
    auth: 'admin',
    summary: 'New version of the rebate rules, effective from now (admin)',
    tag: 'invite',
    input: ZRebateConfigInput,
    output: ZRebateConfigVersion,
  }),
  inviteAdminRebateConfigList: defineRoute({
    method: 'GET',
    path: '/invite/admin/rebate/config/list',
    auth: 'admin',
    summary: 'Rebate rule history, newest first (admin)',
    tag: 'invite',
    input: ZPageQuery,
    output: zPage(ZRebateConfigVersion),
  }),
  inviteAdminRebateList: defineRoute({
    method: 'GET',
    path: '/admin/invite/rebates',
    auth: 'admin',
    summary: 'Every rebate, newest first (admin)',
    tag: 'admin',
    input: ZRebateQuery,
    output: zPage(ZAdminRebateRecord),
  }),
} as const satisfies Record<string, TRouteDef>;
