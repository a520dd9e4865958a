import {
  DEFAULT_PRICE_CATALOGUE,
  EFFECTIVE_AT_SKEW_MS,
  PRICE_KEYS,
  VERSION_SCHEDULE_MAX_DAYS,
  type TAdminPrices,
  type TPage,
  type TPriceCatalogue,
  type TPriceHistoryQuery,
  type TPriceKey,
  type TPriceVersion,
  type TPriceVersionInput,
  type TVersionStatus,
} from '@proxy/contract';
import type { TDbOrTx } from '@proxy/db';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import {
  insertMissingPrices,
  insertPriceVersions,
  listPriceRows,
  listScheduledVersions,
  listVersionPage,
  listVersionsInEffect,
  type TPriceVersionRow,
  type TPriceVersionWithAuthor,
} from './pricing.repository';

/**
 * Prices: the list prices of the contract are seeded into price_catalogue
 * (version 0 of every key); operators' changes are rows of price_versions,
 * each with an effective time. The price of a key at a time is its latest
 * version in effect then, else its list price. Reads are two small indexed
 * queries inside the caller's transaction, with the caller's clock, so every
 * API instance agrees at once and a scheduled version takes over by itself.
 */

const KNOWN_KEYS = new Set<string>(PRICE_KEYS);
const DAY_MS = 86_400_000;

/** The version of every key that priced something (0: the list price). */
export type TPriceVersionIds = Record<TPriceKey, number>;
/** The prices in effect and their versions. */
export type TPricing = { catalogue: TPriceCatalogue; versionIds: TPriceVersionIds };

/** Seeds the list prices of the contract into price_catalogue (idempotent; edited prices are kept). */
export async function seedPriceCatalogue(deps: Pick<TDeps, 'db' | 'clock'>): Promise<number> {
  const rows = PRICE_KEYS.map((key) => ({ key, amountFen: DEFAULT_PRICE_CATALOGUE[key] }));
  return insertMissingPrices(deps.db, rows, deps.clock.now());
}

function isPrice(key: string, amountFen: number): key is TPriceKey {
  return KNOWN_KEYS.has(key) && Number.isSafeInteger(amountFen) && amountFen >= 0;
}

/** The prices in effect at `now` and the version of each. */
export async function loadPricing(db: TDbOrTx, now: Date): Promise<TPricing> {
  const catalogue: TPriceCatalogue = { ...DEFAULT_PRICE_CATALOGUE };
  const versionIds = Object.fromEntries(PRICE_KEYS.map((k) => [k, 0])) as TPriceVersionIds;
  for (const row of await listPriceRows(db)) {
    if (isPrice(row.key, row.amountFen)) catalogue[row.key] = row.amountFen;
  }
  for (const row of await listVersionsInEffect(db, now)) {
    if (isPrice(row.key, row.amountFen)) {
      catalogue[row.key] = row.amountFen;
      versionIds[row.key] = row.id;
    }
  }
  return { catalogue, versionIds };
}

/** The catalogue the purchase code charges at `now`. */
export async function loadPriceCatalogue(db: TDbOrTx, now: Date): Promise<TPriceCatalogue> {
  return (await loadPricing(db, now)).catalogue;
}

/**
 * The effective time of a new version: now when absent; a time in the past
 * (beyond a minute of clock skew, which counts as now) or more than a year
 * ahead is refused.
 */
export function resolveEffectiveAt(now: Date, requested: string | undefined): Date {
  if (requested === undefined) return now;
  const at = new Date(requested);
  if (at.getTime() < now.getTime() - EFFECTIVE_AT_SKEW_MS) {
    throw new AppError('BAD_REQUEST', undefined, [{ path: 'effective_at', message: 'effectiveAtPast' }]);
  }
  if (at.getTime() > now.getTime() + VERSION_SCHEDULE_MAX_DAYS * DAY_MS) {
    throw new AppError('BAD_REQUEST', undefined, [{ path: 'effective_at', message: 'effectiveAtTooLate' }]);
  }
  return at.getTime() < now.getTime() ? now : at;
}

function statusOf(row: { id: number; effectiveAt: Date }, inEffect: Set<number>, now: Date): TVersionStatus {
  if (row.effectiveAt.getTime() > now.getTime()) return 'scheduled';
  return inEffect.has(row.id) ? 'current' : 'past';
}

function toVersion(row: TPriceVersionWithAuthor, status: TVersionStatus): TPriceVersion {
  return {
    id: row.id,
    key: row.key as TPriceKey,
    amount_fen: row.amountFen,
    effective_at: row.effectiveAt.toISOString(),
    created_at: row.createdAt.toISOString(),
    created_by: row.createdByEmail,
    status,
  };
}

/** GET /admin/prices: every key's price in effect, its list price and what is scheduled. */
export async function listAdminPrices(deps: Pick<TDeps, 'db' | 'clock'>): Promise<TAdminPrices> {
  const now = deps.clock.now();
  const { catalogue, versionIds } = await loadPricing(deps.db, now);
  const listPrices = { ...DEFAULT_PRICE_CATALOGUE };
  for (const row of await listPriceRows(deps.db))
    if (isPrice(row.key, row.amountFen)) listPrices[row.key] = row.amountFen;
  const inEffect = new Map((await listVersionsInEffect(deps.db, now)).map((r) => [r.key, r]));
  const scheduled = await listScheduledVersions(deps.db, now);
  return {
    prices: PRICE_KEYS.map((key) => ({
      key,
      amount_fen: catalogue[key],
      version_id: versionIds[key],
      effective_at: inEffect.get(key)?.effectiveAt.toISOString() ?? null,
      default_fen: listPrices[key],
      scheduled: scheduled.filter((r) => r.key === key).map((r) => toVersion(r, 'scheduled')),
    })),
  };
}

/** GET /admin/prices/history. */
export async function listPriceHistory(
  deps: Pick<TDeps, 'db' | 'clock'>,
  query: TPriceHistoryQuery,
): Promise<TPage<TPriceVersion>> {
  const now = deps.clock.now();
  const inEffect = new Set((await listVersionsInEffect(deps.db, now)).map((r) => r.id));
  const { records, total } = await listVersionPage(
    deps.db,
    { key: query.key },
    query.page_size,
    (query.page - 1) * query.page_size,
  );
  return {
    records: records.map((r) => toVersion(r, statusOf(r, inEffect, now))),
    total,
    page: query.page,
    page_size: query.page_size,
  };
}

/** POST /admin/prices: one new version per key, all with the same effective time. */
export async function createPriceVersions(
  deps: Pick<TDeps, 'db' | 'clock'>,
  operator: { id: number; email: string },
  input: TPriceVersionInput,
): Promise<{ versions: TPriceVersion[] }> {
  const now = deps.clock.now();
  const effectiveAt = resolveEffectiveAt(now, input.effective_at);
  // In a transaction: the operator call's audit entry is written in it (features/audit).
  const rows: TPriceVersionRow[] = await deps.db.transaction((tx) =>
    insertPriceVersions(
      tx,
      input.prices.map((p) => ({ key: p.item, amountFen: p.amount_fen, effectiveAt, createdBy: operator.id })),
    ),
  );
  const status: TVersionStatus = effectiveAt.getTime() > now.getTime() ? 'scheduled' : 'current';
  return { versions: rows.map((r) => toVersion({ ...r, createdByEmail: operator.email }, status)) };
}
