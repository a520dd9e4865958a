import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  POOL_AREA_CASES,
  POOL_COVERAGE_MODES,
  POOL_PROTOCOLS,
  POOL_STATUSES,
  type TPoolArea,
  type TPoolAreaSpelling,
  type TPoolLastCheck,
} from '@proxy/contract';
import { createdAt, fen, id } from './columns';
import { gatewayInstances } from './gateway';
import { EXIT_KINDS } from './inventory';

/** The secret box's purpose (additional data) of `pools.password`. */
export const POOL_PASSWORD_PURPOSE = 'pools.password';

/** One endpoint of a pool (tried in the order of the list). */
export type TPoolEndpoint = { host: string; port: number };

/**
 * Upstream pools (backconnect providers): one or more gateway addresses of a provider whose username, rendered
 * from the template, chooses the area and a sticky session (docs/pools.md). Not rows of exit_nodes: a pool is one
 * account serving many areas, each connection's exit chosen by the provider.
 */
export const pools = pgTable(
  'pools',
  {
    id: id(),
    name: text('name').notNull(),
    /** Residential or data-center traffic (which products may use it). */
    kind: text('kind', { enum: EXIT_KINDS }).notNull(),
    protocol: text('protocol', { enum: POOL_PROTOCOLS }).notNull(),
    /** host:port pairs, tried in order when one does not answer. */
    endpoints: jsonb('endpoints').$type<TPoolEndpoint[]>().notNull(),
    /** The account name at the provider ({user} of the template). */
    username: text('username').notNull(),
    /** Sealed with the secret box (POOL_PASSWORD_PURPOSE); write-only through the API. */
    password: text('password').notNull(),
    /** The username grammar (packages/contract/src/pools-template.ts). */
    usernameTemplate: text('username_template').notNull(),
    areaCase: text('area_case', { enum: POOL_AREA_CASES }).notNull().default('lower'),
    /** The provider's words for some of our areas (imported CSV). */
    areaMapping: jsonb('area_mapping').$type<TPoolAreaSpelling[]>().notNull().default([]),
    coverageMode: text('coverage_mode', { enum: POOL_COVERAGE_MODES }).notNull().default('all'),
    /** The areas served when coverage_mode is 'list' (imported CSV); an entry serves the areas below it too. */
    coverage: jsonb('coverage').$type<TPoolArea[]>().notNull().default([]),
    /** What a GB carried through the pool costs the operator, in fen (exact; a GB is 1024^3 bytes, as customers' allowances count). */
    costPerGbFen: fen('cost_per_gb_fen').notNull().default(0),
    /** Lower is tried first; weight shares the connections among pools of one priority. */
    priority: integer('priority').notNull().default(10),
    weight: integer('weight').notNull().default(100),
    /** Simultaneous connections one gateway process opens through the pool. */
    maxConnections: integer('max_connections').notNull().default(1000),
    /**
     * The response header in which the pool names a tunnel's exit address (CONNECT answers), if it does: sessions of
     * one account are then kept off each other's exits, and an exit change is seen.
     */
    exitIpHeader: text('exit_ip_header'),
    /** Minutes a sticky session may stay idle before the provider drops it (null: not stated). */
    sessionIdleMinutes: integer('session_idle_minutes'),
    status: text('status', { enum: POOL_STATUSES }).notNull().default('paused'),
    /** The operator's last check (its outcome only: never the password). */
    lastCheck: jsonb('last_check').$type<TPoolLastCheck>(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pools_name_key').on(sql`lower(${t.name})`),
    check(
      'pools_numbers',
      sql`${t.costPerGbFen} >= 0 AND ${t.priority} >= 0 AND ${t.weight} >= 1 AND ${t.maxConnections} >= 1`,
    ),
  ],
);

/** What carried a connection's bytes: a pool, an exit (exit_nodes), or nothing (refused before any dial). */
export const CARRIER_KINDS = ['pool', 'exit', 'none'] as const;
export type TCarrierKind = (typeof CARRIER_KINDS)[number];

/**
 * Metered bytes per UTC day, token, carrier and area, written by the gateway in the transaction of the usage batch
 * they belong to (so exactly once, and summing to token_usage's bytes of the token exactly). The economics of pools
 * and exits (cost, revenue, margin) are read from here. `carrier_id` is the pool's or the exit's id (0 for 'none');
 * `country` is the area the connection was for ('' when the token has none).
 */
export const carrierUsage = pgTable(
  'carrier_usage',
  {
    day: date('day', { mode: 'string' }).notNull(),
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    carrierKind: text('carrier_kind', { enum: CARRIER_KINDS }).notNull(),
    carrierId: bigint('carrier_id', { mode: 'number' }).notNull().default(0),
    country: text('country').notNull().default(''),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    /** Bytes not charged to the customer (lost before the target answered; failed dials' exchanges): the operator's cost. */
    unchargedBytes: bigint('uncharged_bytes', { mode: 'number' }).notNull().default(0),
    /** Connections that ended on this day through the carrier. */
    connections: bigint('connections', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.tokenId, t.carrierKind, t.carrierId, t.country] }),
    index('carrier_usage_carrier_idx').on(t.carrierKind, t.carrierId, t.day),
  ],
);

/**
 * Each gateway process's view of each pool (failover and the circuit breaker are per process): its figures over its
 * last window, reported every few seconds, so the operator sees the fleet. Removed with the gateway's instance row.
 */
export const poolHealth = pgTable(
  'pool_health',
  {
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => gatewayInstances.id, { onDelete: 'cascade' }),
    poolId: bigint('pool_id', { mode: 'number' })
      .notNull()
      .references(() => pools.id, { onDelete: 'cascade' }),
    /** Dials through the pool in the window, those that got a tunnel, and their summed connect time. */
    attempts: bigint('attempts', { mode: 'number' }).notNull().default(0),
    successes: bigint('successes', { mode: 'number' }).notNull().default(0),
    connectMsTotal: bigint('connect_ms_total', { mode: 'number' }).notNull().default(0),
    /** Failed dials in the window by reason (bad-credentials, area-not-served, refused, timeout, ...). */
    refusals: jsonb('refusals').$type<Record<string, number>>().notNull().default({}),
    /** Open connections through the pool at the report. */
    open: integer('open').notNull().default(0),
    /** While set and in the future, this process skips the pool (circuit open). */
    circuitOpenUntil: timestamp('circuit_open_until', { withTimezone: true }),
    /** Areas (country codes) this process skips on the pool while the pool itself is closed. */
    openAreas: jsonb('open_areas').$type<string[]>().notNull().default([]),
    reportedAt: timestamp('reported_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.instanceId, t.poolId] })],
);

/** The provider's own usage report of a pool (imported CSV: day, bytes), set beside our bytes by the economics screen. */
export const poolReconciliation = pgTable(
  'pool_reconciliation',
  {
    poolId: bigint('pool_id', { mode: 'number' })
      .notNull()
      .references(() => pools.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    providerBytes: bigint('provider_bytes', { mode: 'number' }).notNull(),
    importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.poolId, t.day] }), check('pool_reconciliation_bytes', sql`${t.providerBytes} >= 0`)],
);
