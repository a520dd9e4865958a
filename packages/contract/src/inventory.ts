import { z } from 'zod';
import { ZPageQuery, zPage } from './envelope';
import { defineRoute, type TRouteDef } from './route-def';
import { zIdParam, zJsonNumber } from './validators';

/** Kinds of upstream exit: residential (ISP) or data-center. */
export const INVENTORY_KINDS = ['residential', 'datacenter'] as const;

/** The largest CSV one import takes (the API's body limit is 256 KiB; bigger files: npm run inventory:import, or several imports). */
export const INVENTORY_CSV_MAX_CHARS = 200_000;

/** An import of upstream proxies in the CSV format of `npm run inventory:import`; `dry_run` only checks it. */
export const ZInventoryImportBody = z.object({
  csv: z
    .string({ error: 'required' })
    .trim()
    .min(1, { error: 'required' })
    .max(INVENTORY_CSV_MAX_CHARS, { error: 'tooLong' }),
  kind: z.enum(INVENTORY_KINDS, { error: 'invalidValue' }),
  dry_run: z.boolean({ error: 'invalidValue' }).default(false),
});

/** What an import did (or, dry, would do): nodes imported, duplicates skipped, or the bad lines (then nothing is imported). */
export const ZInventoryImportResult = z.object({
  valid: z.number().int(),
  imported: z.number().int(),
  duplicates: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), message: z.string() })),
});
/** Parsed import result. */
export type TInventoryImportResult = z.infer<typeof ZInventoryImportResult>;

/** How an exit reaches the internet: the gateway host itself (direct), or an upstream proxy. */
export const INVENTORY_EGRESSES = ['direct', 'http', 'socks5'] as const;
/** What the inventory probe last found: unknown until probed; down after consecutive failures. */
export const INVENTORY_HEALTHS = ['unknown', 'up', 'down'] as const;
/** active: sold and used; disabled: retired (never sold nor used by gateways). */
export const INVENTORY_STATUSES = ['active', 'disabled'] as const;
/** free: no static token holds it; held: a static token holds it. */
export const INVENTORY_ASSIGNMENTS = ['free', 'held'] as const;

/** Highest cost per day of an exit, in fen (1,000,000 yuan). */
export const EXIT_COST_PER_DAY_MAX_FEN = 100_000_000;

/** One exit node as operators see it (never its password). */
export const ZInventoryNode = z.object({
  id: z.number().int(),
  kind: z.enum(INVENTORY_KINDS),
  egress: z.enum(INVENTORY_EGRESSES),
  /** Upstream address ('' and 0 for direct nodes). */
  host: z.string(),
  port: z.number().int(),
  username: z.string().nullable(),
  has_password: z.boolean(),
  country: z.string(),
  state: z.string(),
  city: z.string(),
  state_name: z.string(),
  city_name: z.string(),
  status: z.enum(INVENTORY_STATUSES),
  /** Address the probe saw traffic leave from; null until a probe succeeded. */
  exit_ip: z.string().nullable(),
  health: z.enum(INVENTORY_HEALTHS),
  latency_ms: z.number().int().nullable(),
  checked_at: z.string().nullable(),
  /** Failed probe attempts in a row. */
  probe_failures: z.number().int(),
  probe_error: z.string().nullable(),
  /** Static token holding this upstream node, or null. */
  holder_token_id: z.number().int().nullable(),
  /** Live (unexpired, not deleted) tokens pinned to this node. */
  pinned_tokens: z.number().int(),
  /** What the exit costs the operator per day it carries bytes or is held, in fen (the economics; 0: not set). */
  cost_per_day_fen: z.number().int(),
  created_at: z.string(),
});
/** An exit node as operators see it. */
export type TInventoryNode = z.infer<typeof ZInventoryNode>;

const zOptionalEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.enum(values, { error: 'invalidValue' }).optional());

/** Search of exit nodes: every filter optional; keyword matches host or exit IP. */
export const ZInventoryNodeQuery = ZPageQuery.extend({
  kind: zOptionalEnum(INVENTORY_KINDS),
  country: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^([a-z]{2})?$/, { error: 'invalidValue' })
    .optional(),
  health: zOptionalEnum(INVENTORY_HEALTHS),
  status: zOptionalEnum(INVENTORY_STATUSES),
  assignment: zOptionalEnum(INVENTORY_ASSIGNMENTS),
  keyword: z.string().trim().max(100, { error: 'tooLong' }).optional(),
});
/** Parsed node search. */
export type TInventoryNodeQuery = z.output<typeof ZInventoryNodeQuery>;

const AREA_TEXT = /^[\p{L}\p{N} _]*$/u;
const zAreaText = z
  .string({ error: 'invalidValue' })
  .trim()
  .max(64, { error: 'tooLong' })
  .regex(AREA_TEXT, { error: 'invalidValue' });

/**
 * An operator's edit of an upstream node: its area (country code; state and
 * city as names, stored with their slugs), endpoint and status. `password`
 * left out keeps the stored one; null clears it (as does a null username).
 */
export const ZInventoryNodeUpdate = zIdParam.extend({
  country: z
    .string({ error: 'countryRequired' })
    .trim()
    .toLowerCase()
    .regex(/^[a-z]{2}$/, { error: 'invalidValue' }),
  state: zAreaText.default(''),
  city: zAreaText.default(''),
  host: z
    .string({ error: 'required' })
    .trim()
    .toLowerCase()
    .min(1, { error: 'required' })
    .max(253, { error: 'tooLong' })
    .regex(/^[^\s/@[\]]+$/, { error: 'invalidValue' }),
  port: zJsonNumber('invalidValue')
    .int({ error: 'invalidValue' })
    .min(1, { error: 'invalidValue' })
    .max(65535, { error: 'invalidValue' }),
  username: z
    .string({ error: 'invalidValue' })
    .min(1, { error: 'required' })
    .max(200, { error: 'tooLong' })
    .regex(/^[^:\r\n]+$/, { error: 'invalidValue' })
    .nullable(),
  password: z
    .string({ error: 'invalidValue' })
    .max(200, { error: 'tooLong' })
    .regex(/^[^\r\n]*$/, { error: 'invalidValue' })
    .nullable()
    .optional(),
  status: z.enum(INVENTORY_STATUSES, { error: 'invalidValue' }),
  /** The exit's cost per day in fen (docs/economics.md); left out keeps it. */
  cost_per_day_fen: zJsonNumber('exitCostPerDayRange')
    .int({ error: 'exitCostPerDayRange' })
    .min(0, { error: 'exitCostPerDayRange' })
    .max(EXIT_COST_PER_DAY_MAX_FEN, { error: 'exitCostPerDayRange' })
    .optional(),
});
/** Parsed node edit. */
export type TInventoryNodeUpdate = z.output<typeof ZInventoryNodeUpdate>;

/** Retiring a node: refused while live tokens are pinned to it, unless `move_to` names a free node of the same kind and area to move them to. */
export const ZInventoryRetireBody = zIdParam.extend({
  move_to: zJsonNumber('invalidValue')
    .int({ error: 'invalidValue' })
    .positive({ error: 'invalidValue' })
    .nullable()
    .optional(),
});
/** What a retirement did. */
export const ZInventoryRetireResult = z.object({
  node: ZInventoryNode,
  moved_tokens: z.number().int(),
  moved_to: z.number().int().nullable(),
});

/** Stock of one area and kind: nodes by state, and what each product can sell. */
export const ZInventoryStockRow = z.object({
  kind: z.enum(INVENTORY_KINDS),
  country: z.string(),
  state: z.string(),
  city: z.string(),
  state_name: z.string(),
  city_name: z.string(),
  /** Active nodes (what a dynamic token of the area rotates among). */
  active: z.number().int(),
  disabled: z.number().int(),
  up: z.number().int(),
  down: z.number().int(),
  held: z.number().int(),
  /** What a static IP purchase can take now: free upstream nodes plus shared direct nodes (the areas lists' "available"). */
  static_available: z.number().int(),
  /** Usable exits for dynamic tokens (active nodes not down). */
  dynamic_available: z.number().int(),
});
/** One stock row. */
export type TInventoryStockRow = z.infer<typeof ZInventoryStockRow>;

/** Stock filter. */
export const ZInventoryStockQuery = z.object({ kind: zOptionalEnum(INVENTORY_KINDS) });

/** Operators: import upstream exits while the server runs (the embedded database admits no second process). */
export const INVENTORY_ADMIN_ROUTES = {
  adminInventoryImport: defineRoute({
    method: 'POST',
    path: '/admin/inventory/import',
    auth: 'admin',
    body: 'json',
    summary:
      'Import upstream proxies (CSV of npm run inventory:import); a bad line imports nothing and is listed with its number; dry_run only checks',
    tag: 'admin',
    input: ZInventoryImportBody,
    output: ZInventoryImportResult,
  }),
  adminInventoryNodes: defineRoute({
    method: 'GET',
    path: '/admin/inventory/nodes',
    auth: 'admin',
    summary:
      'Exit nodes with area, kind, egress, health, exit IP, holder and pinned live tokens; filters by kind, country, health, status, assignment, keyword (host or exit IP)',
    tag: 'admin',
    input: ZInventoryNodeQuery,
    output: zPage(ZInventoryNode),
  }),
  adminInventoryNodeUpdate: defineRoute({
    method: 'PUT',
    path: '/admin/inventory/nodes/:id',
    auth: 'admin',
    body: 'json',
    summary:
      'Edit an upstream node: area, endpoint, credentials, status (disabling is refused while live tokens are pinned to it: retire with move_to)',
    tag: 'admin',
    input: ZInventoryNodeUpdate,
    output: ZInventoryNode,
  }),
  adminInventoryNodeRetire: defineRoute({
    method: 'POST',
    path: '/admin/inventory/nodes/:id/retire',
    auth: 'admin',
    body: 'json',
    summary:
      'Retire a node (status disabled); refused while live tokens are pinned to it unless move_to names a free active node of the same kind and area, which takes them over in the same transaction',
    tag: 'admin',
    input: ZInventoryRetireBody,
    output: ZInventoryRetireResult,
  }),
  adminInventoryNodeProbe: defineRoute({
    method: 'POST',
    path: '/admin/inventory/nodes/:id/probe',
    auth: 'admin',
    summary:
      'Probe one node now: a request through it to the probe URL; records latency, exit IP and health and answers the node',
    tag: 'admin',
    input: zIdParam,
    output: ZInventoryNode,
  }),
  adminInventoryStock: defineRoute({
    method: 'GET',
    path: '/admin/inventory/stock',
    auth: 'admin',
    summary:
      'Stock per area and kind: active, disabled, up, down and held nodes; what static IP and dynamic products can sell (the same count the area lists show)',
    tag: 'admin',
    input: ZInventoryStockQuery,
    output: z.array(ZInventoryStockRow),
  }),
} as const satisfies Record<string, TRouteDef>;
