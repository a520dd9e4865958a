import { z } from 'zod';
import { PROXY_BILLINGS, PROXY_CATEGORIES, PROXY_PRODUCTS } from './proxies-tokens';
import { defineRoute, type TRouteDef } from './route-def';
import { zDigits, zId } from './validators';

/**
 * The operator's economics of pools and exits (docs/economics.md): per UTC day, carrier (pool, exit or none),
 * product and area, the bytes carried, what the upstream cost, what the customers paid for them and the margin;
 * the unused allowance of expired traffic proxies on its own line ("sold, not carried"); and the reconciliation of
 * a pool's bytes with the provider's own usage report. Money is integer fen on the wire (exact), bytes integers.
 */

/** Longest range of the report, in days. */
export const ECONOMICS_MAX_DAYS = 366;
/** Range of the report when none is asked for: the last 30 UTC days, today included. */
export const ECONOMICS_DEFAULT_DAYS = 30;
/** What the report's rows are grouped by. */
export const ECONOMICS_GROUPS = ['day', 'carrier', 'product', 'area'] as const;
/** carried: bytes our gateway carried and what they cost and earned; sold_not_carried: unused allowance of expired traffic proxies. */
export const ECONOMICS_LINES = ['carried', 'sold_not_carried'] as const;
/** What carried bytes: a pool, an exit, or none (refused before any dial: not carried by an upstream). */
export const ECONOMICS_CARRIER_KINDS = ['pool', 'exit', 'none'] as const;
/** The reconciliation's flag when none is asked for: a difference above 2 % of our bytes (in hundredths of a percent). */
export const RECONCILIATION_DEFAULT_THRESHOLD_BP = 200;
/** Largest provider report one import takes (the API's body limit is 256 KiB). */
export const RECONCILIATION_CSV_MAX_CHARS = 200_000;
/** Most days one provider report holds. */
export const RECONCILIATION_MAX_LINES = 3_660;
/** Units a provider report's bytes may carry (binary: a KB is 1024 bytes, a GB 1024^3, as allowances count). */
export const RECONCILIATION_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

const zDay = z.iso.date({ error: 'dateInvalid' });

/** The report's range (UTC days, both included; default the last 30 days) and grouping. */
export const ZEconomicsQuery = z.object({
  from: zDay.optional(),
  to: zDay.optional(),
  group_by: z.enum(ECONOMICS_GROUPS, { error: 'invalidValue' }).default('day'),
});
/** Parsed report query. */
export type TEconomicsQuery = z.output<typeof ZEconomicsQuery>;

/** Money and bytes of one row or of the totals. */
const ZEconomicsFigures = z.object({
  /** Carried bytes; on a sold-not-carried line, the unused bytes. */
  bytes: z.number(),
  /**
   * Bytes a pool or exit carried but the customer was not charged (lost to a failure before the target answered),
   * not in `bytes`: through a pool they cost like any byte and earn nothing.
   */
  uncharged_bytes: z.number(),
  cost_fen: z.number().int(),
  revenue_fen: z.number().int(),
  /** revenue - cost. */
  margin_fen: z.number().int(),
  is_negative: z.boolean(),
});

/** One row of the report: the group's key (the fields of other groupings null) and its figures. */
export const ZEconomicsRow = ZEconomicsFigures.extend({
  line: z.enum(ECONOMICS_LINES),
  /** YYYY-MM-DD when grouped by day. */
  day: z.string().nullable(),
  /** When grouped by carrier (null on the sold-not-carried line). */
  carrier_kind: z.enum(ECONOMICS_CARRIER_KINDS).nullable(),
  carrier_id: z.number().int().nullable(),
  /** The pool's name, the exit's address (`host:port`, or `direct` and its area); null for none. */
  carrier_name: z.string().nullable(),
  /** When grouped by product. */
  category: z.enum(PROXY_CATEGORIES).nullable(),
  product: z.enum(PROXY_PRODUCTS).nullable(),
  billing: z.enum(PROXY_BILLINGS).nullable(),
  /** When grouped by area: the country code ('' for none). */
  country: z.string().nullable(),
});
/** One row of the report. */
export type TEconomicsRow = z.infer<typeof ZEconomicsRow>;

/** The report: rows (carried first, then sold-not-carried, each by key) and totals. */
export const ZEconomicsReport = z
  .object({
    from: z.string(),
    to: z.string(),
    group_by: z.enum(ECONOMICS_GROUPS),
    rows: z.array(ZEconomicsRow),
    totals: ZEconomicsFigures.extend({
      /** Bytes carried, and bytes sold and never carried (their sum is `bytes`). */
      carried_bytes: z.number(),
      unused_bytes: z.number(),
      /** Revenue of the carried bytes and of the sold-not-carried lines (their sum is `revenue_fen`). */
      carried_revenue_fen: z.number().int(),
      sold_not_carried_fen: z.number().int(),
    }),
  })
  .meta({
    examples: [
      {
        from: '2026-05-01',
        to: '2026-05-30',
        group_by: 'carrier',
        rows: [
          {
            line: 'carried',
            day: null,
            carrier_kind: 'pool',
            carrier_id: 1,
            carrier_name: 'Residential A',
            category: null,
            product: null,
            billing: null,
            country: null,
            bytes: 10737418240,
            uncharged_bytes: 52428800,
            cost_fen: 25122,
            revenue_fen: 40000,
            margin_fen: 14878,
            is_negative: false,
          },
        ],
        totals: {
          bytes: 10737418240,
          uncharged_bytes: 52428800,
          carried_bytes: 10737418240,
          unused_bytes: 0,
          cost_fen: 25122,
          revenue_fen: 40000,
          carried_revenue_fen: 40000,
          sold_not_carried_fen: 0,
          margin_fen: 14878,
          is_negative: false,
        },
      },
    ],
  });
/** The report. */
export type TEconomicsReport = z.infer<typeof ZEconomicsReport>;

/** The margin over one span (the overview's figures at a glance). */
export const ZEconomicsSpan = z.object({
  from: z.string(),
  to: z.string(),
  cost_fen: z.number().int(),
  revenue_fen: z.number().int(),
  margin_fen: z.number().int(),
  is_negative: z.boolean(),
});
/** The margin today and over the last 30 days (today included). */
export const ZEconomicsSummary = z.object({ today: ZEconomicsSpan, last_30_days: ZEconomicsSpan });
/** The margin at a glance. */
export type TEconomicsSummary = z.infer<typeof ZEconomicsSummary>;

/** A pool's reconciliation: its range (as the report's) and the flag's threshold in hundredths of a percent. */
export const ZReconciliationQuery = z.object({
  id: zId,
  from: zDay.optional(),
  to: zDay.optional(),
  threshold_bp: zDigits(
    z
      .number()
      .int({ error: 'reconciliationThresholdRange' })
      .min(0, { error: 'reconciliationThresholdRange' })
      .max(10_000, { error: 'reconciliationThresholdRange' }),
  ).default(RECONCILIATION_DEFAULT_THRESHOLD_BP),
});
/** Parsed reconciliation query. */
export type TReconciliationQuery = z.output<typeof ZReconciliationQuery>;

/** One day of a pool: our bytes, the provider's (null when its report has no such day) and the difference. */
export const ZReconciliationDay = z.object({
  day: z.string(),
  our_bytes: z.number(),
  provider_bytes: z.number().nullable(),
  /** provider - ours; null without the provider's figure. */
  difference_bytes: z.number().nullable(),
  /** The difference in hundredths of a percent of our bytes (rounded toward zero); null without a figure or without our bytes. */
  difference_bp: z.number().int().nullable(),
  /** |difference| above the threshold of our bytes (any difference when we carried nothing). */
  is_flagged: z.boolean(),
});

/** A pool's days beside the provider's report. */
export const ZReconciliation = z.object({
  pool_id: z.number().int(),
  pool_name: z.string(),
  from: z.string(),
  to: z.string(),
  threshold_bp: z.number().int(),
  days: z.array(ZReconciliationDay),
  totals: z.object({
    our_bytes: z.number(),
    /** Summed over the days the report has. */
    provider_bytes: z.number(),
    flagged_days: z.number().int(),
  }),
});
/** A pool's reconciliation. */
export type TReconciliation = z.infer<typeof ZReconciliation>;

/**
 * The provider's usage report of a pool, as CSV: `day,bytes[,unit]` a line (a header line may come first; unit B,
 * KB, MB, GB or TB, binary; bytes a whole number, or a decimal with a unit). A bad line refuses the whole import.
 */
export const ZReconciliationImportBody = z.object({
  id: zId,
  csv: z
    .string({ error: 'required' })
    .max(RECONCILIATION_CSV_MAX_CHARS, { error: 'tooLong' })
    .refine((v) => v.trim() !== '', { error: 'required' }),
});
/** Parsed import. */
export type TReconciliationImportBody = z.output<typeof ZReconciliationImportBody>;

/** What an import stored: how many days, the first and last. */
export const ZReconciliationImportResult = z.object({
  pool_id: z.number().int(),
  days: z.number().int(),
  from: z.string(),
  to: z.string(),
});
/** What an import stored. */
export type TReconciliationImportResult = z.infer<typeof ZReconciliationImportResult>;

/** Operators: the economics of pools and exits. */
export const ECONOMICS_ADMIN_ROUTES = {
  adminEconomics: defineRoute({
    method: 'GET',
    path: '/admin/economics',
    auth: 'admin',
    summary:
      'Bytes, upstream cost, revenue and margin per UTC day, carrier (pool or exit), product or area over a range (default the last 30 days, at most 366), with the unused allowance of expired traffic proxies on its own line; money in fen',
    tag: 'admin',
    input: ZEconomicsQuery,
    output: ZEconomicsReport,
  }),
  adminEconomicsExport: defineRoute({
    method: 'GET',
    path: '/admin/economics/export',
    auth: 'admin',
    summary: 'The economics report as CSV (the same range and grouping; money in yuan with two decimals, exact)',
    tag: 'admin',
    input: ZEconomicsQuery,
    isBlob: true,
  }),
  adminEconomicsSummary: defineRoute({
    method: 'GET',
    path: '/admin/economics/summary',
    auth: 'admin',
    summary: 'Revenue, upstream cost and margin today and over the last 30 days (the overview at a glance)',
    tag: 'admin',
    output: ZEconomicsSummary,
  }),
  adminEconomicsReconciliation: defineRoute({
    method: 'GET',
    path: '/admin/economics/pools/:id/reconciliation',
    auth: 'admin',
    summary:
      "A pool's bytes per day beside its provider's usage report, with the difference flagged above a threshold (hundredths of a percent, default 200)",
    tag: 'admin',
    input: ZReconciliationQuery,
    output: ZReconciliation,
  }),
  adminEconomicsReconciliationImport: defineRoute({
    method: 'POST',
    path: '/admin/economics/pools/:id/reconciliation',
    auth: 'admin',
    summary:
      "Import a pool's provider usage report (CSV: day,bytes[,unit], a header line allowed): its days replace those stored; a bad line changes nothing and is named with its number",
    tag: 'admin',
    input: ZReconciliationImportBody,
    output: ZReconciliationImportResult,
  }),
} as const satisfies Record<string, TRouteDef>;
