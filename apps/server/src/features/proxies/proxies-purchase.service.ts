import {
  TRAFFIC_VALID_DAYS,
  fenToYuan,
  priceIpFen,
  priceTrafficFen,
  type TBuyIpBody,
  type TBuyResult,
  type TBuyTrafficBody,
  type TLang,
  type TPriceCatalogue,
} from '@proxy/contract';
import type { TTx } from '@proxy/db';
import { AppError } from '../../lib/app-error';
import { faultPoint } from '../../lib/fault-points';
import { exitKindOf, findDynamicSupply } from '../areas/areas.service';
import { bumpGatewayVersion } from '../gateway/gateway-state.repository';
import { changeGatewayState } from '../gateway/gateway-state.service';
import {
  findDirectNodeInArea,
  lockFreeUpstreamNodes,
  setNodeHolder,
  type TAreaFilter,
  type TExitNodeRow,
} from '../inventory/inventory.repository';
import { createLedgerService } from '../ledger/ledger.service';
import { loadPricing, type TPriceVersionIds } from '../pricing/pricing.service';
import {
  findOrderByKey,
  findOrderTokens,
  insertOrder,
  insertTokens,
  type TNewToken,
  type TTokenRow,
} from './proxies.repository';
import {
  DAY_MS,
  priceKindOf,
  toProxyToken,
  trafficBytesOf,
  type TBilling,
  type TProduct,
  type TServiceDeps,
} from './proxies.service';
import { fairUseBytes, readFairUseGbPerDay } from '../areas/fair-use';
import { generateProxyPassword, generateProxyUsername } from './token-credentials';

/** What a purchase asks for. */
export type TPurchase =
  | { product: TProduct; billing: 'traffic'; body: TBuyTrafficBody }
  | { product: TProduct; billing: 'ip'; body: TBuyIpBody };

function purchaseCostFen(
  purchase: TPurchase,
  catalogue: TPriceCatalogue,
): { totalFen: number; periodPriceFen: number; amount: string } {
  const kind = priceKindOf({ category: purchase.body.category, product: purchase.product });
  const quantity = purchase.body.quantity;
  if (purchase.billing === 'traffic') {
    // The tier is that of the whole purchase (ARCHITECTURE.md: "per purchase"); tenths keep the product exact.
    const tenths = Math.round(purchase.body.traffic_gb * 10);
    return {
      totalFen: priceTrafficFen(kind, (tenths * quantity) / 10, catalogue),
      periodPriceFen: 0,
      amount: String(tenths / 10),
    };
  }
  const perToken = priceIpFen(kind, purchase.body.days, catalogue);
  return { totalFen: perToken * quantity, periodPriceFen: perToken, amount: String(purchase.body.days) };
}

// Exit nodes for the tokens of a purchase (or a renewal that must re-claim); NO_STOCK when the area cannot serve them.
async function allocateExits(
  tx: TTx,
  now: Date,
  area: TAreaFilter,
  product: TProduct,
  billing: TBilling,
  quantity: number,
  isFairUseOn: boolean,
): Promise<{ nodes: (TExitNodeRow | null)[]; claimed: Set<number> }> {
  if (product === 'dynamic') {
    // Dynamic tokens rotate among the area's nodes (and, with a traffic allowance, the pools serving it) at the
    // gateway; they pin none.
    const supply = await findDynamicSupply(tx, now, area, { product, billing }, isFairUseOn);
    if (supply.exits === 0 && supply.pools === 0) throw new AppError('NO_STOCK');
    if (supply.exits === 0 && supply.healthyPools === 0) throw new AppError('AREA_UNAVAILABLE');
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
  const area: TAreaFilter = {
    kind: exitKindOf(body.category),
    country: body.country_id,
    state: body.state_id,
    city: body.city_id,
  };
  // An IP-billed dynamic proxy bought while the operator sets a fair-use traffic gets it for its days (and pools).
  const fairUseGb = product === 'dynamic' && purchase.billing === 'ip' ? await readFairUseGbPerDay(tx) : 0;
  const { nodes, claimed } = await allocateExits(tx, now, area, product, billing, body.quantity, fairUseGb > 0);
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
  const expiresAt =
    purchase.billing === 'ip'
      ? new Date(now.getTime() + purchase.body.days * DAY_MS)
      : new Date(now.getTime() + TRAFFIC_VALID_DAYS * DAY_MS);
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
    trafficLimitBytes:
      purchase.billing === 'traffic'
        ? trafficBytesOf(purchase.body.traffic_gb)
        : fairUseGb > 0
          ? fairUseBytes(fairUseGb, purchase.body.days)
          : null,
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
        {
          userId,
          amountFen: totalFen,
          reason: 'purchase',
          reference: `proxy:${product}:${body.category}:${billing}`,
          idempotencyKey: key,
        },
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
      return {
        tokens: tokens.map((t) => toProxyToken(t, deps, lang)),
        cost: fenToYuan(totalFen),
        balance: fenToYuan(debit.availableFen),
        order_id: order.id,
      };
    }),
  );
}
