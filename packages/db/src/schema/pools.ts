import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
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
