import {
  BYTES_PER_GB,
  TRAFFIC_VALID_DAYS,
  fenToYuan,
  formatProxyLine,
  priceIpFen,
  priceTrafficFen,
  proxyUrlOf,
  type TBatchResult,
  type TBuyIpBody,
  type TBuyResult,
  type TBuyTrafficBody,
  type TExportQuery,
  type TLang,
  type TPriceCatalogue,
  type TPriceKind,
  type TProxyList,
  type TProxyListQuery,
  type TProxyToken,
  type TPage,
  type TRenewPreview,
} from '@proxy/contract';
import { createHash } from 'node:crypto';
import type { TTx } from '@proxy/db';
import { csvCell } from '../../lib/csv';
import { AppError } from '../../lib/app-error';
import { faultPoint } from '../../lib/fault-points';
import type { TDeps } from '../../lib/deps';
import { RawReply } from '../../lib/routing';
import { cityName, countryName, stateName } from '../areas/area-names';
import { exitKindOf } from '../areas/areas.service';
import { bumpGatewayVersion } from '../gateway/gateway-state.repository';
import { changeGatewayState } from '../gateway/gateway-state.service';
import {
  countNodesInArea,
  findDirectNodeInArea,
  lockFreeUpstreamNodes,
  releaseNode,
  setNodeHolder,
  type TAreaFilter,
  type TExitNodeRow,
} from '../inventory/inventory.repository';
import { findEntryByIdempotencyKey } from '../ledger/ledger.repository';
import { createLedgerService } from '../ledger/ledger.service';
import { uniqueViolationOf } from '../../lib/database-errors';
import { loadPricing, type TPriceVersionIds } from '../pricing/pricing.service';
import {
  findOrderByKey,
  findOrderTokens,
  findUserTokens,
  insertOrder,
  insertTokens,
  listTokensMatching,
  listTokensPage,
  lockUserTokens,
  updateToken,
  type TNewToken,
  type TOrderRow,
  type TTokenRow,
} from './proxies.repository';
import { generateProxyPassword, generateProxyUsername } from './token-credentials';
import { emitProxyWebhook } from '../webhooks/webhooks.service';

/** Static (pinned exit) or dynamic (rotating). */
export type TProduct = 'static' | 'dynamic';
/** By traffic or by IP. */
export type TBilling = 'traffic' | 'ip';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Most tokens one export answers. */
export const EXPORT_MAX_TOKENS = 10_000;

type TServiceDeps = Pick<TDeps, 'db' | 'clock' | 'config' | 'gatewayApplied'>;

/** Price family of a token: data-center, else static or dynamic residential. */
export function priceKindOf(token: { category: 'isp' | 'idc'; product: TProduct }): TPriceKind {
  return token.category === 'idc' ? 'idc' : token.product;
}

/** Traffic allowance in bytes of `gb` GB: GB x 1024^3, rounded to the byte (0.1 GB = 107374182 bytes). */
export function trafficBytesOf(gb: number): number {
  // Tenths of a GB are exact integers; the one division rounds once.
  return Math.round((Math.round(gb * 10) * BYTES_PER_GB) / 10);
}

/** A token as the API shows it, in the request's language. */
export function toProxyToken(row: TTokenRow, deps: Pick<TDeps, 'config'>, lang: TLang): TProxyToken {
  const host = deps.config.gatewayPublicHost;
  const port = deps.config.GATEWAY_PUBLIC_PORT;
  return {
    token_id: row.id,
    remark: row.remark,
    product: row.product,
    category: row.category,
    type: row.billing,
    network: row.network,
    area: {
      country: row.country,
      state: row.state,
      city: row.city,
      country_name: countryName(row.country)[lang],
      state_name: stateName(row.country, row.state)[lang],
      city_name: cityName(row.country, row.state, row.city)[lang],
    },
    usage: { used_bytes: row.trafficUsedBytes, limit_bytes: row.trafficLimitBytes },
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    status: row.deletedAt ? 'deleted' : row.status,
    auto_renew: row.autoRenew,
    host,
    port,
    username: row.username,
    password: row.password,
    proxy_url: proxyUrlOf({ host, port, username: row.username, password: row.password, network: row.network }),
  };
}

/** What a purchase asks for. */
export type TPurchase = { product: TProduct; billing: 'traffic'; body: TBuyTrafficBody } | { product: TProduct; billing: 'ip'; body: TBuyIpBody };

function purchaseCostFen(purchase: TPurchase, catalogue: TPriceCatalogue): { totalFen: number; periodPriceFen: number; amount: string } {
  const kind = priceKindOf({ category: purchase.body.category, product: purchase.product });
  const quantity = purchase.body.quantity;
  if (purchase.billing === 'traffic') {
    // The tier is that of the whole purchase (ARCHITECTURE.md: "per purchase"); tenths keep the product exact.
    const tenths = Math.round(purchase.body.traffic_gb * 10);
    return { totalFen: priceTrafficFen(kind, (tenths * quantity) / 10, catalogue), periodPriceFen: 0, amount: String(tenths / 10) };
  }
  const perToken = priceIpFen(kind, purchase.body.days, catalogue);
  return { totalFen: perToken * quantity, periodPriceFen: perToken, amount: String(purchase.body.days) };
}

// Exit nodes for the tokens of a purchase (or a renewal that must re-claim); NO_STOCK when the area cannot serve them.
async function allocateExits(
  tx: TTx,
  area: TAreaFilter,
  product: TProduct,
  billing: TBilling,
  quantity: number,
): Promise<{ nodes: (TExitNodeRow | null)[]; claimed: Set<number> }> {
  if (product === 'dynamic') {
    // Dynamic tokens rotate among the area's nodes at the gateway; they pin none.
    if ((await countNodesInArea(tx, area)) === 0) throw new AppError('NO_STOCK');
    return { nodes: Array.from({ length: quantity }, () => null), claimed: new Set() };
  }
  const direct = await findDirectNodeInArea(tx, area);
  if (billing === 'traffic') {
    // A static traffic token shares an exit: the direct node, else a free upstream node it does not hold.
    const node = direct ?? (await lockFreeUpstreamNodes(tx, area, 1))[0];
    if (!node) throw new AppError('NO_STOCK');
    return { nodes: Array.from({ length: quantity }, () => node), claimed: new Set() };
  }
  // A static IP holds an upstream node exclusively; the shared direct node serves the rest.
  const upstream = await lockFreeUpstreamNodes(tx, area, quantity);
  if (upstream.length < quantity && !direct) throw new AppError('NO_STOCK');
  const nodes = Array.from({ length: quantity }, (_, i) => upstream[i] ?? direct ?? null);
  return { nodes, claimed: new Set(upstream.map((n) => n.id)) };
}

/** What an allocation records: the cost (already paid by the caller), the price of one period and the amount text of the order. */
export type TAllocationCharge = {
  costFen: number;
  periodPriceFen: number;
  amount: string;
  idempotencyKey?: string;
  now: Date;
  priceVersions?: TPriceVersionIds;
};

/**
 * Allocates what a purchase asks for, inside the caller's transaction (which
 * has moved the money): exits of the area (NO_STOCK when it cannot serve
 * them), the order, the tokens with their normal expiry, the exit claims and
 * the gateway version. A purchase and a completed supply request both use it.
 */
export async function allocatePurchase(
  tx: TTx,
  userId: number,
  purchase: TPurchase,
  charge: TAllocationCharge,
): Promise<{ order: { id: number }; tokens: TTokenRow[] }> {
  const { body, product, billing } = purchase;
  const { now } = charge;
  const area: TAreaFilter = { kind: exitKindOf(body.category), country: body.country_id, state: body.state_id, city: body.city_id };
  const { nodes, claimed } = await allocateExits(tx, area, product, billing, body.quantity);
  const order = await insertOrder(tx, {
    userId,
    action: 'purchase',
    product,
    category: body.category,
    billing,
    quantity: body.quantity,
    amount: charge.amount,
    costFen: charge.costFen,
    idempotencyKey: charge.idempotencyKey ?? null,
    priceVersions: charge.priceVersions ?? null,
    createdAt: now,
  });
  const expiresAt = purchase.billing === 'ip' ? new Date(now.getTime() + purchase.body.days * DAY_MS) : new Date(now.getTime() + TRAFFIC_VALID_DAYS * DAY_MS);
  const rows: TNewToken[] = nodes.map((node) => ({
    userId,
    product,
    category: body.category,
    billing,
    network: body.network,
    country: body.country_id,
    state: body.state_id ?? '',
    city: body.city_id ?? '',
    username: generateProxyUsername(),
    password: generateProxyPassword(),
    status: 'enabled',
    autoRenew: billing === 'ip' && Boolean(body.auto_renew),
    remark: body.remark ?? '',
    exitNodeId: node?.id ?? null,
    trafficLimitBytes: purchase.billing === 'traffic' ? trafficBytesOf(purchase.body.traffic_gb) : null,
    periodDays: purchase.billing === 'ip' ? purchase.body.days : 0,
    periodPriceFen: charge.periodPriceFen,
    expiresAt,
    orderId: order.id,
    createdAt: now,
  }));
  const tokens = await insertTokens(tx, rows);
  for (const token of tokens) {
    if (token.exitNodeId !== null && claimed.has(token.exitNodeId)) await setNodeHolder(tx, token.exitNodeId, token.id);
  }
  await bumpGatewayVersion(tx);
  return { order, tokens };
}

/**
 * Buys `quantity` tokens: the debit, the order, the tokens and the exit claims
 * in one transaction. The same Idempotency-Key answers the same tokens again
 * without a second debit.
 */
export async function purchaseTokens(
  deps: TServiceDeps,
  userId: number,
  purchase: TPurchase,
  idempotencyKey: string | undefined,
  lang: TLang,
): Promise<TBuyResult> {
  const { body, product, billing } = purchase;
  if (product === 'dynamic' && body.category === 'idc') throw new AppError('PRODUCT_NOT_OFFERED');
  const ledger = createLedgerService(deps);
  const key = idempotencyKey ? `purchase:${idempotencyKey}` : undefined;
  return changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      const now = deps.clock.now();
      const { catalogue, versionIds } = await loadPricing(tx, now);
      const { totalFen, periodPriceFen, amount } = purchaseCostFen(purchase, catalogue);
      const debit = await ledger.debit(
        { userId, amountFen: totalFen, reason: 'purchase', reference: `proxy:${product}:${body.category}:${billing}`, idempotencyKey: key },
        tx,
      );
      if (debit.isReplay) {
        const order = key ? await findOrderByKey(tx, userId, key) : undefined;
        if (!order) throw new AppError('IDEMPOTENCY_CONFLICT');
        const tokens = await findOrderTokens(tx, userId, order.id);
        // A key answers again only the request it was first used with: the same call and the same fields.
        const first = tokens[0];
        const isSameRequest =
          order.action === 'purchase' &&
          order.product === product &&
          order.billing === billing &&
          order.category === body.category &&
          order.quantity === body.quantity &&
          order.amount === amount &&
          first?.network === body.network &&
          first.country === body.country_id &&
          first.state === (body.state_id ?? '') &&
          first.city === (body.city_id ?? '');
        if (!isSameRequest) throw new AppError('IDEMPOTENCY_CONFLICT');
        return {
          tokens: tokens.map((t) => toProxyToken(t, deps, lang)),
          cost: fenToYuan(order.costFen),
          balance: fenToYuan(debit.availableFen),
          order_id: order.id,
        };
      }
      await faultPoint('purchase.debited', tx);
      const { order, tokens } = await allocatePurchase(tx, userId, purchase, {
        costFen: totalFen,
        periodPriceFen,
        amount,
        idempotencyKey: key,
        now,
        priceVersions: versionIds,
      });
      return { tokens: tokens.map((t) => toProxyToken(t, deps, lang)), cost: fenToYuan(totalFen), balance: fenToYuan(debit.availableFen), order_id: order.id };
    }),
  );
}

/** A page of one of the seven lists. */
export async function listTokens(
  deps: Pick<TDeps, 'db' | 'config'>,
  userId: number,
  list: TProxyList,
  query: TProxyListQuery,
  lang: TLang,
): Promise<TPage<TProxyToken>> {
  const { page, page_size, ...filters } = query;
  const { rows, total } = await listTokensPage(deps.db, userId, { ...filters, list }, { limit: page_size, offset: (page - 1) * page_size });
  return { records: rows.map((r) => toProxyToken(r, deps, lang)), total, page, page_size };
}

// The user's live (not deleted) token, locked; another user's or a deleted one is NOT_FOUND.
async function lockOwnLiveToken(tx: TTx, userId: number, id: number): Promise<TTokenRow> {
  const [row] = await lockUserTokens(tx, userId, [id]);
  if (!row || row.deletedAt) throw new AppError('NOT_FOUND');
  return row;
}

/** Enables or disables a token (the gateways drop it within seconds); expired or used-up tokens cannot be switched. */
export async function setTokenStatus(deps: TServiceDeps, userId: number, id: number, status: 'enabled' | 'disabled', lang: TLang): Promise<TProxyToken> {
  return changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      const row = await lockOwnLiveToken(tx, userId, id);
      if (row.status !== 'enabled' && row.status !== 'disabled') throw new AppError('TOKEN_NOT_APPLICABLE');
      if (row.status === status) return toProxyToken(row, deps, lang);
      const updated = await updateToken(tx, id, { status });
      await bumpGatewayVersion(tx);
      return toProxyToken(updated, deps, lang);
    }),
  );
}

/** Deletes a token softly (it can be restored); the gateways stop accepting it. */
export async function deleteToken(deps: TServiceDeps, userId: number, id: number): Promise<void> {
  await changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      await lockOwnLiveToken(tx, userId, id);
      await updateToken(tx, id, { deletedAt: deps.clock.now() });
      await bumpGatewayVersion(tx);
    }),
  );
}

/** Gives a token a new password; the old one stops working within seconds. */
export async function resetTokenPassword(deps: TServiceDeps, userId: number, id: number, lang: TLang): Promise<TProxyToken> {
  return changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      await lockOwnLiveToken(tx, userId, id);
      const updated = await updateToken(tx, id, { password: generateProxyPassword() });
      await bumpGatewayVersion(tx);
      return toProxyToken(updated, deps, lang);
    }),
  );
}

/** Edits a token's remark. */
export async function setTokenRemark(deps: TServiceDeps, userId: number, id: number, remark: string, lang: TLang): Promise<TProxyToken> {
  return deps.db.transaction(async (tx) => {
    await lockOwnLiveToken(tx, userId, id);
    return toProxyToken(await updateToken(tx, id, { remark }), deps, lang);
  });
}

function uniqueIds(ids: number[]): number[] {
  return [...new Set(ids)];
}

/**
 * Deletes (or restores) tokens per item: unknown, foreign or not applicable
 * ids count as failed, the rest proceed, in one transaction.
 */
export async function batchSetDeleted(deps: TServiceDeps, userId: number, ids: number[], isDelete: boolean): Promise<TBatchResult> {
  const wanted = uniqueIds(ids);
  return changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      const rows = await lockUserTokens(tx, userId, wanted);
      const now = deps.clock.now();
      let success = 0;
      for (const row of rows) {
        if (isDelete === (row.deletedAt !== null)) continue;
        // A restored token keeps its stored status: an expired one stays expired.
        await updateToken(tx, row.id, { deletedAt: isDelete ? now : null });
        success += 1;
      }
      if (success > 0) await bumpGatewayVersion(tx);
      return { success, failed: wanted.length - success, total: wanted.length };
    }),
  );
}

/** Turns auto-renew on or off for IP tokens of a product; others count as failed. */
export async function batchSetAutoRenew(deps: TServiceDeps, userId: number, product: TProduct, ids: number[], isOn: boolean): Promise<TBatchResult> {
  const wanted = uniqueIds(ids);
  return deps.db.transaction(async (tx) => {
    const rows = await lockUserTokens(tx, userId, wanted);
    let success = 0;
    for (const row of rows) {
      if (row.deletedAt || row.billing !== 'ip' || row.product !== product) continue;
      if (row.autoRenew !== isOn) await updateToken(tx, row.id, { autoRenew: isOn });
      success += 1;
    }
    return { success, failed: wanted.length - success, total: wanted.length };
  });
}

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
  return { days, items, total: fenToYuan(totalFen), balance: fenToYuan(availableFen), covered_count: coveredCount, covered_total: fenToYuan(coveredFen) };
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
  const debit = first.idempotencyKey ? await findEntryByIdempotencyKey(tx, first.userId, first.idempotencyKey) : undefined;
  const balanceFen = debit ? debit.availableAfter : (await ledger.getBalance(first.userId, tx)).availableFen;
  return { success: first.quantity, failed: total - first.quantity, total, cost: fenToYuan(first.costFen), balance: fenToYuan(balanceFen) };
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
        const area: TAreaFilter = { kind: exitKindOf(row.category), country: row.country, state: row.state, city: row.city };
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
    for (const { row, exitNodeId, claimedNode } of renewals) {
      const from = Math.max(now.getTime(), row.expiresAt.getTime());
      await updateToken(tx, row.id, {
        expiresAt: new Date(from + days * DAY_MS),
        status: row.status === 'expired' ? 'enabled' : row.status,
        exitNodeId,
        autoRenewFailedFor: null,
      });
      if (claimedNode !== undefined) await setNodeHolder(tx, claimedNode, row.id);
      await emitProxyWebhook(tx, 'proxy.renewed', { ...row, expiresAt: new Date(from + days * DAY_MS) }, { auto_renew: false });
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
  return [{ id: 'balance' as const, name: names[lang], name_zh: names.zh, name_en: names.en, balance: fenToYuan(balance.availableFen) }];
}

/**
 * The export file: the given tokens, or every token matching the list filters,
 * one line each in the chosen line format; csv adds a header and columns.
 * Both URL formats (http, socks5) write each proxy with the scheme of its own
 * protocol, so every line works at the gateway whatever the mix.
 */
export async function exportTokens(deps: Pick<TDeps, 'db' | 'config'>, userId: number, query: TExportQuery): Promise<RawReply> {
  const { token_ids: ids, format, line, ...filters } = query;
  const rows = ids
    ? (await findUserTokens(deps.db, userId, uniqueIds(ids).slice(0, EXPORT_MAX_TOKENS))).filter((r) => !r.deletedAt)
    : await listTokensMatching(deps.db, userId, filters, EXPORT_MAX_TOKENS);
  const host = deps.config.gatewayPublicHost;
  const port = deps.config.GATEWAY_PUBLIC_PORT;
  const lineOf = (r: TTokenRow) => formatProxyLine({ host, port, username: r.username, password: r.password, network: r.network }, line);
  if (format === 'csv') {
    const header = [
      'token_id',
      'line',
      'host',
      'port',
      'username',
      'password',
      'network',
      'type',
      'country',
      'state',
      'city',
      'status',
      'expires_at',
      'remark',
    ];
    const body = rows.map((r) =>
      [
        r.id,
        lineOf(r),
        host,
        port,
        r.username,
        r.password,
        r.network,
        r.billing,
        r.country,
        r.state,
        r.city,
        r.deletedAt ? 'deleted' : r.status,
        r.expiresAt.toISOString(),
        r.remark,
      ]
        .map(csvCell)
        .join(','),
    );
    return new RawReply(`${[header.join(','), ...body].join('\r\n')}\r\n`, 'text/csv; charset=utf-8', 'proxies.csv');
  }
  const text = rows.map(lineOf).join('\n');
  return new RawReply(text ? `${text}\n` : '', 'text/plain; charset=utf-8', 'proxies.txt');
}

/** Releases a static IP token's upstream node back to the pool (expiry unrenewed). */
export async function releaseTokenExit(tx: TTx, row: TTokenRow): Promise<boolean> {
  if (row.product !== 'static' || row.billing !== 'ip' || row.exitNodeId === null) return false;
  const isReleased = await releaseNode(tx, row.exitNodeId, row.id);
  // A shared direct node stays pinned: nothing was held.
  if (isReleased) await updateToken(tx, row.id, { exitNodeId: null });
  return isReleased;
}
