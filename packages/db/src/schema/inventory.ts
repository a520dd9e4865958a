import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, fen, id } from './columns';

/** Kinds of exit: residential ISP or data-center. */
export const EXIT_KINDS = ['residential', 'datacenter'] as const;
/** How an exit reaches the internet: the gateway host itself, or an upstream proxy. */
export const EXIT_EGRESS = ['direct', 'http', 'socks5'] as const;
/** The secret box's purpose (additional data) of `exit_nodes.password`: a sealed value opens only there. */
export const EXIT_PASSWORD_PURPOSE = 'exit_nodes.password';
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
    /**
     * Sealed with the secret box (purpose EXIT_PASSWORD_PURPOSE) by the import and the operator's edit; never
     * answered by the API. A plain value from before is sealed by the API's start-up pass; the gateway opens it.
     */
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
    /** What the exit costs the operator per day, in fen (the economics' cost of an exit); 0 when not set. */
    costPerDayFen: fen('cost_per_day_fen').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('exit_nodes_endpoint_key').on(
      t.kind,
      t.egress,
      t.host,
      t.port,
      sql`coalesce(${t.username}, '')`,
      t.country,
      t.state,
      t.city,
    ),
    index('exit_nodes_area_idx').on(t.kind, t.country, t.state, t.city),
    index('exit_nodes_holder_idx').on(t.holderTokenId),
  ],
);
