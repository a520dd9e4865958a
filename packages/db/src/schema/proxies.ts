import { sql } from 'drizzle-orm';
import { PROXY_BILLINGS, PROXY_CATEGORIES, PROXY_NETWORKS, PROXY_PRODUCTS, TOKEN_STATUSES } from '@proxy/contract';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, userRef, fen, createdAt } from './columns';
import { users } from './users';

/** What a customer buys (the specification's proxy / token). */
export const proxyTokens = pgTable(
  'proxy_tokens',
  {
    id: id(),
    userId: userRef(),
    product: text('product', { enum: PROXY_PRODUCTS }).notNull(),
    category: text('category', { enum: PROXY_CATEGORIES }).notNull(),
    billing: text('billing', { enum: PROXY_BILLINGS }).notNull(),
    network: text('network', { enum: PROXY_NETWORKS }).notNull(),
    country: text('country').notNull(),
    state: text('state').notNull().default(''),
    city: text('city').notNull().default(''),
    /** Gateway credentials. */
    username: text('username').notNull(),
    password: text('password').notNull(),
    status: text('status', { enum: TOKEN_STATUSES }).notNull().default('enabled'),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    autoRenew: boolean('auto_renew').notNull().default(false),
    remark: text('remark').notNull().default(''),
    /** Pinned exit of a static token. */
    exitNodeId: bigint('exit_node_id', { mode: 'number' }),
    /** Traffic allowance in bytes (traffic products). */
    trafficLimitBytes: bigint('traffic_limit_bytes', { mode: 'number' }),
    trafficUsedBytes: bigint('traffic_used_bytes', { mode: 'number' }).notNull().default(0),
    /** Bytes handed to gateways in leases (never above the limit). */
    trafficLeasedBytes: bigint('traffic_leased_bytes', { mode: 'number' }).notNull().default(0),
    /** Days per period of IP products (renewal length). */
    periodDays: integer('period_days').notNull().default(0),
    /** Price of one period in fen (auto-renew charges it). */
    periodPriceFen: bigint('period_price_fen', { mode: 'number' }).notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The expiry an auto-renewal last failed for (no balance): the job tries once per period, then lets it expire. */
    autoRenewFailedFor: timestamp('auto_renew_failed_for', { withTimezone: true }),
    orderId: bigint('order_id', { mode: 'number' }),
    createdAt: createdAt(),
    /** Set by the database on every change; gateways load rows changed since their last look. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('proxy_tokens_username_key').on(t.username),
    index('proxy_tokens_user_idx').on(t.userId, t.product, t.billing, t.id),
    /** The lists by category and product (isp/static, isp/dynamic, idc/static), newest first. */
    index('proxy_tokens_user_category_idx').on(t.userId, t.category, t.product, t.id),
    /**
     * The live tokens of a user by list (category, product, billing): the lists' totals are
     * counted from this index alone (an index-only scan), never from the table's rows.
     */
    index('proxy_tokens_user_live_list_idx')
      .on(t.userId, t.category, t.product, t.billing)
      .where(sql`${t.deletedAt} IS NULL`),
    /** Every token of one user, newest first (the operators' list of a customer's proxies). */
    index('proxy_tokens_user_id_idx').on(t.userId, t.id),
    index('proxy_tokens_updated_idx').on(t.updatedAt),
    index('proxy_tokens_expiry_idx').on(t.status, t.expiresAt),
  ],
);

/** A purchase or renewal: what was bought and what it cost. */
export const proxyOrders = pgTable(
  'proxy_orders',
  {
    id: id(),
    userId: userRef(),
    action: text('action', { enum: ['purchase', 'renew', 'auto_renew'] }).notNull(),
    product: text('product', { enum: PROXY_PRODUCTS }).notNull(),
    category: text('category', { enum: PROXY_CATEGORIES }).notNull(),
    billing: text('billing', { enum: PROXY_BILLINGS }).notNull(),
    quantity: integer('quantity').notNull(),
    /** GB per token (traffic) or days per token (IP), as text to keep 0.1 exact. */
    amount: text('amount').notNull(),
    costFen: fen('cost_fen').notNull(),
    idempotencyKey: text('idempotency_key'),
    /** A keyed renewal's request (product, days, token ids) as a SHA-256 hex: its key answers again only that request. */
    requestFingerprint: text('request_fingerprint'),
    /** The price versions that priced it, by price key (price_versions.id; 0 = the list price of price_catalogue); null before versioned prices. */
    priceVersions: jsonb('price_versions').$type<Record<string, number>>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('proxy_orders_idempotency_key').on(t.userId, t.idempotencyKey),
    index('proxy_orders_user_idx').on(t.userId, t.id),
  ],
);

/**
 * The notice sent before an auto-renewal charges (features/alerts, kind
 * auto_renew_notice): one per token and expiry (the period it renews). Its
 * cancel link is signed for this row; used_at records that the link was used,
 * so it works exactly once, and it expires at charge_at.
 */
export const renewalNotices = pgTable(
  'renewal_notices',
  {
    id: id(),
    userId: userRef().references(() => users.id),
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    /** The token's expiry the renewal is for. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** When the auto-renew job charges (from then on the link is expired). */
    chargeAt: timestamp('charge_at', { withTimezone: true }).notNull(),
    amountFen: fen('amount_fen').notNull(),
    /** When the cancel link was used; null while unused. */
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('renewal_notices_key').on(t.tokenId, t.expiresAt),
    index('renewal_notices_user_idx').on(t.userId, t.id),
  ],
);

/**
 * One charged auto-renewal: what it cost, the expiry before and after it and
 * the token's metered bytes at the time, so the user can undo it within a day
 * when the proxy carried no traffic since (refund key `auto-renew-undo:<id>`).
 */
export const autoRenewals = pgTable(
  'auto_renewals',
  {
    id: id(),
    userId: userRef().references(() => users.id),
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    amountFen: fen('amount_fen').notNull(),
    previousExpiresAt: timestamp('previous_expires_at', { withTimezone: true }).notNull(),
    newExpiresAt: timestamp('new_expires_at', { withTimezone: true }).notNull(),
    /** proxy_tokens.traffic_used_bytes right after the renewal. */
    usedBytesAtRenewal: bigint('used_bytes_at_renewal', { mode: 'number' }).notNull(),
    renewedAt: timestamp('renewed_at', { withTimezone: true }).notNull(),
    /** When it was undone (refunded, expiry put back); null while it stands. */
    undoneAt: timestamp('undone_at', { withTimezone: true }),
  },
  (t) => [index('auto_renewals_token_idx').on(t.tokenId, t.id), index('auto_renewals_user_idx').on(t.userId, t.id)],
);
