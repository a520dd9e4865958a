import { z } from 'zod';
import { zProxyDays, zTokenIds } from './proxies-tokens';

/**
 * Renewals of IP proxies (spec sections 5 and 7): the renew calls and their
 * previews, the auto-renew switches, the latest auto-renewal and its undo, the
 * cancel-this-renewal link, and the payment options of renewals.
 */

/** Payment options of renewals (the balance is the only one). */
export const PAYWAYS = ['balance'] as const;
/** Body of the renew calls: a payment option must be selected (spec section 5). */
export const ZRenewBody = z.object({
  token_ids: zTokenIds,
  days: zProxyDays,
  payway: z.enum(PAYWAYS, { error: 'paywayRequired' }),
});
/** Answer of a renewal: per-token counts, the cost and the balance after it (yuan). */
export const ZRenewResult = z.object({
  success: z.number().int(),
  failed: z.number().int(),
  total: z.number().int(),
  cost: z.number(),
  balance: z.number(),
});
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
export const ZAutoRenewUndoResult = z.object({
  token_id: z.number().int(),
  refunded: z.number(),
  expires_at: z.string(),
  balance: z.number(),
});

/** The signed single-use token of a cancel-this-renewal link. */
const zRenewalCancelToken = z
  .string({ error: 'required' })
  .trim()
  .min(1, { error: 'required' })
  .max(200, { error: 'tooLong' });
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
export const ZAutoRenewBody = z.object({ token_ids: zTokenIds, auto_renew: z.boolean({ error: 'booleanRequired' }) });
/** One payment option of GET /token/payway/list. */
export const ZPayway = z.object({
  id: z.enum(PAYWAYS),
  name: z.string(),
  name_zh: z.string(),
  name_en: z.string(),
  balance: z.number(),
});
