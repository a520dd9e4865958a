import {
  PAY_METHODS,
  RECHARGE_FEE_FIXED_FEN,
  RECHARGE_FEE_PERCENT,
  type TAdminChargeOptions,
  type TChargeOptionSetInput,
  type TChargeOptionVersion,
  type TPage,
  type TPayMethod,
  type TPayMethodState,
  type TVersionStatus,
} from '@proxy/contract';
import type { TDbOrTx } from '@proxy/db';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { resolveEffectiveAt } from '../pricing/pricing.service';
import {
  findEmails,
  findHead,
  findMethodSetting,
  insertNextOptionSet,
  listHeadPage,
  listMethodSettings,
  listOptionsOf,
  listScheduledHeads,
  upsertMethodSetting,
  type TOptionSetHead,
} from './charge-options.repository';
import { findCurrentOptions } from './payments.repository';
import type { TPayProvider } from './providers';

/**
 * Operators' side of the top-up: the recharge option set as versions with an
 * effective time (the latest version in effect is what customers see and what
 * orders record), and payment methods switched on or off. Both are read from
 * the database on every call, so every API instance follows a change at once.
 * The fee is the spec's (1% + 1 yuan) and not editable.
 */

type TOptionDeps = Pick<TDeps, 'db' | 'clock' | 'config' | 'payProviders'>;

/** True when an operator switched the method off. */
export async function isMethodSwitchedOff(db: TDbOrTx, method: TPayMethod): Promise<boolean> {
  return (await findMethodSetting(db, method))?.isEnabled === false;
}

/** The configured providers an operator has not switched off: what the top-up offers. */
export async function offeredProviders(deps: Pick<TDeps, 'db' | 'payProviders'>): Promise<TPayProvider[]> {
  const off = new Set((await listMethodSettings(deps.db)).filter((s) => !s.isEnabled).map((s) => s.method));
  return [...deps.payProviders.values()].filter((p) => !off.has(p.method));
}

function methodState(deps: Pick<TDeps, 'payProviders'>, method: TPayMethod, isEnabled: boolean): TPayMethodState {
  const isConfigured = deps.payProviders.has(method);
  return { method, is_configured: isConfigured, is_enabled: isEnabled, is_offered: isConfigured && isEnabled };
}

async function toVersions(
  db: TDbOrTx,
  heads: TOptionSetHead[],
  statusOf: (h: TOptionSetHead) => TVersionStatus,
): Promise<TChargeOptionVersion[]> {
  const options = await listOptionsOf(
    db,
    heads.map((h) => h.version),
  );
  const emails = await findEmails(db, [...new Set(heads.flatMap((h) => (h.createdBy === null ? [] : [h.createdBy])))]);
  return heads.map((h) => ({
    version: h.version,
    effective_at: h.effectiveAt.toISOString(),
    created_at: h.createdAt.toISOString(),
    created_by: h.createdBy === null ? null : (emails.get(h.createdBy) ?? null),
    status: statusOf(h),
    options: options
      .filter((o) => o.version === h.version)
      .map((o) => ({ amount_fen: o.amountFen, gift_fen: o.giftFen })),
  }));
}

async function currentVersion(db: TDbOrTx, now: Date): Promise<number | null> {
  const [first] = await findCurrentOptions(db, now);
  return first?.version ?? null;
}

/** GET /admin/charge-options. */
export async function getAdminChargeOptions(deps: TOptionDeps): Promise<TAdminChargeOptions> {
  const now = deps.clock.now();
  const version = await currentVersion(deps.db, now);
  const head = version === null ? undefined : await findHead(deps.db, version);
  const [current] = head ? await toVersions(deps.db, [head], () => 'current') : [];
  const scheduled = await toVersions(deps.db, await listScheduledHeads(deps.db, now), () => 'scheduled');
  const settings = new Map((await listMethodSettings(deps.db)).map((s) => [s.method, s.isEnabled]));
  return {
    current: current ?? null,
    scheduled,
    methods: PAY_METHODS.map((m) => methodState(deps, m, settings.get(m) ?? true)),
    fee: { percent: RECHARGE_FEE_PERCENT, fixed_fen: RECHARGE_FEE_FIXED_FEN },
    min_amount_fen: Math.round(deps.config.PAY_MIN_AMOUNT * 100),
    max_amount_fen: Math.round(deps.config.PAY_MAX_AMOUNT * 100),
  };
}

/** GET /admin/charge-options/versions. */
export async function listChargeOptionVersions(
  deps: TOptionDeps,
  query: { page: number; page_size: number },
): Promise<TPage<TChargeOptionVersion>> {
  const now = deps.clock.now();
  const current = await currentVersion(deps.db, now);
  const { records, total } = await listHeadPage(deps.db, query.page_size, (query.page - 1) * query.page_size);
  const versions = await toVersions(deps.db, records, (h) =>
    h.effectiveAt.getTime() > now.getTime() ? 'scheduled' : h.version === current ? 'current' : 'past',
  );
  return { records: versions, total, page: query.page, page_size: query.page_size };
}

/** POST /admin/charge-options: a new version; amounts must lie within the top-up bounds. */
export async function createChargeOptionSet(
  deps: TOptionDeps,
  operatorId: number,
  input: TChargeOptionSetInput,
): Promise<TChargeOptionVersion> {
  const now = deps.clock.now();
  const [minFen, maxFen] = [Math.round(deps.config.PAY_MIN_AMOUNT * 100), Math.round(deps.config.PAY_MAX_AMOUNT * 100)];
  const outOfRange = input.options.flatMap((o, i) =>
    o.amount_fen < minFen || o.amount_fen > maxFen
      ? [
          {
            path: `options.${i}.amount_fen`,
            message: 'amountRange',
            params: { min: deps.config.PAY_MIN_AMOUNT, max: deps.config.PAY_MAX_AMOUNT },
          },
        ]
      : [],
  );
  if (outOfRange.length > 0) throw new AppError('BAD_REQUEST', undefined, outOfRange);
  const effectiveAt = resolveEffectiveAt(now, input.effective_at);
  const version = await deps.db.transaction((tx) =>
    insertNextOptionSet(
      tx,
      input.options.map((o) => ({ amountFen: o.amount_fen, giftFen: o.gift_fen })),
      { effectiveAt, createdBy: operatorId },
    ),
  );
  const head = await findHead(deps.db, version);
  const current = await currentVersion(deps.db, now);
  const [created] = await toVersions(deps.db, [head!], (h) =>
    h.effectiveAt.getTime() > now.getTime() ? 'scheduled' : h.version === current ? 'current' : 'past',
  );
  return created!;
}

/** PUT /admin/charge-options/methods/:method: a method without provider settings cannot be switched on. */
export async function setPayMethod(
  deps: Pick<TDeps, 'db' | 'clock' | 'payProviders'>,
  operatorId: number,
  method: TPayMethod,
  isEnabled: boolean,
): Promise<TPayMethodState> {
  if (isEnabled && !deps.payProviders.has(method)) throw new AppError('PAY_METHOD_NOT_CONFIGURED');
  // In a transaction: the operator call's audit entry is written in it (features/audit).
  await deps.db.transaction((tx) =>
    upsertMethodSetting(tx, { method, isEnabled, updatedBy: operatorId, updatedAt: deps.clock.now() }),
  );
  return methodState(deps, method, isEnabled);
}
