import { createHash, randomBytes } from 'node:crypto';
import {
  SUPPLY_IP_DAYS_DEFAULT,
  fenToYuan,
  formatFen,
  priceIpFen,
  supplyFeeFen,
  supplyRegionShown,
  type TLang,
  type TPage,
  type TSupplyAdminRequest,
  type TSupplyCreateBody,
  type TSupplyCreateResult,
  type TSupplyListQuery,
  type TSupplyRequest,
  type TSupplyStatus,
} from '@proxy/contract';
import type { TDbOrTx, TTx } from '@proxy/db';
import { AppError, isAppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { faultPoint } from '../../lib/fault-points';
import { countryName } from '../areas/area-names';
import { exitKindOf } from '../areas/areas.service';
import { changeGatewayState } from '../gateway/gateway-state.service';
import { countAreas } from '../inventory/inventory.repository';
import { createLedgerService, type TLedgerService } from '../ledger/ledger.service';
import { sendMailQuietly } from '../mail/send-mail';
import { writeNotification } from '../notifications/notifications.service';
import { loadPriceCatalogue } from '../pricing/pricing.service';
import { allocatePurchase, type TPurchase } from '../proxies/proxies-purchase.service';
import { priceKindOf } from '../proxies/proxies.service';
import { uniqueViolationOf } from '../../lib/database-errors';
import {
  claimSupplyContactMail,
  confirmSupplyContact,
  findSupplyContact,
  findSupplyByKey,
  findWorkOrderIdsBySupply,
  findUserEmail,
  findUserSupply,
  insertSupplyRequest,
  listSupplyQueuePage,
  listUserSupplyPage,
  lockNextOverdueSupply,
  lockSupply,
  updateSupply,
  type TSupplyRow,
} from './supply.repository';
import { renderSupplyContactMail, renderSupplyMail } from './supply-texts';
import { emitWebhookEvent } from '../webhooks/webhooks.service';

/**
 * Supply (restock) requests (spec sections 3-5): the fee is frozen on submit;
 * each transition locks the request row, checks its state, moves the money
 * through the ledger (keyed by request and movement) and changes the state in
 * one transaction, so every transition happens once, even across instances
 * and with a revoke racing a completion.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const SUPPLY_REASON = 'supply';

type TSupplyDeps = Pick<TDeps, 'db' | 'clock' | 'config' | 'mailer' | 'log' | 'gatewayApplied'>;

/** A request as the customer sees it, in the request's language. */
export function toSupplyRequest(row: TSupplyRow, lang: TLang, workOrderId: number | null = null): TSupplyRequest {
  return {
    request_id: row.id,
    type: row.type,
    product: row.product,
    network: row.network,
    amount: row.amount,
    days: row.days,
    region: supplyRegionShown(row.region),
    region_name: countryName(row.region)[lang],
    wait_days: row.waitDays,
    cost: fenToYuan(row.costFen),
    remark: row.remark,
    contact_email: row.contactEmail,
    status: row.status,
    submit_time: row.createdAt.toISOString(),
    completed_time: row.completedAt ? row.completedAt.toISOString() : null,
    deadline: row.deadlineAt.toISOString(),
    fail_reason: row.failReason,
    // The newest work order the customer opened about it (work-orders feature).
    work_order_id: workOrderId,
  };
}

// Ledger keys: one movement of each kind per request, whatever retries or races happen.
const keys = {
  freeze: (id: number) => `supply:${id}:freeze`,
  release: (id: number) => `supply:${id}:release`,
  consume: (id: number) => `supply:${id}:consume`,
};

// The notification of the state a request reached, written in the transaction that reached it.
async function notifyTransition(deps: Pick<TDeps, 'db' | 'clock'>, tx: TTx, row: TSupplyRow): Promise<void> {
  await writeNotification(deps, row.userId, `supply_${row.status}`, tx, {
    id: row.id,
    cost: fenToYuan(row.costFen).toFixed(2),
    reason: row.failReason ?? '',
  });
  await emitWebhookEvent(tx, row.userId, 'supply.changed', `supply:${row.id}`, {
    supply_id: row.id,
    status: row.status,
    reason: row.failReason ?? null,
  });
}

const CONTACT_TOKEN_DAYS = 7;

/**
 * Where a request's e-mails go: its contact address once that address has
 * confirmed it (or when it is the account's own address, proven at sign-up),
 * else the account's own address. So nobody can mail a stranger by naming
 * them on a request.
 */
async function recipientOf(deps: Pick<TDeps, 'db'>, row: TSupplyRow): Promise<string> {
  const own = await findUserEmail(deps.db, row.userId);
  const contact = row.contactEmail.trim().toLowerCase();
  if (contact === own.toLowerCase()) return own;
  const recorded = await findSupplyContact(deps.db, row.userId, contact);
  return recorded?.confirmedAt ? row.contactEmail : own;
}

// After the commit: the e-mail of the state a request reached, once per request and state (each state is
// reached once, on the locked row), to its confirmed contact address or the account's own (a failed send is logged).
async function mailTransition(deps: Pick<TDeps, 'db' | 'config' | 'mailer' | 'log'>, row: TSupplyRow): Promise<void> {
  await sendMailQuietly(deps, await recipientOf(deps, row), renderSupplyMail(row, deps.config.publicUrl));
}

// After a submit naming a contact address that is not the account's own and not confirmed: one confirmation
// e-mail to it per account and address (again after a day while unconfirmed).
async function askContactConfirmation(deps: TSupplyDeps, row: TSupplyRow): Promise<void> {
  const own = await findUserEmail(deps.db, row.userId);
  const contact = row.contactEmail.trim().toLowerCase();
  if (contact === own.toLowerCase()) return;
  const recorded = await findSupplyContact(deps.db, row.userId, contact);
  if (recorded?.confirmedAt) return;
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  const isClaimed = await claimSupplyContactMail(deps.db, {
    userId: row.userId,
    email: contact,
    tokenHash: createHash('sha256').update(token).digest('hex'),
    now,
    resendBefore: new Date(now.getTime() - DAY_MS),
  });
  if (!isClaimed) return;
  const href = `${deps.config.publicUrl.replace(/\/$/, '')}/supply/contact/confirm?token=${token}`;
  const username = own.split('@')[0];
  await sendMailQuietly(deps, contact, renderSupplyContactMail({ username, href, days: CONTACT_TOKEN_DAYS }));
}

/** POST /token/supply/contact/confirm: the contact address of the mailed token now gets its requests' e-mails. */
export async function confirmContact(deps: Pick<TDeps, 'db' | 'clock'>, token: string): Promise<{ email: string }> {
  const now = deps.clock.now();
  const email = await confirmSupplyContact(
    deps.db,
    createHash('sha256').update(token).digest('hex'),
    now,
    new Date(now.getTime() - CONTACT_TOKEN_DAYS * DAY_MS),
  );
  if (!email) throw new AppError('SUPPLY_CONTACT_LINK_INVALID');
  return { email };
}

// The same request as the one a key was first used with.
function isSameRequest(row: TSupplyRow, body: TSupplyCreateBody): boolean {
  return (
    row.type === body.type &&
    row.product === body.product &&
    row.network === body.network &&
    row.amount === body.amount &&
    row.days === (body.type === 'ip' ? (body.days ?? SUPPLY_IP_DAYS_DEFAULT) : null) &&
    row.region === body.region &&
    row.waitDays === body.wait_days &&
    row.remark === body.remark &&
    row.contactEmail === body.contact_email
  );
}

async function replayCreate(
  deps: Pick<TDeps, 'db' | 'clock'>,
  userId: number,
  row: TSupplyRow,
  body: TSupplyCreateBody,
  lang: TLang,
) {
  if (!isSameRequest(row, body)) throw new AppError('IDEMPOTENCY_CONFLICT');
  const balance = await createLedgerService(deps).getBalance(userId);
  return {
    ...toSupplyRequest(row, lang),
    balance: fenToYuan(balance.availableFen),
    frozen_balance: fenToYuan(balance.frozenFen),
  };
}

/**
 * Submits a request: its fee (the list price of what it asks for) is frozen
 * with the row's insertion, in one transaction; short of balance, nothing is
 * written. The same Idempotency-Key answers the first request again.
 */
export async function createSupply(
  deps: TSupplyDeps & Pick<TDeps, 'authLimiter'>,
  userId: number,
  body: TSupplyCreateBody,
  idempotencyKey: string | undefined,
  lang: TLang,
): Promise<TSupplyCreateResult> {
  await deps.authLimiter.hitSupply(userId);
  const ledger = createLedgerService(deps);
  let created: { row: TSupplyRow; availableFen: number; frozenFen: number } | TSupplyRow;
  try {
    created = await deps.db.transaction(async (tx) => {
      if (idempotencyKey) {
        const existing = await findSupplyByKey(tx, userId, idempotencyKey);
        if (existing) return existing;
      }
      const now = deps.clock.now();
      const catalogue = await loadPriceCatalogue(tx, now);
      const days = body.type === 'ip' ? (body.days ?? SUPPLY_IP_DAYS_DEFAULT) : null;
      const costFen = supplyFeeFen(
        { type: body.type, product: body.product, amount: body.amount, days: days ?? undefined },
        catalogue,
      );
      const row = await insertSupplyRequest(tx, {
        userId,
        type: body.type,
        product: body.product,
        network: body.network,
        amount: body.amount,
        days,
        region: body.region,
        waitDays: body.wait_days,
        costFen,
        remark: body.remark,
        contactEmail: body.contact_email,
        idempotencyKey: idempotencyKey ?? null,
        createdAt: now,
        deadlineAt: new Date(now.getTime() + body.wait_days * DAY_MS),
      });
      const frozen = await freezeFee(ledger, tx, row);
      await faultPoint('supply.frozen', tx);
      await notifyTransition(deps, tx, row);
      return { row, availableFen: frozen.availableFen, frozenFen: frozen.frozenFen };
    });
  } catch (error) {
    // A concurrent twin with the same key committed first: answer it.
    if (idempotencyKey && uniqueViolationOf(error) === 'supply_requests_idempotency_key') {
      const twin = await findSupplyByKey(deps.db, userId, idempotencyKey);
      if (twin) return replayCreate(deps, userId, twin, body, lang);
    }
    throw error;
  }
  if (!('row' in created)) return replayCreate(deps, userId, created, body, lang);
  await askContactConfirmation(deps, created.row);
  await mailTransition(deps, created.row);
  return {
    ...toSupplyRequest(created.row, lang),
    balance: fenToYuan(created.availableFen),
    frozen_balance: fenToYuan(created.frozenFen),
  };
}

// Freezes a new request's fee; short of balance, says how much is needed and how much is available.
async function freezeFee(ledger: TLedgerService, tx: TTx, row: TSupplyRow) {
  try {
    return await ledger.freeze(
      {
        userId: row.userId,
        amountFen: row.costFen,
        reason: SUPPLY_REASON,
        reference: `supply:${row.id}`,
        idempotencyKey: keys.freeze(row.id),
      },
      tx,
    );
  } catch (error) {
    if (!isAppError(error, 'INSUFFICIENT_BALANCE')) throw error;
    const balance = await ledger.getBalance(row.userId, tx);
    throw new AppError('SUPPLY_INSUFFICIENT_BALANCE', {
      cost: formatFen(row.costFen, { symbol: false }),
      balance: formatFen(balance.availableFen, { symbol: false }),
    });
  }
}

/** A page of the user's requests, newest first. */
export async function listSupply(
  deps: Pick<TDeps, 'db'>,
  userId: number,
  query: TSupplyListQuery,
  lang: TLang,
): Promise<TPage<TSupplyRequest>> {
  const { rows, total } = await listUserSupplyPage(
    deps.db,
    userId,
    { status: query.status },
    {
      limit: query.page_size,
      offset: (query.page - 1) * query.page_size,
    },
  );
  const workOrderIds = await findWorkOrderIdsBySupply(
    deps.db,
    rows.map((r) => r.id),
  );
  return {
    records: rows.map((r) => toSupplyRequest(r, lang, workOrderIds.get(r.id) ?? null)),
    total,
    page: query.page,
    page_size: query.page_size,
  };
}

/** One of the user's requests; another user's is NOT_FOUND. */
export async function getSupply(
  deps: Pick<TDeps, 'db'>,
  userId: number,
  id: number,
  lang: TLang,
): Promise<TSupplyRequest> {
  const row = await findUserSupply(deps.db, userId, id);
  if (!row) throw new AppError('NOT_FOUND');
  const workOrderIds = await findWorkOrderIdsBySupply(deps.db, [row.id]);
  return toSupplyRequest(row, lang, workOrderIds.get(row.id) ?? null);
}

/**
 * Ends an open request with its fee released (revoked, failed or refunded):
 * the state and the release in the caller's transaction, on the locked row.
 */
async function endWithRelease(
  deps: Pick<TDeps, 'db' | 'clock'>,
  tx: TTx,
  row: TSupplyRow,
  status: Extract<TSupplyStatus, 'cancelled' | 'failed' | 'refunded'>,
  failReason?: string,
): Promise<TSupplyRow> {
  await createLedgerService(deps).release(
    {
      userId: row.userId,
      amountFen: row.costFen,
      reason: SUPPLY_REASON,
      reference: `supply:${row.id}`,
      idempotencyKey: keys.release(row.id),
    },
    tx,
  );
  await faultPoint('supply.released', tx);
  const ended = await updateSupply(tx, row.id, {
    status,
    completedAt: deps.clock.now(),
    failReason: failReason ?? null,
  });
  await notifyTransition(deps, tx, ended);
  return ended;
}

/**
 * Revokes the user's open request (pending, or processing: an operator took it but has not completed it, so nothing
 * was allocated yet): its fee is released. The row lock orders it with a completion, so exactly one of them wins.
 */
export async function revokeSupply(
  deps: TSupplyDeps,
  userId: number,
  id: number,
  lang: TLang,
): Promise<TSupplyRequest> {
  const ended = await deps.db.transaction(async (tx) => {
    const row = await lockSupply(tx, id, userId);
    if (!row) throw new AppError('NOT_FOUND');
    if (row.status !== 'pending' && row.status !== 'processing') throw new AppError('SUPPLY_ENDED');
    return endWithRelease(deps, tx, row, 'cancelled');
  });
  await mailTransition(deps, ended);
  return toSupplyRequest(ended, lang);
}

/**
 * Releases the fee of the next open request past its wait days (refunded);
 * answers false when none is left. Instances share the work (SKIP LOCKED).
 */
export async function refundNextOverdueSupply(deps: TSupplyDeps): Promise<boolean> {
  const ended = await deps.db.transaction(async (tx) => {
    const row = await lockNextOverdueSupply(tx, deps.clock.now());
    if (!row) return undefined;
    return endWithRelease(deps, tx, row, 'refunded');
  });
  if (!ended) return false;
  await mailTransition(deps, ended);
  return true;
}

// Free exits of each country of a kind, as the purchase form's area lists count them.
async function availableByCountry(db: TDbOrTx, kind: ReturnType<typeof exitKindOf>): Promise<Map<string, number>> {
  return new Map((await countAreas(db, kind, {})).map((a) => [a.code, a.available]));
}

const categoryOf = (product: TSupplyRow['product']) => (product === 'idc' ? 'idc' : 'isp');

async function toAdminRequests(
  deps: Pick<TDeps, 'db'>,
  rows: (TSupplyRow & { userEmail: string })[],
  lang: TLang,
): Promise<TSupplyAdminRequest[]> {
  const kinds = [...new Set(rows.map((r) => exitKindOf(categoryOf(r.product))))];
  const counts = new Map(await Promise.all(kinds.map(async (k) => [k, await availableByCountry(deps.db, k)] as const)));
  return rows.map((r) => ({
    ...toSupplyRequest(r, lang),
    user_id: r.userId,
    user_email: r.userEmail,
    available: counts.get(exitKindOf(categoryOf(r.product)))?.get(r.region) ?? 0,
  }));
}

async function toAdminRequest(deps: Pick<TDeps, 'db'>, row: TSupplyRow, lang: TLang): Promise<TSupplyAdminRequest> {
  const [one] = await toAdminRequests(deps, [{ ...row, userEmail: await findUserEmail(deps.db, row.userId) }], lang);
  return one;
}

/** Operators: every customer's requests, open ones first (oldest first). */
export async function listSupplyQueue(
  deps: Pick<TDeps, 'db'>,
  query: TSupplyListQuery,
  lang: TLang,
): Promise<TPage<TSupplyAdminRequest>> {
  const { rows, total } = await listSupplyQueuePage(
    deps.db,
    { status: query.status },
    { limit: query.page_size, offset: (query.page - 1) * query.page_size },
  );
  return { records: await toAdminRequests(deps, rows, lang), total, page: query.page, page_size: query.page_size };
}

/** Operators: takes a pending request (processing). */
export async function takeSupply(
  deps: TSupplyDeps,
  operatorId: number,
  id: number,
  lang: TLang,
): Promise<TSupplyAdminRequest> {
  const taken = await deps.db.transaction(async (tx) => {
    const row = await lockSupply(tx, id);
    if (!row) throw new AppError('NOT_FOUND');
    if (row.status !== 'pending') throw new AppError('SUPPLY_NOT_PENDING');
    const next = await updateSupply(tx, id, { status: 'processing', operatorId, takenAt: deps.clock.now() });
    await notifyTransition(deps, tx, next);
    return next;
  });
  await mailTransition(deps, taken);
  return toAdminRequest(deps, taken, lang);
}

// What the allocation of a request buys: one traffic package, or `amount` IPs of `days` days.
function purchaseOf(row: TSupplyRow): TPurchase {
  const base = {
    category: categoryOf(row.product),
    network: row.network,
    country_id: row.region,
    remark: `supply #${row.id}`,
  } as const;
  const product = row.product === 'dynamic' ? 'dynamic' : 'static';
  if (row.type === 'traffic')
    return { product, billing: 'traffic', body: { ...base, quantity: 1, traffic_gb: row.amount } };
  return { product, billing: 'ip', body: { ...base, quantity: row.amount, days: row.days ?? SUPPLY_IP_DAYS_DEFAULT } };
}

/**
 * Operators: completes a processing request. In one transaction: the frozen
 * fee is consumed and the traffic package or the IPs are allocated with the
 * purchase's own allocation (normal expiry). When the region cannot serve
 * it, SUPPLY_NO_STOCK says what is missing and nothing changes.
 */
export async function completeSupply(deps: TSupplyDeps, id: number, lang: TLang): Promise<TSupplyAdminRequest> {
  const ledger = createLedgerService(deps);
  const completed = await changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      const row = await lockSupply(tx, id);
      if (!row) throw new AppError('NOT_FOUND');
      if (row.status !== 'processing') throw new AppError('SUPPLY_NOT_PROCESSING');
      await ledger.consume(
        {
          userId: row.userId,
          amountFen: row.costFen,
          reason: SUPPLY_REASON,
          reference: `supply:${row.id}`,
          idempotencyKey: keys.consume(row.id),
        },
        tx,
      );
      await faultPoint('supply.consumed', tx);
      const purchase = purchaseOf(row);
      const now = deps.clock.now();
      const catalogue = await loadPriceCatalogue(tx, now);
      const periodPriceFen =
        purchase.billing === 'ip'
          ? priceIpFen(
              priceKindOf({ category: purchase.body.category, product: purchase.product }),
              purchase.body.days,
              catalogue,
            )
          : 0;
      let orderId: number;
      try {
        const allocated = await allocatePurchase(tx, row.userId, purchase, {
          costFen: row.costFen,
          periodPriceFen,
          amount: String(purchase.billing === 'ip' ? purchase.body.days : row.amount),
          now,
        });
        orderId = allocated.order.id;
      } catch (error) {
        if (!isAppError(error, 'NO_STOCK')) throw error;
        const available = (await availableByCountry(tx, exitKindOf(purchase.body.category))).get(row.region) ?? 0;
        const needed = purchase.product === 'static' && purchase.billing === 'ip' ? purchase.body.quantity : 1;
        throw new AppError('SUPPLY_NO_STOCK', {
          region: supplyRegionShown(row.region).toUpperCase(),
          needed,
          available,
        });
      }
      const next = await updateSupply(tx, id, { status: 'success', orderId, completedAt: now });
      await notifyTransition(deps, tx, next);
      return next;
    }),
  );
  await mailTransition(deps, completed);
  return toAdminRequest(deps, completed, lang);
}

/** Operators: fails a pending or processing request with a reason; its fee is released. */
export async function failSupply(
  deps: TSupplyDeps,
  id: number,
  reason: string,
  lang: TLang,
): Promise<TSupplyAdminRequest> {
  const failed = await deps.db.transaction(async (tx) => {
    const row = await lockSupply(tx, id);
    if (!row) throw new AppError('NOT_FOUND');
    if (row.status !== 'pending' && row.status !== 'processing') throw new AppError('SUPPLY_ENDED');
    return endWithRelease(deps, tx, row, 'failed', reason);
  });
  await mailTransition(deps, failed);
  return toAdminRequest(deps, failed, lang);
}
