import { fenToYuan } from '@proxy/contract';
import type { TTx } from '@proxy/db';
import { isAppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { faultPoint } from '../../lib/fault-points';
import { bumpGatewayVersion } from '../gateway/gateway-state.repository';
import { changeGatewayState } from '../gateway/gateway-state.service';
import { createLedgerService } from '../ledger/ledger.service';
import { writeNotification } from '../notifications/notifications.service';
import { insertAutoRenewal } from './auto-renewals.repository';
import { AUTO_RENEW_UNDO_MS } from './auto-renewals.service';
import { releaseNode } from '../inventory/inventory.repository';
import {
  insertOrder,
  lockNextAutoRenewToken,
  lockNextExhaustedToken,
  lockNextExpiredToken,
  updateToken,
  type TTokenRow,
} from './proxies.repository';
import { readFairUseGbPerDay, renewedAllowanceBytes } from '../areas/fair-use';
import { emitProxyWebhook } from '../webhooks/webhooks.service';

/** How long before expiry the auto-renew job renews a token. */
export const AUTO_RENEW_WINDOW_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const utcText = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

type TJobDeps = Pick<TDeps, 'db' | 'clock' | 'gatewayApplied'>;

/** Releases a static IP token's upstream node back to the pool (expiry unrenewed). */
async function releaseTokenExit(tx: TTx, row: TTokenRow): Promise<boolean> {
  if (row.product !== 'static' || row.billing !== 'ip' || row.exitNodeId === null) return false;
  const isReleased = await releaseNode(tx, row.exitNodeId, row.id);
  // A shared direct node stays pinned: nothing was held.
  if (isReleased) await updateToken(tx, row.id, { exitNodeId: null });
  return isReleased;
}

/**
 * Expires one live token past its expiry (one row per transaction) and gives
 * the upstream node of a static IP back to the pool. Answers whether a token
 * was processed.
 */
export async function expireNextToken(deps: TJobDeps): Promise<boolean> {
  return changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      const row = await lockNextExpiredToken(tx, deps.clock.now());
      if (!row) return false;
      await updateToken(tx, row.id, { status: 'expired' });
      await releaseTokenExit(tx, { ...row, status: 'expired' });
      await bumpGatewayVersion(tx);
      return true;
    }),
  );
}

/** Marks one live traffic token whose usage reached its allowance invalid. */
export async function exhaustNextToken(deps: TJobDeps): Promise<boolean> {
  return changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      const row = await lockNextExhaustedToken(tx);
      if (!row) return false;
      await updateToken(tx, row.id, { status: 'invalid' });
      await bumpGatewayVersion(tx);
      return true;
    }),
  );
}

/**
 * Auto-renews one IP token expiring within the hour: debits its period price
 * and extends it by its period. The row lock (SKIP LOCKED) and the ledger key
 * `auto-renew:<tokenId>:<expiry ms>` make it one debit per token and period
 * however many instances run. Without balance it writes a notification, marks
 * the period as tried and lets the token expire normally.
 */
export async function autoRenewNextToken(deps: TJobDeps): Promise<boolean> {
  const ledger = createLedgerService(deps);
  return changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      const now = deps.clock.now();
      const row = await lockNextAutoRenewToken(tx, new Date(now.getTime() + AUTO_RENEW_WINDOW_MS));
      if (!row) return false;
      if (row.periodDays < 1 || row.periodPriceFen <= 0) {
        // Nothing sensible to charge: never retry this period.
        await updateToken(tx, row.id, { autoRenewFailedFor: row.expiresAt });
        return true;
      }
      try {
        const debit = await ledger.debit(
          {
            userId: row.userId,
            amountFen: row.periodPriceFen,
            reason: 'auto_renew',
            reference: `proxy:${row.id}`,
            idempotencyKey: `auto-renew:${row.id}:${row.expiresAt.getTime()}`,
          },
          tx,
        );
        if (debit.isReplay) {
          // This period was already paid by another run: never charge or extend it again.
          await updateToken(tx, row.id, { autoRenewFailedFor: row.expiresAt });
          return true;
        }
      } catch (error) {
        // The ledger refuses before writing anything, so this transaction can still record the failure.
        if (!isAppError(error, 'INSUFFICIENT_BALANCE')) throw error;
        await updateToken(tx, row.id, { autoRenewFailedFor: row.expiresAt });
        await writeNotification(deps, row.userId, 'auto_renew_failed', tx);
        await emitProxyWebhook(tx, 'proxy.renew_failed', row, { reason: 'insufficient_balance' });
        return true;
      }
      await faultPoint('auto-renew.debited', tx);
      const from = Math.max(now.getTime(), row.expiresAt.getTime());
      const fairUseGb = row.product === 'dynamic' ? await readFairUseGbPerDay(tx) : 0;
      const renewed = await updateToken(tx, row.id, {
        expiresAt: new Date(from + row.periodDays * DAY_MS),
        autoRenewFailedFor: null,
        trafficLimitBytes: renewedAllowanceBytes(row, row.periodDays, fairUseGb),
      });
      // What an undo within the day needs: the charge, both expiries and the bytes metered so far.
      await insertAutoRenewal(tx, {
        userId: row.userId,
        tokenId: row.id,
        amountFen: row.periodPriceFen,
        previousExpiresAt: row.expiresAt,
        newExpiresAt: renewed.expiresAt,
        usedBytesAtRenewal: renewed.trafficUsedBytes,
        renewedAt: now,
      });
      await writeNotification(deps, row.userId, 'auto_renewed', tx, {
        proxy: row.username,
        amount: fenToYuan(row.periodPriceFen).toFixed(2),
        expires_at: utcText(renewed.expiresAt),
        undo_until: utcText(new Date(now.getTime() + AUTO_RENEW_UNDO_MS)),
      });
      await emitProxyWebhook(tx, 'proxy.renewed', { ...row, expiresAt: renewed.expiresAt }, { auto_renew: true });
      await insertOrder(tx, {
        userId: row.userId,
        action: 'auto_renew',
        product: row.product,
        category: row.category,
        billing: 'ip',
        quantity: 1,
        amount: String(row.periodDays),
        costFen: row.periodPriceFen,
        createdAt: now,
      });
      await bumpGatewayVersion(tx);
      return true;
    }),
  );
}
