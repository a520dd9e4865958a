import { createHmac, timingSafeEqual } from 'node:crypto';
import { AUTO_RENEW_UNDO_HOURS, fenToYuan, type TAutoRenewal } from '@proxy/contract';
import type { TDbOrTx, TTx } from '@proxy/db';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { bumpGatewayVersion } from '../gateway/gateway-state.repository';
import { changeGatewayState } from '../gateway/gateway-state.service';
import { createLedgerService } from '../ledger/ledger.service';
import {
  findLatestAutoRenewal,
  findRenewalNotice,
  lockLatestAutoRenewal,
  lockRenewalNotice,
  markAutoRenewalUndone,
  markRenewalNoticeUsed,
  type TAutoRenewalRow,
  type TRenewalNoticeRow,
} from './auto-renewals.repository';
import { findUserTokens, lockUserTokens, updateToken, type TTokenRow } from './proxies.repository';

/** How long after an auto-renewal the user can undo it. */
export const AUTO_RENEW_UNDO_MS = AUTO_RENEW_UNDO_HOURS * 60 * 60 * 1000;

type TRenewalDeps = Pick<TDeps, 'db' | 'clock' | 'config' | 'gatewayApplied'>;

// The signature binds the notice to its user, token, period and charge time: another user's or token's renewal cannot be named.
function signature(secret: string, notice: TRenewalNoticeRow): string {
  return createHmac('sha256', secret)
    .update(
      `renewal-cancel\n${notice.id}\n${notice.userId}\n${notice.tokenId}\n${notice.expiresAt.getTime()}\n${notice.chargeAt.getTime()}`,
    )
    .digest('base64url');
}

/** The token of a notice's cancel link: `<notice id>.<HMAC with the server's secret>`. */
export function renewalCancelToken(deps: Pick<TDeps, 'config'>, notice: TRenewalNoticeRow): string {
  return `${notice.id}.${signature(deps.config.jwtSecret, notice)}`;
}

/** The console page a notice's cancel link opens (it works without signing in). */
export function renewalCancelUrl(deps: Pick<TDeps, 'config'>, notice: TRenewalNoticeRow): string {
  return `${deps.config.publicUrl.replace(/\/$/, '')}/renewal/cancel?token=${encodeURIComponent(renewalCancelToken(deps, notice))}`;
}

// The notice a link names, when its signature matches (locked for the cancel); RENEWAL_LINK_INVALID otherwise.
async function noticeOfToken(
  deps: Pick<TDeps, 'config'>,
  db: TDbOrTx,
  token: string,
  isLock: boolean,
): Promise<TRenewalNoticeRow> {
  const match = /^([1-9]\d{0,14})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) throw new AppError('RENEWAL_LINK_INVALID');
  const id = Number(match[1]);
  const notice = isLock ? await lockRenewalNotice(db, id) : await findRenewalNotice(db, id);
  if (!notice) throw new AppError('RENEWAL_LINK_INVALID');
  const expected = Buffer.from(signature(deps.config.jwtSecret, notice));
  const given = Buffer.from(match[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new AppError('RENEWAL_LINK_INVALID');
  return notice;
}

// Whether the renewal a notice is about is still ahead: before its charge time, on a live token still at that expiry.
function isPending(notice: TRenewalNoticeRow, token: TTokenRow | undefined, now: Date): token is TTokenRow {
  return (
    now.getTime() < notice.chargeAt.getTime() &&
    token !== undefined &&
    token.deletedAt === null &&
    (token.status === 'enabled' || token.status === 'disabled') &&
    token.expiresAt.getTime() === notice.expiresAt.getTime()
  );
}

/** What a cancel link is about and whether it can still be used (GET /token/auto-renew/cancel, no sign-in). */
export async function getRenewalCancelInfo(deps: Pick<TDeps, 'db' | 'clock' | 'config'>, token: string) {
  const notice = await noticeOfToken(deps, deps.db, token, false);
  const [row] = await findUserTokens(deps.db, notice.userId, [notice.tokenId]);
  const state = notice.usedAt ? 'used' : isPending(notice, row, deps.clock.now()) ? 'pending' : 'expired';
  return {
    proxy: row?.username ?? '',
    amount: fenToYuan(notice.amountFen),
    charge_at: notice.chargeAt.toISOString(),
    expires_at: notice.expiresAt.toISOString(),
    state,
  } as const;
}

/**
 * Cancels the one renewal a notice's link names (POST /token/auto-renew/cancel,
 * no sign-in): auto-renew of that user's token turns off. The link works once
 * (the notice records its use in the same transaction) and only before the
 * charge time, while the token still awaits that renewal.
 */
export async function cancelRenewal(deps: Pick<TDeps, 'db' | 'clock' | 'config'>, token: string) {
  return deps.db.transaction(async (tx) => {
    // The notice first, then the token: nothing locks them in the other order.
    const notice = await noticeOfToken(deps, tx, token, true);
    if (notice.usedAt) throw new AppError('RENEWAL_LINK_USED');
    const now = deps.clock.now();
    const [row] = await lockUserTokens(tx, notice.userId, [notice.tokenId]);
    if (!isPending(notice, row, now)) throw new AppError('RENEWAL_LINK_EXPIRED');
    if (!(await markRenewalNoticeUsed(tx, notice.id, now))) throw new AppError('RENEWAL_LINK_USED');
    if (row.autoRenew) await updateToken(tx, row.id, { autoRenew: false });
    return { proxy: row.username, auto_renew: false, expires_at: row.expiresAt.toISOString() };
  });
}

type TUndoRefusal = NonNullable<TAutoRenewal['undo_refusal']>;

// Why an auto-renewal cannot be undone now (null: it can).
function undoRefusalOf(renewal: TAutoRenewalRow, token: TTokenRow, now: Date): TUndoRefusal | null {
  if (renewal.undoneAt) return 'undone';
  // A later renewal (by hand) built on it: undoing would take that one back too.
  if (token.deletedAt || token.expiresAt.getTime() !== renewal.newExpiresAt.getTime()) return 'superseded';
  if (now.getTime() > renewal.renewedAt.getTime() + AUTO_RENEW_UNDO_MS) return 'too_late';
  if (token.trafficUsedBytes > renewal.usedBytesAtRenewal) return 'used';
  return null;
}

const REFUSAL_ERRORS = {
  undone: 'AUTO_RENEW_UNDO_NONE',
  superseded: 'AUTO_RENEW_UNDO_NONE',
  too_late: 'AUTO_RENEW_UNDO_TOO_LATE',
  used: 'AUTO_RENEW_UNDO_USED',
} as const satisfies Record<TUndoRefusal, string>;

function toAutoRenewal(renewal: TAutoRenewalRow, token: TTokenRow, now: Date): TAutoRenewal {
  return {
    renewal_id: renewal.id,
    token_id: renewal.tokenId,
    amount: fenToYuan(renewal.amountFen),
    renewed_at: renewal.renewedAt.toISOString(),
    previous_expires_at: renewal.previousExpiresAt.toISOString(),
    new_expires_at: renewal.newExpiresAt.toISOString(),
    undo_until: new Date(renewal.renewedAt.getTime() + AUTO_RENEW_UNDO_MS).toISOString(),
    undo_refusal: undoRefusalOf(renewal, token, now),
  };
}

/** A token's latest auto-renewal and whether it can be undone now (null: it never auto-renewed). */
export async function getLatestAutoRenewal(
  deps: Pick<TDeps, 'db' | 'clock'>,
  userId: number,
  tokenId: number,
): Promise<TAutoRenewal | null> {
  const [token] = await findUserTokens(deps.db, userId, [tokenId]);
  if (!token) throw new AppError('NOT_FOUND');
  const renewal = await findLatestAutoRenewal(deps.db, userId, tokenId);
  return renewal ? toAutoRenewal(renewal, token, deps.clock.now()) : null;
}

/**
 * Undoes a token's latest auto-renewal within 24 hours when the proxy carried
 * no traffic since: in one transaction the charge is refunded through the
 * ledger (key `auto-renew-undo:<renewal id>`, so it moves once however often
 * it is asked), the expiry goes back and auto-renew turns off (the job would
 * otherwise renew it again).
 */
export async function undoAutoRenewal(deps: TRenewalDeps, userId: number, tokenId: number) {
  const ledger = createLedgerService(deps);
  return changeGatewayState(deps, () =>
    deps.db.transaction(async (tx: TTx) => {
      // Token, then the renewal record, then (in the ledger) the balance: the auto-renew job locks the token before the balance too.
      const [token] = await lockUserTokens(tx, userId, [tokenId]);
      if (!token) throw new AppError('NOT_FOUND');
      const renewal = await lockLatestAutoRenewal(tx, userId, tokenId);
      if (!renewal) throw new AppError('AUTO_RENEW_UNDO_NONE');
      const now = deps.clock.now();
      const refusal = undoRefusalOf(renewal, token, now);
      if (refusal) throw new AppError(REFUSAL_ERRORS[refusal]);
      if (!(await markAutoRenewalUndone(tx, renewal.id, now))) throw new AppError('AUTO_RENEW_UNDO_NONE');
      const credit = await ledger.credit(
        {
          userId,
          amountFen: renewal.amountFen,
          reason: 'refund',
          reference: `auto-renew-undo:proxy:${tokenId}`,
          idempotencyKey: `auto-renew-undo:${renewal.id}`,
        },
        tx,
      );
      await updateToken(tx, tokenId, {
        expiresAt: renewal.previousExpiresAt,
        autoRenew: false,
        autoRenewFailedFor: renewal.previousExpiresAt,
      });
      await bumpGatewayVersion(tx);
      return {
        token_id: tokenId,
        refunded: fenToYuan(renewal.amountFen),
        expires_at: renewal.previousExpiresAt.toISOString(),
        balance: fenToYuan(credit.availableFen),
      };
    }),
  );
}
