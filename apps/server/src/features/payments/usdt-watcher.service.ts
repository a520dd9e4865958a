import {
  USDT_METHODS,
  formatFen,
  formatUsdtUnits,
  parseYuanAmount,
  type TPage,
  type TUsdtNetwork,
  type TUsdtTransfer,
} from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import { faultPoint } from '../../lib/fault-points';
import type { TDeps } from '../../lib/deps';
import { createLedgerService } from '../ledger/ledger.service';
import { addTotalRecharge, findOrderCustomer } from './payments.repository';
import { USDT_CLOCK_SKEW_MS } from './payments-charge.service';
import { announceSettlement, settleInTransaction, type TSettled } from './payments-settle.service';
import { NotificationRefusal } from './providers';
import type { TUsdtProvider } from './providers/usdt';
import type { TChainTransfer } from './usdt/chain';
import {
  advanceCursor,
  findCursor,
  findPaidOrderForAmount,
  insertTransfer,
  isTransactionRecorded,
  listUnmatchedTransfers,
  lockOrderForTransfer,
  lockTransfer,
  updateTransfer,
  type TUsdtTransferRow,
} from './usdt.repository';

/**
 * The USDT watchers: each pass reads the network's final transfers of the
 * USDT contract to our address from where the stored cursor says, records
 * each once under its key (network, transaction, log index) and, in the same
 * transaction, settles the order its exact amount names through the one
 * settlement path (ledger key `pay:<method>:<tx>:<log>`). A transfer that
 * names no order in its time window is kept as unmatched for an operator.
 * Restarts and two API instances credit once: the key, the order lock and the
 * ledger key each refuse a second time; the cursor only moves forward.
 */

type TWatchDeps = Pick<TDeps, 'db' | 'clock' | 'config' | 'payProviders' | 'mailer' | 'log'>;

/** What became of one transfer the chain reported. */
export type TTransferOutcome = 'credited' | 'unmatched' | 'seen';

/** Records one final transfer and settles the order it pays, if any. */
export async function recordUsdtTransfer(
  deps: TWatchDeps,
  provider: TUsdtProvider,
  transfer: TChainTransfer,
): Promise<TTransferOutcome> {
  const { network, lateMatchMin } = provider.usdt;
  const method = USDT_METHODS[network];
  const lateMs = lateMatchMin * 60_000;
  const row = {
    network,
    txHash: transfer.txHash,
    logIndex: transfer.logIndex,
    blockNumber: transfer.blockNumber,
    blockTime: transfer.blockTime,
    fromAddress: transfer.from,
    toAddress: transfer.to,
    amountUnits: transfer.amountUnits.toString(),
    status: 'unmatched' as const,
    createdAt: deps.clock.now(),
  };
  const units = transfer.amountUnits <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(transfer.amountUnits) : null;
  let outcome: { status: TTransferOutcome; settled?: TSettled };
  try {
    outcome = await deps.db.transaction(async (tx) => {
      const recorded = await insertTransfer(tx, row);
      if (!recorded) return { status: 'seen' as const };
      const order =
        units === null
          ? undefined
          : await lockOrderForTransfer(tx, method, units, transfer.blockTime, lateMs, USDT_CLOCK_SKEW_MS);
      if (!order) {
        const paid =
          units === null
            ? undefined
            : await findPaidOrderForAmount(tx, method, units, transfer.blockTime, lateMs, USDT_CLOCK_SKEW_MS);
        const note = paid
          ? `order ${paid.id} of this amount is paid already`
          : `no order asks for ${formatUsdtUnits(transfer.amountUnits)} USDT in its time window`;
        await updateTransfer(tx, recorded.id, { note });
        return { status: 'unmatched' as const };
      }
      const settled = await settleInTransaction(deps, tx, method, {
        orderId: order.id,
        providerTxId: `${transfer.txHash}:${transfer.logIndex}`,
        paidFen: order.priceFen,
        paidUnits: transfer.amountUnits,
        paidAt: transfer.blockTime,
        outcome: 'success',
      });
      await faultPoint('usdt.credited', tx);
      await updateTransfer(tx, recorded.id, { status: 'credited', orderId: order.id, userId: order.userId });
      return { status: 'credited' as const, settled };
    });
  } catch (error) {
    if (!(error instanceof NotificationRefusal)) throw error;
    // The order refused it (it should not): the money is kept for an operator all the same.
    const recorded = await insertTransfer(deps.db, { ...row, note: error.reason.slice(0, 500) });
    outcome = { status: recorded ? 'unmatched' : 'seen' };
  }
  if (outcome.status !== 'seen') {
    deps.log.info(
      {
        network,
        txHash: transfer.txHash,
        logIndex: transfer.logIndex,
        amount: formatUsdtUnits(transfer.amountUnits),
        result: outcome.status,
      },
      'USDT transfer recorded',
    );
  }
  if (outcome.settled) await announceSettlement(deps, outcome.settled);
  return outcome.status;
}

/** One watcher pass over the network: answers how many new transfers it recorded. */
export async function watchUsdtTransfers(deps: TWatchDeps, provider: TUsdtProvider): Promise<number> {
  const { network, chain } = provider.usdt;
  let recorded = 0;
  const position = await findCursor(deps.db, network);
  for await (const batch of chain.scan(position, (txHash) => isTransactionRecorded(deps.db, network, txHash))) {
    for (const transfer of batch.transfers) {
      if ((await recordUsdtTransfer(deps, provider, transfer)) !== 'seen') recorded += 1;
    }
    // Only once the batch is recorded: a pass that fails part way starts again from here.
    await advanceCursor(deps.db, network, batch.next, deps.clock.now());
  }
  return recorded;
}

function toTransfer(row: TUsdtTransferRow): TUsdtTransfer {
  return {
    id: row.id,
    network: row.network,
    tx_hash: row.txHash,
    log_index: row.logIndex,
    block_number: row.blockNumber,
    block_time: row.blockTime.toISOString(),
    from: row.fromAddress,
    amount: formatUsdtUnits(row.amountUnits),
    status: row.status,
    order_id: row.orderId,
    user_id: row.userId,
    note: row.note,
    seen_at: row.createdAt.toISOString(),
  };
}

/** GET /admin/payments/unmatched. */
export async function listUnmatched(
  deps: Pick<TDeps, 'db'>,
  query: { page: number; page_size: number; network?: TUsdtNetwork },
): Promise<TPage<TUsdtTransfer>> {
  const { records, total } = await listUnmatchedTransfers(
    deps.db,
    query.network,
    query.page_size,
    (query.page - 1) * query.page_size,
  );
  return { records: records.map(toTransfer), total, page: query.page, page_size: query.page_size };
}

/**
 * POST /admin/payments/unmatched/:id/assign: credits an unmatched transfer to
 * a customer with the yuan amount the operator decided, in one transaction
 * under the transfer's row lock: the ledger credit (reason recharge, key
 * `usdt-assign:<transfer>`), the customer's total recharge, and the transfer
 * marked credited to them. A second assignment of the same transfer is
 * refused and moves nothing.
 */
export async function assignTransfer(
  deps: Pick<TDeps, 'db' | 'clock'>,
  operatorId: number,
  transferId: number,
  input: { user_id: number; amount: string },
): Promise<TUsdtTransfer> {
  const amountFen = parseYuanAmount(input.amount)!;
  const ledger = createLedgerService(deps);
  const row = await deps.db.transaction(async (tx) => {
    const transfer = await lockTransfer(tx, transferId);
    if (!transfer) throw new AppError('NOT_FOUND');
    if (transfer.status !== 'unmatched') throw new AppError('TRANSFER_ALREADY_CREDITED');
    if (!(await findOrderCustomer(tx, input.user_id)))
      throw new AppError('BAD_REQUEST', undefined, [{ path: 'user_id', message: 'userNotFound' }]);
    await ledger.credit(
      {
        userId: input.user_id,
        amountFen,
        reason: 'recharge',
        reference: `USDT ${transfer.network} ${transfer.txHash}`,
        idempotencyKey: `usdt-assign:${transfer.id}`,
      },
      tx,
    );
    await addTotalRecharge(tx, input.user_id, amountFen);
    const note = `assigned by operator ${operatorId}: ${formatFen(amountFen)}`;
    await updateTransfer(tx, transfer.id, { status: 'credited', userId: input.user_id, note });
    return { ...transfer, status: 'credited' as const, userId: input.user_id, note };
  });
  return toTransfer(row);
}
