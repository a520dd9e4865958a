import { createHash } from 'node:crypto';
import { fenToYuan, priceIpFen, type TBatchResult, type TLang, type TRenewPreview } from '@proxy/contract';
import type { TTx } from '@proxy/db';
import { AppError } from '../../lib/app-error';
import { uniqueViolationOf } from '../../lib/database-errors';
import type { TDeps } from '../../lib/deps';
import { faultPoint } from '../../lib/fault-points';
import { exitKindOf } from '../areas/areas.service';
import { bumpGatewayVersion } from '../gateway/gateway-state.repository';
import { changeGatewayState } from '../gateway/gateway-state.service';
import {
  findDirectNodeInArea,
  lockFreeUpstreamNodes,
  setNodeHolder,
  type TAreaFilter,
} from '../inventory/inventory.repository';
import { findEntryByIdempotencyKey } from '../ledger/ledger.repository';
import { createLedgerService } from '../ledger/ledger.service';
import { loadPricing } from '../pricing/pricing.service';
import { readFairUseGbPerDay, renewedAllowanceBytes } from '../areas/fair-use';
import { emitProxyWebhook } from '../webhooks/webhooks.service';
import {
  findOrderByKey,
  findUserTokens,
  insertOrder,
  lockUserTokens,
  updateToken,
  type TOrderRow,
  type TTokenRow,
} from './proxies.repository';
import { DAY_MS, priceKindOf, uniqueIds, type TProduct, type TServiceDeps } from './proxies.service';

/** Whether a renewal of `product` takes this token: a live or expired IP token of that product (not deleted, not used up). */
function isRenewable(row: TTokenRow, product: TProduct): boolean {
  return !row.deletedAt && row.billing === 'ip' && row.product === product && row.status !== 'invalid';
}

/**
 * Prices a renewal without making it (no lock, no debit, no change): each
 * token in the order the renewal takes them (by id), its price by the same
 * catalogue and rule as renewTokens, the total the renewal would debit, and
 * how many of the renewable tokens the available balance covers in that
 * order. A static token whose exit was released may still fail for stock.
 */
export async function previewRenewal(
  deps: Pick<TDeps, 'db' | 'clock'>,
  userId: number,
  product: TProduct,
  ids: number[],
  days: number,
): Promise<TRenewPreview> {
  const wanted = uniqueIds(ids).sort((a, b) => a - b);
  const now = deps.clock.now();
  const { catalogue } = await loadPricing(deps.db, now);
  const rows = new Map((await findUserTokens(deps.db, userId, wanted)).map((r) => [r.id, r]));
  const { availableFen } = await createLedgerService(deps).getBalance(userId);
  let totalFen = 0;
  let coveredFen = 0;
  let coveredCount = 0;
  let isCovering = true;
  const items = wanted.map((id) => {
    const row = rows.get(id);
    if (!row || !isRenewable(row, product)) {
      return {
        token_id: id,
        username: row?.username ?? '',
        remark: row?.remark ?? '',
        expires_at: row?.expiresAt.toISOString() ?? null,
        new_expires_at: null,
        price: 0,
        is_renewable: false,
        is_covered: false,
      };
    }
    const priceFen = priceIpFen(priceKindOf(row), days, catalogue);
    totalFen += priceFen;
    isCovering = isCovering && coveredFen + priceFen <= availableFen;
    if (isCovering) {
      coveredFen += priceFen;
      coveredCount += 1;
    }
    const from = Math.max(now.getTime(), row.expiresAt.getTime());
    return {
      token_id: id,
      username: row.username,
      remark: row.remark,
      expires_at: row.expiresAt.toISOString(),
      new_expires_at: new Date(from + days * DAY_MS).toISOString(),
      price: fenToYuan(priceFen),
      is_renewable: true,
      is_covered: isCovering,
    };
  });
  return {
    days,
    items,
    total: fenToYuan(totalFen),
    balance: fenToYuan(availableFen),
    covered_count: coveredCount,
    covered_total: fenToYuan(coveredFen),
  };
}

/** Answer of a renewal. */
export type TRenewResult = TBatchResult & { cost: number; balance: number };

// What a keyed renewal asked for (the product, the days and the set of token ids), as a SHA-256 hex.
function renewalFingerprint(product: TProduct, wanted: number[], days: number): string {
  const ids = [...wanted].sort((a, b) => a - b);
  return createHash('sha256')
    .update(JSON.stringify([product, days, ids]))
    .digest('hex');
}

// The first answer of a keyed renewal again (its order and its debit), when the request is the same; else IDEMPOTENCY_CONFLICT.
async function replayRenewal(
  tx: TTx,
  ledger: ReturnType<typeof createLedgerService>,
  first: TOrderRow,
  fingerprint: string,
  total: number,
): Promise<TRenewResult> {
  if (first.action !== 'renew' || first.requestFingerprint !== fingerprint) throw new AppError('IDEMPOTENCY_CONFLICT');
  const debit = first.idempotencyKey
    ? await findEntryByIdempotencyKey(tx, first.userId, first.idempotencyKey)
    : undefined;
  const balanceFen = debit ? debit.availableAfter : (await ledger.getBalance(first.userId, tx)).availableFen;
  return {
    success: first.quantity,
    failed: total - first.quantity,
    total,
    cost: fenToYuan(first.costFen),
    balance: fenToYuan(balanceFen),
  };
}

/**
 * Renews IP tokens of a product by `days` from the balance: one debit for
 * every renewable token, expiry extended from max(now, expiry). A static token
 * whose upstream node was released re-claims one in its area (or counts as
 * failed, NO_STOCK when none could be renewed). Unknown, foreign, deleted and
 * traffic tokens count as failed. The same Idempotency-Key answers the first
 * renewal again without a second debit (a renewal that renewed nothing
 * records nothing); with another product, days or set of tokens it is
 * IDEMPOTENCY_CONFLICT.
 */
export async function renewTokens(
  deps: TServiceDeps,
  userId: number,
  product: TProduct,
  ids: number[],
  days: number,
  idempotencyKey?: string,
): Promise<TRenewResult> {
  const wanted = uniqueIds(ids);
  const ledger = createLedgerService(deps);
  const key = idempotencyKey ? `renew:${idempotencyKey}` : undefined;
  const fingerprint = renewalFingerprint(product, wanted, days);
  const renew = () => changeGatewayState(deps, () => deps.db.transaction(async (tx) => renewLocked(tx)));
  const renewLocked = async (tx: TTx): Promise<TRenewResult> => {
    const now = deps.clock.now();
    const { catalogue, versionIds } = await loadPricing(tx, now);
    // Token rows first, then the balance row: the auto-renew job locks in the same order.
    const rows = await lockUserTokens(tx, userId, wanted);
    // Under the token locks: a twin of this request on the same tokens has committed (and is visible) or not started.
    const first = key ? await findOrderByKey(tx, userId, key) : undefined;
    if (first) return replayRenewal(tx, ledger, first, fingerprint, wanted.length);
    const renewals: { row: TTokenRow; exitNodeId: number | null; claimedNode?: number; priceFen: number }[] = [];
    let isOutOfStock = false;
    for (const row of rows) {
      if (!isRenewable(row, product)) continue;
      let exitNodeId = row.exitNodeId;
      let claimedNode: number | undefined;
      if (row.product === 'static' && exitNodeId === null) {
        const area: TAreaFilter = {
          kind: exitKindOf(row.category),
          country: row.country,
          state: row.state,
          city: row.city,
        };
        const [upstream] = await lockFreeUpstreamNodes(tx, area, 1);
        const node = upstream ?? (await findDirectNodeInArea(tx, area));
        if (!node) {
          isOutOfStock = true;
          continue;
        }
        exitNodeId = node.id;
        if (upstream) claimedNode = upstream.id;
      }
      renewals.push({ row, exitNodeId, claimedNode, priceFen: priceIpFen(priceKindOf(row), days, catalogue) });
    }
    if (renewals.length === 0 && isOutOfStock) throw new AppError('NO_STOCK');
    const costFen = renewals.reduce((sum, r) => sum + r.priceFen, 0);
    let balanceFen: number;
    if (costFen > 0) {
      const debit = await ledger.debit(
        {
          userId,
          amountFen: costFen,
          reason: 'renew',
          reference: `proxy:renew:${renewals.map((r) => r.row.id).join(',')}`.slice(0, 200),
          idempotencyKey: key,
        },
        tx,
      );
      if (debit.isReplay) {
        // A twin with the same key on other tokens committed first (same cost, so the ledger did not refuse it).
        const twin = key ? await findOrderByKey(tx, userId, key) : undefined;
        if (!twin) throw new AppError('IDEMPOTENCY_CONFLICT');
        return replayRenewal(tx, ledger, twin, fingerprint, wanted.length);
      }
      balanceFen = debit.availableFen;
    } else {
      balanceFen = (await ledger.getBalance(userId, tx)).availableFen;
    }
    await faultPoint('renew.debited', tx);
    // Read once, under the token locks: the allowance a fair-use proxy gains with its days.
    const fairUseGb = renewals.some((r) => r.row.product === 'dynamic') ? await readFairUseGbPerDay(tx) : 0;
    for (const { row, exitNodeId, claimedNode } of renewals) {
      const from = Math.max(now.getTime(), row.expiresAt.getTime());
      await updateToken(tx, row.id, {
        expiresAt: new Date(from + days * DAY_MS),
        status: row.status === 'expired' ? 'enabled' : row.status,
        exitNodeId,
        autoRenewFailedFor: null,
        trafficLimitBytes: renewedAllowanceBytes(row, days, fairUseGb),
      });
      if (claimedNode !== undefined) await setNodeHolder(tx, claimedNode, row.id);
      await emitProxyWebhook(
        tx,
        'proxy.renewed',
        { ...row, expiresAt: new Date(from + days * DAY_MS) },
        { auto_renew: false },
      );
    }
    if (renewals.length > 0) {
      const first = renewals[0].row;
      await insertOrder(tx, {
        userId,
        action: 'renew',
        product,
        category: first.category,
        billing: 'ip',
        quantity: renewals.length,
        amount: String(days),
        costFen,
        idempotencyKey: key ?? null,
        requestFingerprint: key ? fingerprint : null,
        priceVersions: versionIds,
        createdAt: now,
      });
      await bumpGatewayVersion(tx);
    }
    return {
      success: renewals.length,
      failed: wanted.length - renewals.length,
      total: wanted.length,
      cost: fenToYuan(costFen),
      balance: fenToYuan(balanceFen),
    };
  };
  try {
    return await renew();
  } catch (error) {
    // A free renewal's twin with the same key inserted its order first: answer it (or refuse a different request).
    if (key && uniqueViolationOf(error) === 'proxy_orders_idempotency_key') return renew();
    throw error;
  }
}

/** Payment options of renewals: the balance is the only one. */
export async function listPayways(deps: Pick<TDeps, 'db' | 'clock'>, userId: number, lang: TLang) {
  const balance = await createLedgerService(deps).getBalance(userId);
  const names = { zh: '余额支付', en: 'Balance' };
  return [
    {
      id: 'balance' as const,
      name: names[lang],
      name_zh: names.zh,
      name_en: names.en,
      balance: fenToYuan(balance.availableFen),
    },
  ];
}
