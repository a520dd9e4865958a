import { sql } from 'drizzle-orm';
import {
  CODE_PURPOSES,
  IP_ENTRY_KINDS,
  IP_LISTS,
  OAUTH_PROVIDERS,
  PAYMENT_STATUSES,
  PAY_METHODS,
  PAY_MODES,
  PROXY_BILLINGS,
  PROXY_CATEGORIES,
  PROXY_NETWORKS,
  PROXY_PRODUCTS,
  REBATE_REASONS,
  REBATE_STATUSES,
  SIGN_IN_METHODS,
  SUPPLY_PRODUCTS,
  SUPPLY_STATUSES,
  SUPPLY_TYPES,
  TARGET_RULE_MODES,
  TOKEN_STATUSES,
  USDT_NETWORKS,
  USDT_TRANSFER_STATUSES,
  USAGE_LOG_OUTCOMES,
  USAGE_LOG_PROTOCOLS,
  USER_STATUSES,
  WORK_ORDER_ATTACHMENT_TYPES,
  WORK_ORDER_CATEGORIES,
  WORK_ORDER_STATUSES,
} from '@proxy/contract';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  varchar,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const id = () => bigserial({ mode: 'number' }).primaryKey();
const userRef = () => bigint('user_id', { mode: 'number' }).notNull();
const fen = (name: string) => bigint(name, { mode: 'number' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Customer and operator accounts. */
export const users = pgTable(
  'users',
  {
    id: id(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    /** argon2id hash; null for accounts that only sign in through GitHub or Google. */
    passwordHash: text('password_hash'),
    status: text('status', { enum: USER_STATUSES }).notNull().default('active'),
    /** Bumped by logout, password change or disabling: older access tokens answer -401. */
    tokenVersion: integer('token_version').notNull().default(0),
    /** Personal API key for the /api/v1 customer API. */
    apiKey: text('api_key').notNull(),
    inviteCode: text('invite_code').notNull(),
    invitedBy: bigint('invited_by', { mode: 'number' }),
    isAdmin: boolean('is_admin').notNull().default(false),
    avatar: text('avatar').notNull().default(''),
    /** Cumulative real recharge in fen (drives the "user" role). */
    totalRechargeFen: fen('total_recharge_fen').notNull().default(0),
    trialGrantedAt: timestamp('trial_granted_at', { withTimezone: true }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_username_key').on(sql`lower(${t.username})`),
    uniqueIndex('users_api_key_key').on(t.apiKey),
    uniqueIndex('users_invite_code_key').on(t.inviteCode),
    index('users_invited_by_idx').on(t.invitedBy),
    /** The invitee list: one inviter's accounts, newest first. */
    index('users_invited_by_id_idx').on(t.invitedBy, t.id),
  ],
);

/** Per-user balances in fen; the ledger is the history, this row the current state. */
export const balances = pgTable(
  'balances',
  {
    userId: bigint('user_id', { mode: 'number' }).primaryKey(),
    availableFen: fen('available_fen').notNull().default(0),
    frozenFen: fen('frozen_fen').notNull().default(0),
    /** Owed after an operator reversed a recharge the balance could not cover; the next top-up settles it first. */
    debtFen: fen('debt_fen').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('balances_non_negative', sql`${t.availableFen} >= 0 AND ${t.frozenFen} >= 0 AND ${t.debtFen} >= 0`)],
);

/** Kinds of ledger movement. */
export const LEDGER_KINDS = ['credit', 'debit', 'freeze', 'release', 'consume'] as const;

/**
 * Immutable money history. For each user, the sums of available_delta and
 * frozen_delta equal the balance row.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: id(),
    userId: userRef(),
    kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
    /** Why: trial, recharge, purchase, renew, supply, rebate, adjustment... */
    reason: text('reason').notNull(),
    availableDelta: fen('available_delta').notNull(),
    frozenDelta: fen('frozen_delta').notNull(),
    availableAfter: fen('available_after').notNull(),
    frozenAfter: fen('frozen_after').notNull(),
    /** What the movement is about (order id, token id...). */
    reference: text('reference'),
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('ledger_entries_idempotency_key').on(t.userId, t.idempotencyKey), index('ledger_entries_user_idx').on(t.userId, t.id)],
);

/** E-mailed verification codes (hashed). */
export const emailCodes = pgTable(
  'email_codes',
  {
    id: id(),
    email: text('email').notNull(),
    purpose: text('purpose', { enum: CODE_PURPOSES }).notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('email_codes_lookup_idx').on(t.email, t.purpose, t.createdAt)],
);

/** GitHub / Google identities linked to accounts. */
export const oauthAccounts = pgTable(
  'oauth_accounts',
  {
    provider: text('provider', { enum: OAUTH_PROVIDERS }).notNull(),
    providerUserId: text('provider_user_id').notNull(),
    userId: userRef(),
    email: text('email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerUserId] }), index('oauth_accounts_user_idx').on(t.userId)],
);

/** Pending OAuth sign-ins: state and PKCE verifier, single use. */
export const oauthStates = pgTable('oauth_states', {
  state: text('state').primaryKey(),
  provider: text('provider', { enum: OAUTH_PROVIDERS }).notNull(),
  codeVerifier: text('code_verifier').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Notifications shown in the console; texts in both languages. */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: userRef(),
    kind: text('kind').notNull(),
    titleZh: text('title_zh').notNull(),
    titleEn: text('title_en').notNull(),
    contentZh: text('content_zh').notNull(),
    contentEn: text('content_en').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.id),
    /** The notification list's order (newest first by time). */
    index('notifications_user_created_idx').on(t.userId, t.createdAt, t.id),
  ],
);

/**
 * IP whitelist and blacklist entries: a single address, a CIDR block or a
 * range, stored normalised (start/end as fixed-width hex for ordering).
 */
export const ipListEntries = pgTable(
  'ip_list_entries',
  {
    id: id(),
    userId: userRef(),
    list: text('list', { enum: IP_LISTS }).notNull(),
    /** Canonical text of the entry ("1.2.3.4", "10.0.0.0/24", "a-b"). */
    entry: text('entry').notNull(),
    kind: text('kind', { enum: IP_ENTRY_KINDS }).notNull(),
    family: integer('family').notNull(),
    /** First and last address as 32-digit hex. */
    startHex: text('start_hex').notNull(),
    endHex: text('end_hex').notNull(),
    remark: text('remark').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ip_list_entries_unique_range').on(t.userId, t.list, t.family, t.startHex, t.endHex),
    index('ip_list_entries_user_idx').on(t.userId, t.list, t.id),
  ],
);

/**
 * Target rules (packages/contract/src/target-rules.ts): an account's list
 * (token_id null) and proxies' own lists, one row per list. The rules are
 * stored canonical; gateways compile them when the gateway version changes.
 */
export const targetRuleLists = pgTable(
  'target_rule_lists',
  {
    id: id(),
    userId: userRef(),
    /** The proxy whose own list this is; null for the account's list. */
    tokenId: bigint('token_id', { mode: 'number' }),
    mode: text('mode', { enum: TARGET_RULE_MODES }).notNull(),
    rules: jsonb('rules').$type<string[]>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('target_rule_lists_account_key')
      .on(t.userId)
      .where(sql`${t.tokenId} IS NULL`),
    uniqueIndex('target_rule_lists_token_key').on(t.tokenId),
  ],
);

/**
 * One row whose version is bumped by every change the gateways must see
 * (tokens bought, disabled, reset, deleted, expired; IP lists). The same
 * transaction NOTIFYs GATEWAY_CHANGES_CHANNEL; gateways listen, and poll the
 * version in case a notification was lost.
 */
/** The NOTIFY channel of gateway_state changes (payload: the new version). */
export const GATEWAY_CHANGES_CHANNEL = 'gateway_changes';

/**
 * The NOTIFY channel of changes to an account's rows (migration 0027: triggers
 * on the tables the API's cached answers are made from); payload: the
 * account's id.
 */
export const USER_ROWS_CHANNEL = 'user_rows';

export const gatewayState = pgTable('gateway_state', {
  id: integer('id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Kinds of exit: residential ISP or data-center. */
export const EXIT_KINDS = ['residential', 'datacenter'] as const;
/** How an exit reaches the internet: the gateway host itself, or an upstream proxy. */
export const EXIT_EGRESS = ['direct', 'http', 'socks5'] as const;
/** Health of an exit as the inventory probe last found it. */
export const EXIT_HEALTHS = ['unknown', 'up', 'down'] as const;

/**
 * The inventory: ways out to the internet with a place. Direct nodes are
 * shared; an upstream node serves one static-IP token at a time (holder).
 */
export const exitNodes = pgTable(
  'exit_nodes',
  {
    id: id(),
    kind: text('kind', { enum: EXIT_KINDS }).notNull(),
    egress: text('egress', { enum: EXIT_EGRESS }).notNull(),
    /** Upstream proxy address ('' for direct nodes). */
    host: text('host').notNull().default(''),
    port: integer('port').notNull().default(0),
    username: text('username'),
    password: text('password'),
    /** ISO 3166-1 alpha-2, lower case. */
    country: text('country').notNull(),
    /** Region code or slug ('' when unknown). */
    state: text('state').notNull().default(''),
    /** City slug ('' when unknown). */
    city: text('city').notNull().default(''),
    /** State or region name as the import gave it ("California"), shown in area lists; '' when not given. */
    stateName: text('state_name').notNull().default(''),
    /** City name as the import gave it ("Los Angeles"), shown in area lists; '' when not given. */
    cityName: text('city_name').notNull().default(''),
    /** Public address traffic leaves from, when known (IP check: "is it one of our exits"). */
    exitIp: text('exit_ip'),
    status: text('status', { enum: ['active', 'disabled'] })
      .notNull()
      .default('active'),
    /** Static-IP token holding this upstream node exclusively. */
    holderTokenId: bigint('holder_token_id', { mode: 'number' }),
    /** What the inventory probe last found: 'down' after consecutive failures; dynamic tokens skip down nodes while their area has others. */
    health: text('health', { enum: EXIT_HEALTHS }).notNull().default('unknown'),
    /** Time of the probe's last successful request through this node, in ms. */
    latencyMs: integer('latency_ms'),
    /** When the probe last tried this node. */
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    /** Failed probe attempts in a row (0 after a success). */
    probeFailures: integer('probe_failures').notNull().default(0),
    /** Why the last probe attempt failed (short), or null. */
    probeError: text('probe_error'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('exit_nodes_endpoint_key').on(t.kind, t.egress, t.host, t.port, sql`coalesce(${t.username}, '')`, t.country, t.state, t.city),
    index('exit_nodes_area_idx').on(t.kind, t.country, t.state, t.city),
    index('exit_nodes_holder_idx').on(t.holderTokenId),
  ],
);

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
  (t) => [uniqueIndex('proxy_orders_idempotency_key').on(t.userId, t.idempotencyKey), index('proxy_orders_user_idx').on(t.userId, t.id)],
);

/** Metered traffic per token and hour. */
export const tokenUsage = pgTable(
  'token_usage',
  {
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    userId: userRef(),
    /** Start of the hour (UTC). */
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.bucket] }), index('token_usage_user_idx').on(t.userId, t.bucket)],
);

/**
 * The per-connection usage log setting of an account (a row only once the
 * user chose): off by default; rows are kept `retention_days` (1-30) days.
 * Gateways load the enabled rows with their state (a change bumps the version).
 * `trim_until`: set when the retention is shortened, the last day rows written
 * under the longer retention can still exist; until then the retention job
 * deletes this account's rows older than the new retention (see
 * usage_log_entries).
 */
export const usageLogSettings = pgTable(
  'usage_log_settings',
  {
    userId: bigint('user_id', { mode: 'number' }).primaryKey(),
    enabled: boolean('enabled').notNull().default(false),
    retentionDays: integer('retention_days').notNull().default(7),
    trimUntil: date('trim_until', { mode: 'string' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('usage_log_settings_retention_check', sql`${t.retentionDays} BETWEEN 1 AND 30`)],
);

/**
 * One connection of an opted-in user's proxy, written by the gateway in
 * batches (ids in gateway_usage_batches make a batch sent again a no-op).
 * `day` is the UTC date of the end; bytes are exactly what the meter counted
 * for the connection. `expires_on` is the last day the row is kept: `day` plus
 * the owner's retention when it was written.
 *
 * PARTITIONED (by hand, migration 0026; drizzle-kit cannot say it): `PARTITION
 * BY RANGE (expires_on)`, one partition per day (`usage_log_entries_pYYYYMMDD`
 * holds the rows expiring that day) and a DEFAULT partition
 * (`usage_log_entries_default`) that takes whatever arrives before its day's
 * partition exists. The server's usage-log jobs create the partitions of the
 * coming days and drop a partition whole once its day has passed. Hence the
 * primary key (id, expires_on): it must hold the partition key.
 */
export const usageLogEntries = pgTable(
  'usage_log_entries',
  {
    id: bigserial({ mode: 'number' }).notNull(),
    userId: userRef(),
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    protocol: text('protocol', { enum: USAGE_LOG_PROTOCOLS }).notNull(),
    sourceIp: text('source_ip').notNull(),
    targetHost: text('target_host').notNull(),
    targetPort: integer('target_port').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }).notNull(),
    bytesUp: bigint('bytes_up', { mode: 'number' }).notNull(),
    bytesDown: bigint('bytes_down', { mode: 'number' }).notNull(),
    outcome: text('outcome', { enum: USAGE_LOG_OUTCOMES }).notNull(),
    reason: text('reason'),
    expiresOn: date('expires_on', { mode: 'string' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.expiresOn] }),
    index('usage_log_entries_token_idx').on(t.tokenId, t.endedAt),
    index('usage_log_entries_user_day_idx').on(t.userId, t.day),
  ],
);

/**
 * Usage batches a gateway has written: each flush is one batch with its own id,
 * recorded in the transaction that writes its bytes, so a batch sent again
 * (its commit's answer was lost) is skipped. Rows older than a day are purged.
 */
export const gatewayUsageBatches = pgTable(
  'gateway_usage_batches',
  {
    id: uuid('id').primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('gateway_usage_batches_created_idx').on(t.createdAt)],
);

/**
 * Running gateways (one row per process) and their heartbeat. A gateway whose
 * heartbeat is stale (killed, cut off) has its leases returned by a live one.
 */
export const gatewayInstances = pgTable('gateway_instances', {
  id: uuid('id').primaryKey(),
  /** host:pid, for operators. */
  label: text('label').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The part of a traffic token's `traffic_leased_bytes` each gateway holds and
 * has not yet written as used: claimed leases minus flushed usage. Returned
 * (subtracted from `traffic_leased_bytes`) on a clean stop, or by the sweep
 * when the gateway's heartbeat is stale.
 */
export const gatewayLeases = pgTable(
  'gateway_leases',
  {
    instanceId: uuid('instance_id').notNull(),
    tokenId: bigint('token_id', { mode: 'number' })
      .notNull()
      .references(() => proxyTokens.id, { onDelete: 'cascade' }),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.instanceId, t.tokenId] })],
);

/** List prices in fen, editable by operators; defaults come from the contract. */
export const priceCatalogue = pgTable('price_catalogue', {
  key: text('key').primaryKey(),
  amountFen: fen('amount_fen').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Operators' price changes: one row per key and change, never updated. The
 * price of a key is its latest version whose effective time has passed (ties:
 * the higher id), else its price_catalogue row (the list price, version 0).
 * A version with a future effective time is scheduled and takes over by itself.
 */
export const priceVersions = pgTable(
  'price_versions',
  {
    /** The version number shown to operators and recorded by purchases. */
    id: id(),
    key: text('key').notNull(),
    amountFen: fen('amount_fen').notNull(),
    effectiveAt: timestamp('effective_at', { withTimezone: true }).notNull(),
    /** The operator who made it. */
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [index('price_versions_key_idx').on(t.key, t.effectiveAt, t.id), check('price_versions_amount', sql`${t.amountFen} > 0`)],
);

/** Generated endpoint files (spider records). */
export const spiderRecords = pgTable(
  'spider_records',
  {
    id: id(),
    userId: userRef(),
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    /** Area, session settings and line format used. */
    params: text('params').notNull(),
    lineCount: integer('line_count').notNull(),
    content: text('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('spider_records_user_idx').on(t.userId, t.id)],
);

/**
 * Sign-in sessions: every access token carries its session id. Signing out
 * ends this row only; the user's token version still ends every session at
 * once (sign out everywhere, password change or reset, disabling).
 */
export const userSessions = pgTable(
  'user_sessions',
  {
    id: id(),
    userId: userRef().references(() => users.id),
    method: text('method', { enum: SIGN_IN_METHODS }).notNull(),
    /** Device as the browser names itself (User-Agent), cut to 256 characters. */
    userAgent: text('user_agent').notNull().default(''),
    /** Address of the sign-in, then of the latest use. */
    ip: text('ip').notNull().default(''),
    createdAt: createdAt(),
    /** Written at most once a minute. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when the session is ended (sign-out, or ended from the session list). */
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [index('user_sessions_user_idx').on(t.userId, t.id)],
);

/** Outcome of an audited operator call. */
export const AUDIT_RESULTS = ['ok', 'error'] as const;

/**
 * What operators did: one row per admin call that changes data, written by the
 * routing layer. Rows are never updated or deleted (a trigger refuses both).
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: id(),
    operatorId: bigint('operator_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** Route name in the contract's table, e.g. "adminUserSetStatus". */
    route: text('route').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    /** The id the call acted on (its :id path parameter), if any. */
    targetId: text('target_id'),
    /** The call's input with passwords, codes, keys and tokens removed. */
    input: jsonb('input').notNull(),
    result: text('result', { enum: AUDIT_RESULTS }).notNull(),
    /** Error name when the call failed. */
    errorCode: text('error_code'),
    ip: text('ip').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('audit_entries_created_idx').on(t.createdAt), index('audit_entries_operator_idx').on(t.operatorId, t.createdAt)],
);

/**
 * Attempt counters of the sign-in rate limits, shared by every API instance on
 * PostgreSQL (rate-limiter-flexible's table layout; PGlite counts in memory).
 */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  /** Unix time in milliseconds when the window ends. */
  expire: bigint('expire', { mode: 'number' }),
});

/**
 * Recharge options: an amount and the gift the balance receives on top of it.
 * Operators change the set as a whole; each change is a new version with an
 * effective time (the latest version in effect is current), so an order
 * records the version whose gift it got.
 */
export const chargeOptions = pgTable(
  'charge_options',
  {
    id: id(),
    version: integer('version').notNull(),
    amountFen: fen('amount_fen').notNull(),
    giftFen: fen('gift_fen').notNull().default(0),
    sort: integer('sort').notNull().default(0),
    /** When the version takes over (the same for every row of a version); the current set is the latest version in effect. */
    effectiveAt: timestamp('effective_at', { withTimezone: true }).notNull().defaultNow(),
    /** The operator who made the version; null for the defaults of a fresh install. */
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('charge_options_effective_idx').on(t.effectiveAt, t.version),
    uniqueIndex('charge_options_version_amount_key').on(t.version, t.amountFen),
    check('charge_options_amounts', sql`${t.amountFen} > 0 AND ${t.giftFen} >= 0`),
  ],
);

/**
 * Payment methods an operator switched on or off (no row: on). A method is
 * offered when its provider is configured and it is on.
 */
export const payMethodSettings = pgTable('pay_method_settings', {
  method: text('method', { enum: PAY_METHODS }).primaryKey(),
  isEnabled: boolean('is_enabled').notNull(),
  updatedBy: bigint('updated_by', { mode: 'number' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Recharge orders (the customer's bills). The customer pays price_fen
 * (amount + fee); on success the balance receives value_fen (amount + gift)
 * through the ledger, in the transaction that moves the order out of pending.
 */
export const payOrders = pgTable(
  'pay_orders',
  {
    /** Our order number, sent to the provider as out_trade_no. */
    id: text('id').primaryKey(),
    userId: userRef(),
    method: text('method', { enum: PAY_METHODS }).notNull(),
    mode: text('mode', { enum: PAY_MODES }).notNull(),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull().default('pending'),
    amountFen: fen('amount_fen').notNull(),
    giftFen: fen('gift_fen').notNull().default(0),
    feeFen: fen('fee_fen').notNull(),
    priceFen: fen('price_fen').notNull(),
    valueFen: fen('value_fen').notNull(),
    optionVersion: integer('option_version'),
    isSandbox: boolean('is_sandbox').notNull().default(false),
    /** What the customer opens or scans. */
    payUrl: text('pay_url'),
    qrCode: text('qr_code'),
    /** The provider's transaction id, once paid. */
    providerTxId: text('provider_tx_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** Paid after the order had timed out, been cancelled or failed: credited all the same. */
    isPaidLate: boolean('is_paid_late').notNull().default(false),
    /** USDT orders: the exact amount to send, in 10^-6 USDT (unique among the network's open orders; usdt_amount_holds). */
    cryptoAmountUnits: bigint('crypto_amount_units', { mode: 'number' }),
    /** USDT orders: our receiving address when the order was made. */
    cryptoAddress: text('crypto_address'),
    /** USDT orders: yuan per USDT, frozen when the order was made (decimal text). */
    cryptoRate: text('crypto_rate'),
    /** Reversed by an operator (a refund made outside): when, why, what was taken back and what became debt. */
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    reversalNote: text('reversal_note'),
    reversedFen: fen('reversed_fen'),
    reversalDebtFen: fen('reversal_debt_fen'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('pay_orders_user_idx').on(t.userId, t.createdAt),
    index('pay_orders_pending_idx').on(t.status, t.expiresAt),
    index('pay_orders_crypto_amount_idx').on(t.method, t.cryptoAmountUnits),
    uniqueIndex('pay_orders_provider_tx_key').on(t.method, t.providerTxId),
    check('pay_orders_amounts', sql`${t.amountFen} > 0 AND ${t.priceFen} = ${t.amountFen} + ${t.feeFen} AND ${t.valueFen} = ${t.amountFen} + ${t.giftFen}`),
  ],
);

/** Outcomes of a payment notification as logged. */
export const PAY_NOTIFICATION_RESULTS = ['credited', 'replay', 'failed', 'refused'] as const;

/** Every payment notification received, with what came of it (refusals with their reason). */
export const payNotifications = pgTable(
  'pay_notifications',
  {
    id: id(),
    method: text('method', { enum: PAY_METHODS }).notNull(),
    orderId: text('order_id'),
    result: text('result', { enum: PAY_NOTIFICATION_RESULTS }).notNull(),
    reason: text('reason'),
    ip: text('ip').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('pay_notifications_order_idx').on(t.orderId), index('pay_notifications_created_idx').on(t.createdAt)],
);

/**
 * Final USDT transfers of the official contract to our addresses, each once:
 * the key (network, transaction, log index) makes a transfer seen by two
 * watchers, or again after a restart, a no-op. A transfer either paid an
 * order (credited, through the ledger) or waits for an operator (unmatched);
 * none is dropped.
 */
export const usdtTransfers = pgTable(
  'usdt_transfers',
  {
    id: id(),
    network: text('network', { enum: USDT_NETWORKS }).notNull(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockTime: timestamp('block_time', { withTimezone: true }).notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    /** 10^-6 USDT, exact (a transfer may exceed any order). */
    amountUnits: numeric('amount_units', { precision: 78, scale: 0 }).notNull(),
    status: text('status', { enum: USDT_TRANSFER_STATUSES }).notNull(),
    /** The order it paid. */
    orderId: text('order_id'),
    /** The customer it was credited to. */
    userId: bigint('user_id', { mode: 'number' }),
    /** Why it matched no order. */
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('usdt_transfers_key').on(t.network, t.txHash, t.logIndex),
    index('usdt_transfers_status_idx').on(t.status, t.createdAt),
    check('usdt_transfers_amount', sql`${t.amountUnits} > 0`),
  ],
);

/** Where each network's watcher goes on: TRON, the block time (ms) it lists from; Ethereum, the next block it scans. Only moves forward. */
export const usdtWatchCursors = pgTable('usdt_watch_cursors', {
  network: text('network', { enum: USDT_NETWORKS }).primaryKey(),
  position: bigint('position', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The USDT amounts orders hold, one order per (network, amount) at a time:
 * an order holds its amount, paid or not, until its window for late
 * transfers has passed, so a transfer's amount names at most one order.
 */
export const usdtAmountHolds = pgTable(
  'usdt_amount_holds',
  {
    network: text('network', { enum: USDT_NETWORKS }).notNull(),
    amountUnits: bigint('amount_units', { mode: 'number' }).notNull(),
    orderId: text('order_id').notNull(),
    heldUntil: timestamp('held_until', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.network, t.amountUnits] })],
);

/**
 * Versions of the rebate rules (rate in basis points, amounts in fen). The
 * highest version is in force; every change is a new row, never an update,
 * and each rebate records the version that priced it.
 */
export const rebateRuleVersions = pgTable(
  'rebate_rule_versions',
  {
    version: integer('version').primaryKey(),
    rateBp: integer('rate_bp').notNull(),
    minChargeFen: fen('min_charge_fen').notNull(),
    maxRebateFen: fen('max_rebate_fen').notNull(),
    /** The operator who made it; null for the defaults of a fresh install. */
    createdBy: bigint('created_by', { mode: 'number' }),
    effectiveAt: timestamp('effective_at', { withTimezone: true }).notNull(),
  },
  (t) => [check('rebate_rule_versions_values', sql`${t.rateBp} BETWEEN 0 AND 5000 AND ${t.minChargeFen} >= 0 AND ${t.maxRebateFen} > 0`)],
);

/**
 * Rebates: one per recharge order of an invitee (order_id is unique), created
 * pending in the settlement's transaction and paid to the inviter by a job
 * through the ledger (idempotency key rebate:<order id>).
 */
export const rebates = pgTable(
  'rebates',
  {
    id: id(),
    orderId: text('order_id').notNull(),
    inviterId: bigint('inviter_id', { mode: 'number' }).notNull(),
    inviteeId: bigint('invitee_id', { mode: 'number' }).notNull(),
    /** The recharge amount (without fee or gift). */
    chargeFen: fen('charge_fen').notNull(),
    rebateFen: fen('rebate_fen').notNull(),
    ruleVersion: integer('rule_version').notNull(),
    status: text('status', { enum: REBATE_STATUSES }).notNull().default('pending'),
    reason: text('reason', { enum: REBATE_REASONS }),
    /** Not paid before this (REBATE_HOLD_HOURS after the recharge). */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    /** Taken back after a reversed recharge, and what could not be (the inviter's balance was short). */
    reversedFen: fen('reversed_fen').notNull().default(0),
    shortfallFen: fen('shortfall_fen').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('rebates_order_key').on(t.orderId),
    index('rebates_inviter_idx').on(t.inviterId, t.id),
    index('rebates_due_idx').on(t.status, t.dueAt),
    check('rebates_amounts', sql`${t.rebateFen} > 0 AND ${t.chargeFen} > 0 AND ${t.reversedFen} >= 0 AND ${t.shortfallFen} >= 0`),
  ],
);

/**
 * Notices the operator publishes for the console's notice dialog; the newest
 * row is the notice shown. A new row makes every user see it again ("do not
 * show again" is stored per notice id in the browser).
 */
export const siteNotices = pgTable('site_notices', {
  id: id(),
  titleZh: text('title_zh').notNull(),
  titleEn: text('title_en').notNull(),
  contentZh: text('content_zh').notNull(),
  contentEn: text('content_en').notNull(),
  publishedBy: bigint('published_by', { mode: 'number' }).notNull(),
  publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Supply (restock) requests: the fee (cost_fen) is frozen on submit and, in
 * the one transaction that ends the request, consumed (success, with the
 * proxy order of the allocation) or released (cancelled, failed, refunded).
 */
export const supplyRequests = pgTable(
  'supply_requests',
  {
    id: id(),
    userId: userRef(),
    type: text('type', { enum: SUPPLY_TYPES }).notNull(),
    product: text('product', { enum: SUPPLY_PRODUCTS }).notNull(),
    network: text('network', { enum: PROXY_NETWORKS }).notNull(),
    /** GB (traffic) or IPs (ip). */
    amount: integer('amount').notNull(),
    /** IP requests: days of each IP. */
    days: integer('days'),
    /** ISO 3166-1 alpha-2 country code. */
    region: text('region').notNull(),
    waitDays: integer('wait_days').notNull(),
    costFen: fen('cost_fen').notNull(),
    remark: text('remark').notNull().default(''),
    contactEmail: text('contact_email').notNull(),
    status: text('status', { enum: SUPPLY_STATUSES }).notNull().default('pending'),
    failReason: text('fail_reason'),
    /** The client's Idempotency-Key of the submit. */
    idempotencyKey: text('idempotency_key'),
    /** The operator who took it. */
    operatorId: bigint('operator_id', { mode: 'number' }),
    /** The proxy order of the allocation (success). */
    orderId: bigint('order_id', { mode: 'number' }),
    createdAt: createdAt(),
    /** created_at + wait_days: an open request past it is refunded. */
    deadlineAt: timestamp('deadline_at', { withTimezone: true }).notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('supply_requests_idempotency_key').on(t.userId, t.idempotencyKey),
    index('supply_requests_user_idx').on(t.userId, t.id),
    index('supply_requests_open_idx').on(t.status, t.deadlineAt),
    check('supply_requests_values', sql`${t.amount} > 0 AND ${t.costFen} > 0 AND ${t.waitDays} BETWEEN 1 AND 30`),
  ],
);

/** Binary data (bytea): Buffer both on PostgreSQL (node-postgres) and on PGlite (Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Work orders (tickets): a customer's question with a category and a subject;
 * the conversation is in work_order_messages. supply_request_id names one of
 * the customer's supply requests (supply_requests, no foreign key here).
 */
export const workOrders = pgTable(
  'work_orders',
  {
    id: id(),
    userId: userRef().references(() => users.id),
    category: text('category', { enum: WORK_ORDER_CATEGORIES }).notNull(),
    subject: text('subject').notNull(),
    status: text('status', { enum: WORK_ORDER_STATUSES }).notNull().default('open'),
    tokenId: bigint('token_id', { mode: 'number' }),
    supplyRequestId: bigint('supply_request_id', { mode: 'number' }),
    createdAt: createdAt(),
    /** Time of the last message or change of state. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** When it was closed or cancelled. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    index('work_orders_user_idx').on(t.userId, t.id),
    index('work_orders_queue_idx').on(t.status, t.updatedAt),
    /** The work orders about a supply request (the supply list links each request to its newest one). */
    index('work_orders_supply_idx').on(t.supplyRequestId, t.id),
  ],
);

/** The messages of a work order's conversation, by the customer or an operator. */
export const workOrderMessages = pgTable(
  'work_order_messages',
  {
    id: id(),
    workOrderId: bigint('work_order_id', { mode: 'number' })
      .notNull()
      .references(() => workOrders.id),
    /** The customer, or the operator who wrote it. */
    authorId: bigint('author_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    isOperator: boolean('is_operator').notNull(),
    content: text('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('work_order_messages_order_idx').on(t.workOrderId, t.id)],
);

/**
 * Images sent with work order messages, stored in the database so every API
 * instance serves them. An upload belongs to its uploader and waits (no
 * message yet) until a new work order or a reply takes it.
 */
export const workOrderAttachments = pgTable(
  'work_order_attachments',
  {
    id: id(),
    userId: userRef().references(() => users.id),
    messageId: bigint('message_id', { mode: 'number' }).references(() => workOrderMessages.id),
    filename: text('filename').notNull(),
    contentType: text('content_type', { enum: WORK_ORDER_ATTACHMENT_TYPES }).notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    data: bytea('data').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('work_order_attachments_message_idx').on(t.messageId),
    index('work_order_attachments_user_idx').on(t.userId, t.messageId),
    check('work_order_attachments_size', sql`${t.sizeBytes} > 0 AND ${t.sizeBytes} <= 5242880`),
  ],
);

/**
 * Two-factor sign-in (TOTP, RFC 6238) of an account: one row from the start
 * of enrolment; enabled_at is set when the user confirms with a code (null:
 * enrolment started, not on). last_used_step is the time step of the latest
 * code accepted, so a code is never accepted twice within its window.
 */
export const userTotp = pgTable('user_totp', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id),
  /** Base32 shared secret. */
  secret: text('secret').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** Single-use recovery codes of two-factor sign-in, stored as SHA-256 hashes; used_at set when one is spent. */
export const userRecoveryCodes = pgTable(
  'user_recovery_codes',
  {
    id: id(),
    userId: userRef().references(() => users.id),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('user_recovery_codes_user_hash_key').on(t.userId, t.codeHash)],
);

/** Operator-set settings, one row per key (value as JSON). */
export const systemSettings = pgTable('system_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A user's alert settings (issue 20): which traffic thresholds alert, the
 * balance under which the account alerts (off while null), and each alert
 * kind's channels. An account without a row has the defaults.
 */
export const alertSettings = pgTable('alert_settings', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id),
  /** Percentages of a traffic allowance that alert (of 50, 80, 100). */
  usageThresholds: integer('usage_thresholds').array().notNull(),
  /** Available balance in fen under which the account alerts; null is off. */
  balanceLowFen: fen('balance_low_fen'),
  /** Bumped when the balance is back at or above the threshold (or the threshold changes): the next fall is a new alert. */
  balanceLowPeriod: integer('balance_low_period').notNull().default(0),
  /** Whether the current balance period already alerted. */
  isBalanceLowAlerted: boolean('is_balance_low_alerted').notNull().default(false),
  /** Channels on or off per alert kind: { kind: { console, email } }; a kind missing is the default. */
  channels: jsonb('channels').$type<Record<string, { console?: boolean; email?: boolean }>>().notNull(),
  /** The language of the alert e-mails (the console's language when the settings were saved). */
  lang: text('lang', { enum: ['zh', 'en'] })
    .notNull()
    .default('zh'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One record per alert: what happened (kind), to what (subject: a proxy or
 * the account) and in which period; the unique key makes every alert written
 * once however many API instances run the jobs. The channels (console
 * notification, e-mail; later webhooks) are delivered from this record.
 */
export const alertEvents = pgTable(
  'alert_events',
  {
    id: id(),
    userId: userRef().references(() => users.id),
    kind: text('kind').notNull(),
    subjectType: text('subject_type', { enum: ['proxy', 'account'] }).notNull(),
    subjectId: bigint('subject_id', { mode: 'number' }).notNull(),
    /** The period the alert belongs to: an allowance and threshold, an expiry, a balance period. */
    period: text('period').notNull(),
    payload: jsonb('payload').$type<Record<string, string | number | null>>().notNull(),
    /** The e-mail channel: none (off), pending (to send), sent or failed. */
    mailState: text('mail_state', { enum: ['none', 'pending', 'sent', 'failed'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('alert_events_key').on(t.subjectType, t.subjectId, t.kind, t.period),
    index('alert_events_user_idx').on(t.userId, t.id),
    index('alert_events_mail_idx').on(t.mailState, t.id),
  ],
);

/**
 * A customer's webhook endpoint (at most 5 per account): an https:// URL, the
 * events it subscribes to and its signing secret. Deliveries failing for 3
 * days turn it off (disabled_reason "failing").
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: id(),
    userId: userRef().references(() => users.id),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /** HMAC-SHA256 key of the signatures (shown to the user once). */
    secret: text('secret').notNull(),
    events: text('events').array().notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    disabledReason: text('disabled_reason', { enum: ['failing'] }),
    /** The first failed delivery since the last success; null while it succeeds. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_endpoints_user_idx').on(t.userId, t.id)],
);

/**
 * One event for a user's webhooks, written in the transaction of what
 * happened. `subject` (e.g. "proxy:12") orders deliveries: a later event of
 * a subject waits until the earlier one is delivered or given up.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: id(),
    userId: userRef().references(() => users.id),
    type: text('type').notNull(),
    subject: text('subject').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_events_user_idx').on(t.userId, t.id)],
);

/**
 * The delivery queue and log: one row per event and endpoint (a resend adds
 * a row). The job claims a due row with a lease (lease_until); a server that
 * dies mid-delivery leaves the lease to expire and another pass redelivers it.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    endpointId: bigint('endpoint_id', { mode: 'number' })
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** Due time of the next attempt; null: at once. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** Set by the first attempt: retries stop after it (24 h). */
    giveUpAt: timestamp('give_up_at', { withTimezone: true }),
    /** An attempt in progress holds the row until then. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    responseCode: integer('response_code'),
    latencyMs: integer('latency_ms'),
    responseExcerpt: text('response_excerpt').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_deliveries_pending_idx')
      .on(t.endpointId, t.subject, t.id)
      .where(sql`${t.status} = 'pending'`),
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
  (t) => [uniqueIndex('renewal_notices_key').on(t.tokenId, t.expiresAt), index('renewal_notices_user_idx').on(t.userId, t.id)],
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
