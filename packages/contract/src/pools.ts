import { z } from 'zod';
import { zCountryId } from './areas';
import { ZPageQuery, zPage } from './envelope';
import type { TValidationKey } from './messages';
import { INVENTORY_KINDS } from './inventory';
import { POOL_TEMPLATE_MAX_CHARS, POOL_TEMPLATE_PLACEHOLDERS } from './pools-template';
import { defineRoute, type TRouteDef } from './route-def';
import { zIdParam, zJsonNumber } from './validators';

/**
 * Upstream pools (docs/pools.md): the operator's providers, each one account whose username (rendered from a
 * template) chooses the area and a sticky session. Operators list, create, edit, pause and resume, delete (once
 * paused), import coverage and area spellings, and check a pool through its template. The password is
 * write-only: no answer carries it (`has_password` says there is one).
 */

/** How the gateway talks to a pool's endpoints. */
export const POOL_PROTOCOLS = ['http-connect', 'socks5'] as const;
/** enabled: sold through and dialled; paused: neither. A new pool starts paused unless created enabled. */
export const POOL_STATUSES = ['enabled', 'paused'] as const;
/** How the provider spells the area slugs its mapping does not name. */
export const POOL_AREA_CASES = ['lower', 'upper'] as const;
/** Which areas a pool serves: every country, or the imported list. */
export const POOL_COVERAGE_MODES = ['all', 'list'] as const;
/** Most endpoints a pool has. */
export const POOL_ENDPOINTS_MAX = 8;
/** Largest CSV one coverage or mapping import takes (the API's body limit is 256 KiB). */
export const POOL_CSV_MAX_CHARS = 200_000;
/** Most areas of a coverage list, and most spellings of a mapping. */
export const POOL_AREAS_MAX = 20_000;
/** Longest name of the response header in which a pool names a tunnel's exit IP. */
export const POOL_EXIT_IP_HEADER_MAX = 64;
/** Longest idle time a pool may state for its sticky sessions, in minutes (a day). */
export const POOL_SESSION_IDLE_MINUTES_MAX = 1440;
/** What a check found: ok, or where it stopped (docs/pools.md, "Check"). */
export const POOL_CHECK_OUTCOMES = [
  'ok',
  'bad-credentials',
  'area-not-served',
  'refused',
  'timeout',
  'unreachable',
  'echo-failed',
] as const;

const zText = (max: number) =>
  z
    .string({ error: 'required' })
    .trim()
    .min(1, { error: 'required' })
    .max(max, { error: 'tooLong' })
    .regex(/^[^\r\n]*$/, { error: 'invalidValue' });

// A whole number in a range; every failure says the range (one message key per field).
const zInt = (min: number, max: number, message: TValidationKey) =>
  zJsonNumber(message).int({ error: message }).min(min, { error: message }).max(max, { error: message });

/** Left empty, an optional field of the form is "not stated" (null). */
const emptyToNull = (v: unknown) => (v === undefined || (typeof v === 'string' && v.trim() === '') ? null : v);

/**
 * The response header of the pool's CONNECT answer that names the tunnel's exit IP (`x-exit-ip`), lower-cased; null
 * when the pool does not report it. A header name: RFC 9110 token characters only, at most 64.
 */
export const zPoolExitIpHeader = z.preprocess(
  emptyToNull,
  z
    .string({ error: 'poolExitIpHeader' })
    .trim()
    .toLowerCase()
    .max(POOL_EXIT_IP_HEADER_MAX, { error: 'poolExitIpHeader' })
    .regex(/^[!#$%&'*+\-.^_`|~0-9a-z]+$/, { error: 'poolExitIpHeader' })
    .nullable(),
);

/** Minutes a sticky session may stay idle before the provider drops it (1 to 1440); null when the pool does not say. */
export const zPoolSessionIdleMinutes = z.preprocess(
  emptyToNull,
  zJsonNumber('poolSessionIdleRange')
    .int({ error: 'poolSessionIdleRange' })
    .min(1, { error: 'poolSessionIdleRange' })
    .max(POOL_SESSION_IDLE_MINUTES_MAX, { error: 'poolSessionIdleRange' })
    .nullable(),
);

/** One endpoint: a host name or address and a port. */
export const ZPoolEndpoint = z.object({
  host: z
    .string({ error: 'required' })
    .trim()
    .toLowerCase()
    .min(1, { error: 'required' })
    .max(253, { error: 'tooLong' })
    .regex(/^[^\s/@[\]]+$/, { error: 'invalidValue' }),
  port: zInt(1, 65535, 'poolPortRange'),
});
/** One endpoint. */
export type TPoolEndpointInput = z.infer<typeof ZPoolEndpoint>;

/** An area of ours: ISO country code and state and city slugs ('' for any). */
export const ZPoolAreaRow = z.object({ country: z.string(), state: z.string(), city: z.string() });
/** An area and the provider's word for it. */
export const ZPoolAreaSpellingRow = ZPoolAreaRow.extend({ spelling: z.string() });

/** What the operator's last check found (never the password). */
export const ZPoolLastCheck = z.object({
  at: z.string(),
  outcome: z.enum(POOL_CHECK_OUTCOMES),
  /** The area checked, as its key (`us/california`). */
  area: z.string(),
  exit_ip: z.string().nullable(),
  exit_country: z.string().nullable(),
  latency_ms: z.number().int().nullable(),
});
/** What the operator's last check found, as stored with the pool. */
export type TPoolLastCheck = z.infer<typeof ZPoolLastCheck>;

/** How long a gateway's report on a pool speaks for it: older rows are stale (the gateway stopped or lost the database). */
export const POOL_HEALTH_FRESH_MS = 60_000;

/**
 * A pool's health across the fleet: the sum of the reports of the gateway processes that reported in the last
 * POOL_HEALTH_FRESH_MS (each covers its last 5 minutes; failover and circuits are per process, docs/pools.md).
 */
export const ZPoolHealth = z.object({
  /** Gateway processes with a fresh report (0: no gateway has dialled the pool lately, or none runs). */
  gateways: z.number().int(),
  attempts: z.number().int(),
  successes: z.number().int(),
  /** Mean time to a tunnel of the successful dials, in ms; null without one. */
  avg_connect_ms: z.number().int().nullable(),
  /** Failed dials by reason (bad-credentials, area-not-served, refused, timeout, ...). */
  refusals: z.record(z.string(), z.number().int()),
  /** Connections open through the pool now. */
  open_connections: z.number().int(),
  /** Gateway processes skipping the whole pool now (circuit open). */
  circuit_open_on: z.number().int(),
  /** Countries some gateway process skips on the pool now. */
  open_areas: z.array(z.string()),
});
/** A pool's health across the fleet. */
export type TPoolHealth = z.infer<typeof ZPoolHealth>;

/** The health of a pool no gateway reported on in the last minute. */
export const NO_POOL_HEALTH: TPoolHealth = {
  gateways: 0,
  attempts: 0,
  successes: 0,
  avg_connect_ms: null,
  refusals: {},
  open_connections: 0,
  circuit_open_on: 0,
  open_areas: [],
};

/** A pool as operators see it (never its password; coverage and mapping as counts: the pool's own call lists them). */
export const ZPool = z
  .object({
    id: z.number().int(),
    name: z.string(),
    kind: z.enum(INVENTORY_KINDS),
    protocol: z.enum(POOL_PROTOCOLS),
    endpoints: z.array(z.object({ host: z.string(), port: z.number().int() })),
    /** The account name at the provider ({user}). */
    username: z.string(),
    has_password: z.boolean(),
    username_template: z.string(),
    /** Placeholders the template uses: without `session` the pool cannot keep a sticky session. */
    template_placeholders: z.array(z.enum(POOL_TEMPLATE_PLACEHOLDERS)),
    /** Length of the session ids the template takes. */
    session_length: z.number().int(),
    area_case: z.enum(POOL_AREA_CASES),
    area_mapping_count: z.number().int(),
    coverage_mode: z.enum(POOL_COVERAGE_MODES),
    coverage_count: z.number().int(),
    /** Cost per GB (1024^3 bytes, the unit of customers' allowances) in fen. */
    cost_per_gb_fen: z.number().int(),
    priority: z.number().int(),
    weight: z.number().int(),
    max_connections: z.number().int(),
    /** The response header naming a tunnel's exit IP (docs/pools.md, "Exit IP and idle sessions"); null: not reported. */
    exit_ip_header: z.string().nullable(),
    /** Minutes a sticky session may stay idle before the provider drops it; null: not stated. */
    session_idle_minutes: z.number().int().nullable(),
    status: z.enum(POOL_STATUSES),
    last_check: ZPoolLastCheck.nullable(),
    health: ZPoolHealth,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({
    examples: [
      {
        id: 1,
        name: 'Residential A',
        kind: 'residential',
        protocol: 'http-connect',
        endpoints: [{ host: 'pr.example.net', port: 7777 }],
        username: 'acme',
        has_password: true,
        username_template:
          'customer-{user}-cc-{country}[-st-{state}][-city-{city}][-sessid-{session}-sesstime-{minutes}]',
        template_placeholders: ['user', 'country', 'state', 'city', 'session', 'minutes'],
        session_length: 12,
        area_case: 'upper',
        area_mapping_count: 2,
        coverage_mode: 'all',
        coverage_count: 0,
        cost_per_gb_fen: 2500,
        priority: 10,
        weight: 100,
        max_connections: 1000,
        exit_ip_header: 'x-exit-ip',
        session_idle_minutes: 30,
        status: 'paused',
        last_check: null,
        health: {
          gateways: 2,
          attempts: 1200,
          successes: 1188,
          avg_connect_ms: 240,
          refusals: { timeout: 9, 'area-not-served': 3 },
          open_connections: 37,
          circuit_open_on: 0,
          open_areas: [],
        },
        created_at: '2026-06-01T08:00:00.000Z',
        updated_at: '2026-06-01T08:00:00.000Z',
      },
    ],
  });
/** A pool as operators see it. */
export type TPool = z.infer<typeof ZPool>;

/** A pool with its coverage list and area spellings. */
export const ZPoolDetail = ZPool.extend({
  coverage: z.array(ZPoolAreaRow),
  area_mapping: z.array(ZPoolAreaSpellingRow),
});
/** A pool with its lists. */
export type TPoolDetail = z.infer<typeof ZPoolDetail>;

const zOptionalEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.enum(values, { error: 'invalidValue' }).optional());

/** Search of pools: status, kind, a keyword in the name or an endpoint's host. */
export const ZPoolQuery = ZPageQuery.extend({
  status: zOptionalEnum(POOL_STATUSES),
  kind: zOptionalEnum(INVENTORY_KINDS),
  keyword: z.string().trim().max(100, { error: 'tooLong' }).optional(),
});
/** Parsed pool search. */
export type TPoolQuery = z.output<typeof ZPoolQuery>;

const ZPoolFields = z.object({
  name: zText(64),
  kind: z.enum(INVENTORY_KINDS, { error: 'invalidValue' }),
  protocol: z.enum(POOL_PROTOCOLS, { error: 'invalidValue' }),
  endpoints: z
    .array(ZPoolEndpoint, { error: 'required' })
    .min(1, { error: 'required' })
    .max(POOL_ENDPOINTS_MAX, { error: 'tooMany' }),
  /** The account name ({user}); characters no provider takes are refused, naming the character. */
  username: zText(128),
  /** Checked when saved (packages/contract/src/pools-template.ts): a refusal names the character or placeholder. */
  username_template: z
    .string({ error: 'required' })
    .trim()
    .min(1, { error: 'required' })
    .max(POOL_TEMPLATE_MAX_CHARS, { error: 'tooLong' }),
  area_case: z.enum(POOL_AREA_CASES, { error: 'invalidValue' }).default('lower'),
  cost_per_gb_fen: zInt(0, 100_000_000, 'poolCostRange').default(0),
  priority: zInt(0, 1000, 'poolPriorityRange').default(10),
  weight: zInt(1, 1000, 'poolWeightRange').default(100),
  max_connections: zInt(1, 100_000, 'poolMaxConnectionsRange').default(1000),
  /** Left out or empty: the pool does not report its exit IP. */
  exit_ip_header: zPoolExitIpHeader.default(null),
  /** Left out or empty: not stated. */
  session_idle_minutes: zPoolSessionIdleMinutes.default(null),
});

const zPassword = z
  .string({ error: 'required' })
  .min(1, { error: 'required' })
  .max(256, { error: 'tooLong' })
  .regex(/^[^\r\n]*$/, { error: 'invalidValue' });

/** A new pool (paused unless `status` says enabled). */
export const ZPoolCreateBody = ZPoolFields.extend({
  password: zPassword,
  status: z.enum(POOL_STATUSES, { error: 'invalidValue' }).default('paused'),
}).meta({
  examples: [
    {
      name: 'Residential A',
      kind: 'residential',
      protocol: 'http-connect',
      endpoints: [{ host: 'pr.example.net', port: 7777 }],
      username: 'acme',
      password: 'provider-password',
      username_template:
        'customer-{user}-cc-{country}[-st-{state}][-city-{city}][-sessid-{session}-sesstime-{minutes}]',
      area_case: 'upper',
      cost_per_gb_fen: 2500,
      exit_ip_header: 'x-exit-ip',
      session_idle_minutes: 30,
    },
  ],
});
/** Parsed new pool. */
export type TPoolCreateBody = z.output<typeof ZPoolCreateBody>;

/** An edit of a pool: every field (the status changes by pause and resume); `password` left out keeps the stored one. */
export const ZPoolUpdateBody = zIdParam.extend(ZPoolFields.shape).extend({ password: zPassword.optional() });
/** Parsed pool edit. */
export type TPoolUpdateBody = z.output<typeof ZPoolUpdateBody>;

const zCsv = z.string({ error: 'required' }).max(POOL_CSV_MAX_CHARS, { error: 'tooLong' });

/**
 * Coverage: every country, or a list in CSV, one area a line: `country[,state[,city]]` (ISO code, then names or
 * slugs; blank lines and lines starting with # skipped). The list replaces the last one.
 */
export const ZPoolCoverageBody = zIdParam.extend({
  mode: z.enum(POOL_COVERAGE_MODES, { error: 'invalidValue' }),
  csv: zCsv.default(''),
});
/** Parsed coverage import. */
export type TPoolCoverageBody = z.output<typeof ZPoolCoverageBody>;

/**
 * Area spellings in CSV, one a line: `country,state,city,spelling` (state and city empty for a country's, city
 * empty for a state's). Replaces the last mapping; an empty file clears it.
 */
export const ZPoolMappingBody = zIdParam.extend({ csv: zCsv.default('') });
/** Parsed mapping import. */
export type TPoolMappingBody = z.output<typeof ZPoolMappingBody>;

const zAreaSlugInput = z
  .string({ error: 'invalidValue' })
  .trim()
  .max(64, { error: 'tooLong' })
  .regex(/^[\p{L}\p{N} _]*$/u, { error: 'invalidValue' });

/**
 * A check: dial the pool through its template for an area (and, given `session`, a sticky session of `minutes`)
 * to the IP echo the inventory probe uses, and say what came back.
 */
export const ZPoolCheckBody = zIdParam.extend({
  country: zCountryId,
  state: zAreaSlugInput.default(''),
  city: zAreaSlugInput.default(''),
  /** A session label (as in a customer's username); the same label maps to the same pool session id. */
  session: z
    .string({ error: 'invalidValue' })
    .trim()
    .max(64, { error: 'tooLong' })
    .regex(/^[A-Za-z0-9_]*$/, { error: 'invalidValue' })
    .default(''),
  minutes: zInt(1, 120, 'sesstimeRange').optional(),
});
/** Parsed check. */
export type TPoolCheckBody = z.output<typeof ZPoolCheckBody>;

/** One endpoint tried by a check. */
export const ZPoolCheckAttempt = z.object({
  endpoint: z.string(),
  outcome: z.enum(['connected', 'refused', 'timeout', 'unreachable']),
  ms: z.number().int(),
  detail: z.string(),
});

/** What a check found: the username it sent, the provider's answer, and the exit the echo saw. */
export const ZPoolCheckResult = z.object({
  outcome: z.enum(POOL_CHECK_OUTCOMES),
  /** The rendered username (the account name and the area; the password is never shown). */
  username: z.string(),
  /** The area asked, as its key (`us/california`), and whether the pool's coverage lists it. */
  area: z.string(),
  is_covered: z.boolean(),
  /** The pool session id sent for `session`, or null. */
  session_id: z.string().nullable(),
  /** The endpoint that answered (`host:port`), or null. */
  endpoint: z.string().nullable(),
  attempts: z.array(ZPoolCheckAttempt),
  /** The provider's status on a refusal (`HTTP 407 Proxy Authentication Required`, `SOCKS5 reply 2 (not allowed)`). */
  provider_status: z.string().nullable(),
  /** What the provider said on a refusal (error headers and body, credentials cut out). */
  provider_detail: z.string().nullable(),
  /** The address the IP echo saw, and its country from the offline IP data (null for non-public addresses). */
  exit_ip: z.string().nullable(),
  exit_country: z.string().nullable(),
  /** What the provider said of its exit (X-Exit-IP / X-Exit-Country, or the SOCKS5 bound address), if anything. */
  provider_exit_ip: z.string().nullable(),
  provider_exit_country: z.string().nullable(),
  /** From the endpoint's TCP connection to the tunnel; from the start to the echo's answer. */
  connect_ms: z.number().int().nullable(),
  latency_ms: z.number().int().nullable(),
  checked_at: z.string(),
});
/** What a check found. */
export type TPoolCheckResult = z.infer<typeof ZPoolCheckResult>;

/** Operators: upstream pools. */
export const POOL_ADMIN_ROUTES = {
  adminPools: defineRoute({
    method: 'GET',
    path: '/admin/pools',
    auth: 'admin',
    summary: 'Upstream pools (never a password); filters by status, kind and keyword (name or endpoint host)',
    tag: 'admin',
    input: ZPoolQuery,
    output: zPage(ZPool),
  }),
  adminPool: defineRoute({
    method: 'GET',
    path: '/admin/pools/:id',
    auth: 'admin',
    summary: 'One upstream pool with its coverage list and area spellings',
    tag: 'admin',
    input: zIdParam,
    output: ZPoolDetail,
  }),
  adminPoolCreate: defineRoute({
    method: 'POST',
    path: '/admin/pools',
    auth: 'admin',
    summary:
      'Add an upstream pool: endpoints, credentials (the password is stored sealed, never answered), username template (refused characters and placeholders named), cost per GB, priority, weight, connection cap; paused unless status says enabled',
    tag: 'admin',
    input: ZPoolCreateBody,
    output: ZPoolDetail,
  }),
  adminPoolUpdate: defineRoute({
    method: 'PUT',
    path: '/admin/pools/:id',
    auth: 'admin',
    summary: 'Edit an upstream pool (password left out: kept); gateways reload it',
    tag: 'admin',
    input: ZPoolUpdateBody,
    output: ZPoolDetail,
  }),
  adminPoolPause: defineRoute({
    method: 'POST',
    path: '/admin/pools/:id/pause',
    auth: 'admin',
    summary: 'Pause a pool: no new connection goes through it',
    tag: 'admin',
    input: zIdParam,
    output: ZPoolDetail,
  }),
  adminPoolResume: defineRoute({
    method: 'POST',
    path: '/admin/pools/:id/resume',
    auth: 'admin',
    summary: 'Resume a paused pool',
    tag: 'admin',
    input: zIdParam,
    output: ZPoolDetail,
  }),
  adminPoolDelete: defineRoute({
    method: 'DELETE',
    path: '/admin/pools/:id',
    auth: 'admin',
    summary: 'Delete a paused pool (refused while it is enabled: pause it first)',
    tag: 'admin',
    input: zIdParam,
    output: z.object({ id: z.number().int() }),
  }),
  adminPoolCoverage: defineRoute({
    method: 'POST',
    path: '/admin/pools/:id/coverage',
    auth: 'admin',
    summary:
      'Set what a pool serves: every country, or a CSV list of areas (country[,state[,city]]); a bad line changes nothing and is named with its number',
    tag: 'admin',
    input: ZPoolCoverageBody,
    output: ZPoolDetail,
  }),
  adminPoolAreaMapping: defineRoute({
    method: 'POST',
    path: '/admin/pools/:id/area-mapping',
    auth: 'admin',
    summary:
      'Import how the provider spells areas (CSV: country,state,city,spelling); spellings holding a separator of the template or a refused character are named with their line; replaces the last mapping',
    tag: 'admin',
    input: ZPoolMappingBody,
    output: ZPoolDetail,
  }),
  adminPoolCheck: defineRoute({
    method: 'POST',
    path: '/admin/pools/:id/check',
    auth: 'admin',
    body: 'json',
    summary:
      "Check a pool: dial it through its template for an area (and a session) to the probe's IP echo; answers the exit IP and country, the latency, or the provider's exact refusal",
    tag: 'admin',
    input: ZPoolCheckBody,
    output: ZPoolCheckResult,
  }),
} as const satisfies Record<string, TRouteDef>;
