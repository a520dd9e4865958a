import { randomBytes } from 'node:crypto';
import {
  RECHARGE_FEE_FIXED_FEN,
  RECHARGE_FEE_PERCENT,
  fenToYuan,
  parseYuanAmount,
  rechargeFeeFen,
  yuanToFen,
  type TChargeInput,
  type TChargeOptions,
  type TChargeResult,
  type TLang,
  type TPayMethod,
} from '@proxy/contract';
import type { TTx } from '@proxy/db';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { isMethodSwitchedOff, offeredProviders } from './charge-options.service';
import { orderDescription } from './payment-texts';
import { BEIJING_OFFSET_MS, toPayOrder } from './payments-orders.service';
import type { TPayDeps, TSettleDeps } from './payments-settle.service';
import {
  deleteOrder,
  findCurrentOptions,
  hasOptionSets,
  insertOptionSet,
  insertOrder,
  updateOrder,
} from './payments.repository';
import type { TPayProvider } from './providers';
import { usdtProviderOf, type TUsdtSettings } from './providers/usdt';
import {
  countUnpaidHolding,
  findHeldAmounts,
  holdAmount,
  lockAccountUsdtOrders,
  releaseAmount,
} from './usdt.repository';
import { usdtBaseUnits, usdtCandidateUnits } from './usdt/usdt-amount';

/** Top-up: the recharge options customers see, and a charge (the pending order, then the payment at the provider). */

/** Options of a fresh install (yuan, no gifts); operators edit them later. */
export const DEFAULT_CHARGE_OPTIONS_YUAN = [10, 50, 100, 200, 500, 1000];

function newOrderId(now: Date): string {
  const stamp = new Date(now.getTime() + BEIJING_OFFSET_MS).toISOString().replace(/\D/g, '').slice(0, 14);
  return `R${stamp}${randomBytes(4).toString('hex').toUpperCase()}`;
}

/**
 * Unpaid USDT orders an account may have per network while their amounts are
 * held: pending ones, and cancelled or timed-out ones until their window for
 * late transfers ends (their amount stays theirs, so a late payment still
 * finds its order). One account cannot hold more of an amount's 999 offsets.
 */
export const USDT_MAX_UNPAID_PER_ACCOUNT = 3;

/** Clock skew allowed between our order times and block times. */
export const USDT_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Picks the USDT amount of a new order: the price at the frozen rate plus an
 * offset below 1 USDT (usdt-amount.ts) that no other order of the network holds, and holds it
 * (in the order's transaction) until the order's window for late transfers
 * is over, paid or not: a second transfer of a paid order's amount must not
 * pay someone else's new order. PAY_AMOUNT_BUSY when all are held.
 */
async function holdUsdtAmount(
  tx: TTx,
  usdt: TUsdtSettings,
  priceFen: number,
  orderId: string,
  until: Date,
  now: Date,
): Promise<number> {
  const candidates = usdtCandidateUnits(usdtBaseUnits(priceFen, usdt.rateMicro)).map(Number);
  const held = new Set(await findHeldAmounts(tx, usdt.network, candidates, now));
  for (const units of candidates) {
    if (held.has(units)) continue;
    if (await holdAmount(tx, usdt.network, units, orderId, until, now)) return units;
  }
  throw new AppError('PAY_AMOUNT_BUSY');
}

/** Seeds the options of a fresh install once (every API instance may try; one set is written). */
export async function seedChargeOptions(deps: Pick<TDeps, 'db'>): Promise<void> {
  if (await hasOptionSets(deps.db)) return;
  await insertOptionSet(
    deps.db,
    1,
    DEFAULT_CHARGE_OPTIONS_YUAN.map((yuan) => ({ amountFen: yuanToFen(yuan), giftFen: 0 })),
    { effectiveAt: new Date(0), createdBy: null },
  );
}

/** GET /pay/option/list. */
export async function listChargeOptions(deps: TPayDeps): Promise<TChargeOptions> {
  const options = await findCurrentOptions(deps.db, deps.clock.now());
  const providers = await offeredProviders(deps);
  return {
    record: options.map((o) => ({ id: o.id, amount: fenToYuan(o.amountFen), gift: fenToYuan(o.giftFen) })),
    methods: providers.map((p) => ({ method: p.method, modes: [...p.modes] })),
    fee: { percent: RECHARGE_FEE_PERCENT, fixed: fenToYuan(RECHARGE_FEE_FIXED_FEN) },
    min_amount: deps.config.PAY_MIN_AMOUNT,
    max_amount: deps.config.PAY_MAX_AMOUNT,
    sandbox: providers.some((p) => p.isSandbox),
  };
}

function providerOf(deps: TPayDeps, method: TPayMethod): TPayProvider {
  const provider = deps.payProviders.get(method);
  if (!provider) throw new AppError('PAY_METHOD_UNAVAILABLE');
  return provider;
}

/** POST /pay/charge/{method}/{amount}: the order, then the payment at the provider. */
export async function startCharge(
  deps: TSettleDeps,
  userId: number,
  input: TChargeInput,
  lang: TLang,
): Promise<TChargeResult> {
  const provider = providerOf(deps, input.method);
  if (await isMethodSwitchedOff(deps.db, provider.method)) throw new AppError('PAY_METHOD_DISABLED');
  const mode = input.mode ?? provider.modes[0];
  if (!provider.modes.includes(mode))
    throw new AppError('BAD_REQUEST', undefined, [{ path: 'mode', message: 'payModeUnavailable' }]);
  const amountFen = parseYuanAmount(input.amount)!;
  const [minFen, maxFen] = [Math.round(deps.config.PAY_MIN_AMOUNT * 100), Math.round(deps.config.PAY_MAX_AMOUNT * 100)];
  if (amountFen < minFen || amountFen > maxFen) {
    throw new AppError('BAD_REQUEST', undefined, [
      {
        path: 'amount',
        message: 'amountRange',
        params: { min: deps.config.PAY_MIN_AMOUNT, max: deps.config.PAY_MAX_AMOUNT },
      },
    ]);
  }
  const options = await findCurrentOptions(deps.db, deps.clock.now());
  const option = options.find((o) => o.amountFen === amountFen);
  const giftFen = option?.giftFen ?? 0;
  const feeFen = rechargeFeeFen(amountFen);
  const now = deps.clock.now();
  const usdt = usdtProviderOf(provider)?.usdt;
  const expiresAt = new Date(now.getTime() + (usdt?.orderTtlMin ?? deps.config.PAY_ORDER_TTL_MIN) * 60_000);
  const newOrder = {
    id: newOrderId(now),
    userId,
    method: provider.method,
    mode,
    amountFen,
    giftFen,
    feeFen,
    priceFen: amountFen + feeFen,
    valueFen: amountFen + giftFen,
    optionVersion: option?.version ?? null,
    isSandbox: provider.isSandbox,
    expiresAt,
    createdAt: now,
  };
  const order = usdt
    ? await deps.db.transaction(async (tx) => {
        await lockAccountUsdtOrders(tx, userId, usdt.network);
        if ((await countUnpaidHolding(tx, userId, provider.method, now)) >= USDT_MAX_UNPAID_PER_ACCOUNT)
          throw new AppError('PAY_USDT_OPEN_LIMIT', { max: USDT_MAX_UNPAID_PER_ACCOUNT });
        const heldUntil = new Date(expiresAt.getTime() + usdt.lateMatchMin * 60_000 + USDT_CLOCK_SKEW_MS);
        const units = await holdUsdtAmount(tx, usdt, newOrder.priceFen, newOrder.id, heldUntil, now);
        return insertOrder(tx, {
          ...newOrder,
          cryptoAmountUnits: units,
          cryptoAddress: usdt.address,
          cryptoRate: usdt.rate,
        });
      })
    : await insertOrder(deps.db, newOrder);
  let start: Awaited<ReturnType<TPayProvider['create']>>;
  try {
    start = await provider.create({
      orderId: order.id,
      priceFen: order.priceFen,
      subject: orderDescription(amountFen, lang),
      mode,
      notifyUrl: `${deps.config.publicUrl}/api/pay/notify/${provider.method}`,
      returnUrl: `${deps.config.publicUrl}/charge?order=${encodeURIComponent(order.id)}`,
      expiresAt,
    });
  } catch (error) {
    // Nothing to pay: the order goes, so a failed charge leaves no trace but the log.
    deps.log.warn(
      { err: error, orderId: order.id, method: provider.method },
      'payment provider refused or unreachable',
    );
    await deleteOrder(deps.db, order.id);
    if (usdt) await releaseAmount(deps.db, order.id);
    throw new AppError('PAY_PROVIDER_FAILED');
  }
  const saved = await updateOrder(deps.db, order.id, { payUrl: start.payUrl, qrCode: start.qrCode });
  return { ...toPayOrder(saved, lang), mode, pay_url: start.payUrl, qr_code: start.qrCode };
}
