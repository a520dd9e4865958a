import {
  DEFAULT_REBATE_RULES,
  ERRORS,
  fenToYuan,
  rebateFenOf,
  yuanToFen,
  type TAdminRebateRecord,
  type TInviteInfo,
  type TInviteRecord,
  type TInviteShare,
  type TLang,
  type TPage,
  type TRebateConfig,
  type TRebateConfigInput,
  type TRebateConfigVersion,
  type TRebateQuery,
  type TRebateReason,
  type TRebateRecord,
  type TRebateRules,
} from '@proxy/contract';
import type { TDbOrTx, TTx } from '@proxy/db';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { faultPoint } from '../../lib/fault-points';
import { lockBalance } from '../ledger/ledger.repository';
import { createLedgerService } from '../ledger/ledger.service';
import { writeNotification } from '../notifications/notifications.service';
import { readClaims } from '../site/claims.service';
import { uniqueViolationOf } from '../../lib/database-errors';
import {
  countInvitees,
  findAccount,
  findAccountByInviteCode,
  findCurrentRules,
  findOrderStatus,
  insertFirstRules,
  insertNextRules,
  insertRebateOnce,
  listInvitees,
  listRebates,
  listRuleVersions,
  lockNextDueRebate,
  lockRebateOfOrder,
  sumRebatesByStatus,
  updateRebate,
  type TRebateListRow,
  type TRebateRow,
  type TRuleRow,
} from './invite.repository';

/**
 * Invite and rebate. A rebate is created pending in the transaction that
 * settles an invitee's recharge (one per recharge order), then paid to the
 * inviter by a job through the ledger with the key rebate:<order id>, so it
 * is paid once whatever replays, retries or API instances run.
 */

type TInviteDeps = Pick<TDeps, 'db' | 'clock' | 'config'>;

/** Ledger idempotency key of a rebate's payment: one per recharge order. */
export function rebatePaymentKey(orderId: string): string {
  return `rebate:${orderId}`;
}

/** Ledger idempotency key of taking a paid rebate back after its recharge was reversed. */
export function rebateReversalKey(orderId: string): string {
  return `rebate-reversal:${orderId}`;
}

/** An e-mail as other customers may see it: "ben@example.com" -> "be***@example.com". */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return `${email.slice(0, 2)}***`;
  return `${email.slice(0, Math.min(2, at))}***${email.slice(at)}`;
}

/**
 * One mailbox, however it is spelled: case, "+tag" and, for Gmail, dots in the
 * local part do not make another person (an account registered with the
 * inviter's own e-mail is inviting oneself).
 */
export function mailboxOf(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 0) return lower;
  let local = lower.slice(0, at).split('+')[0]!;
  let domain = lower.slice(at + 1);
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (domain === 'gmail.com') local = local.replaceAll('.', '');
  return `${local}@${domain}`;
}

function rulesOf(row: TRuleRow): TRebateRules {
  return { rateBp: row.rateBp, minChargeFen: row.minChargeFen, maxRebateFen: row.maxRebateFen };
}

function toConfig(row: TRuleRow): TRebateConfig {
  return {
    version: row.version,
    rate: row.rateBp / 100,
    min_charge: fenToYuan(row.minChargeFen),
    max_rebate: fenToYuan(row.maxRebateFen),
    effective_at: row.effectiveAt.toISOString(),
  };
}

/** The rules in force; a fresh install gets the defaults as version 1. */
export async function currentRules(deps: Pick<TDeps, 'db' | 'clock'>, db: TDbOrTx = deps.db): Promise<TRuleRow> {
  const found = await findCurrentRules(db);
  if (found) return found;
  await insertFirstRules(db, { ...DEFAULT_REBATE_RULES, createdBy: null, effectiveAt: deps.clock.now() });
  return (await findCurrentRules(db))!;
}

/**
 * In the settlement's transaction: the pending rebate of a successful recharge,
 * if its owner was invited and the amount earns one. Never for inviting
 * oneself. Idempotent per order: a second call creates nothing.
 */
export async function createPendingRebate(
  deps: TInviteDeps,
  tx: TTx,
  order: { id: string; userId: number; amountFen: number },
): Promise<TRebateRow | undefined> {
  const invitee = await findAccount(tx, order.userId);
  if (!invitee?.invitedBy) return undefined;
  const inviter = await findAccount(tx, invitee.invitedBy);
  if (!inviter || inviter.id === invitee.id || mailboxOf(inviter.email) === mailboxOf(invitee.email)) return undefined;
  const rules = await currentRules(deps, tx);
  const rebateFen = rebateFenOf(order.amountFen, rulesOf(rules));
  if (rebateFen <= 0) return undefined;
  const now = deps.clock.now();
  return insertRebateOnce(tx, {
    orderId: order.id,
    inviterId: inviter.id,
    inviteeId: invitee.id,
    chargeFen: order.amountFen,
    rebateFen,
    ruleVersion: rules.version,
    status: 'pending',
    dueAt: new Date(now.getTime() + deps.config.REBATE_HOLD_HOURS * 3_600_000),
    createdAt: now,
  });
}

/**
 * The payout job's step: pays the oldest due pending rebate, or ends it failed
 * (inviter disabled) or unknown (its recharge is not a success). Rows another
 * runner holds are skipped; the ledger key makes a second payment impossible.
 * Answers false when nothing was due.
 */
export async function payNextRebate(deps: Pick<TDeps, 'db' | 'clock'>): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const rebate = await lockNextDueRebate(tx, now);
    if (!rebate) return false;
    const end = (status: 'failed' | 'unknown', reason: TRebateReason) =>
      updateRebate(tx, rebate.id, { status, reason, processedAt: now });
    if ((await findOrderStatus(tx, rebate.orderId)) !== 'success') {
      await end('unknown', 'recharge_unknown');
      return true;
    }
    const inviter = await findAccount(tx, rebate.inviterId);
    if (!inviter || inviter.status !== 'active') {
      await end('failed', 'inviter_disabled');
      return true;
    }
    await createLedgerService(deps).credit(
      {
        userId: rebate.inviterId,
        amountFen: rebate.rebateFen,
        reason: 'rebate',
        reference: rebate.orderId,
        idempotencyKey: rebatePaymentKey(rebate.orderId),
      },
      tx,
    );
    await faultPoint('rebate.credited', tx);
    await updateRebate(tx, rebate.id, { status: 'success', processedAt: now });
    await writeNotification(deps, rebate.inviterId, 'rebate_paid', tx);
    return true;
  });
}

/** What reversing a recharge did to its rebate. */
export type TRebateReversal =
  | { outcome: 'none' }
  | { outcome: 'cancelled'; rebateId: number }
  | { outcome: 'taken_back'; rebateId: number; reversedFen: number; shortfallFen: number };

/**
 * For the operator who reverses a recharge (inside their transaction when
 * given): a pending rebate of the order is cancelled (failed, recharge
 * reversed); a paid one is taken back from the inviter as far as the
 * available balance allows, through the ledger, and the rest is recorded as
 * the shortfall for the operator. Anything else, or a second call, changes
 * nothing.
 */
export async function reverseRebateOfOrder(
  deps: Pick<TDeps, 'db' | 'clock'>,
  orderId: string,
  tx?: TTx,
): Promise<TRebateReversal> {
  const run = async (own: TTx): Promise<TRebateReversal> => {
    const rebate = await lockRebateOfOrder(own, orderId);
    if (!rebate) return { outcome: 'none' };
    const now = deps.clock.now();
    if (rebate.status === 'pending') {
      await updateRebate(own, rebate.id, { status: 'failed', reason: 'recharge_reversed', processedAt: now });
      return { outcome: 'cancelled', rebateId: rebate.id };
    }
    if (rebate.status !== 'success') return { outcome: 'none' };
    // The balance row stays locked until the debit: what is available cannot shrink in between.
    const balance = await lockBalance(own, rebate.inviterId);
    const reversedFen = Math.min(rebate.rebateFen, balance?.availableFen ?? 0);
    if (reversedFen > 0) {
      await createLedgerService(deps).debit(
        {
          userId: rebate.inviterId,
          amountFen: reversedFen,
          reason: 'rebate',
          reference: orderId,
          idempotencyKey: rebateReversalKey(orderId),
        },
        own,
      );
    }
    const shortfallFen = rebate.rebateFen - reversedFen;
    await updateRebate(own, rebate.id, {
      status: 'failed',
      reason: 'recharge_reversed',
      processedAt: now,
      reversedFen,
      shortfallFen,
    });
    return { outcome: 'taken_back', rebateId: rebate.id, reversedFen, shortfallFen };
  };
  return tx ? run(tx) : deps.db.transaction(run);
}

/** GET /invite/info. */
export async function getInviteInfo(deps: TInviteDeps, userId: number): Promise<TInviteInfo> {
  const me = await findAccount(deps.db, userId);
  if (!me) throw new AppError('NOT_FOUND');
  const inviter = me.invitedBy ? await findAccount(deps.db, me.invitedBy) : undefined;
  const sums = await sumRebatesByStatus(deps.db, userId);
  const rules = await currentRules(deps);
  return {
    invite_code: me.inviteCode,
    invite_link: `${deps.config.publicUrl}/invite/${me.inviteCode}`,
    inviter_name: inviter?.username ?? null,
    invited_count: await countInvitees(deps.db, userId),
    total_rebate: fenToYuan(sums.success ?? 0),
    pending_rebate: fenToYuan(sums.pending ?? 0),
    rebate_rate: rules.rateBp / 100,
  };
}

/** GET /invite/records. */
export async function listInviteRecords(
  deps: Pick<TDeps, 'db'>,
  userId: number,
  query: { page: number; page_size: number },
): Promise<TPage<TInviteRecord>> {
  const { records, total } = await listInvitees(deps.db, userId, query.page_size, (query.page - 1) * query.page_size);
  return {
    records: records.map((r) => ({
      invitee: maskEmail(r.email),
      register_time: r.createdAt.toISOString(),
      rebate_count: r.rebateCount,
      total_rebate: fenToYuan(r.rebateFen),
    })),
    total,
    page: query.page,
    page_size: query.page_size,
  };
}

function toRebateRecord(row: TRebateListRow): TRebateRecord {
  return {
    id: row.id,
    invitee: maskEmail(row.inviteeEmail),
    charge_amount: fenToYuan(row.chargeFen),
    rebate_amount: fenToYuan(row.rebateFen),
    status: row.status,
    reason: row.reason,
    processed_time: row.processedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** GET /invite/rebate/records. */
export async function listRebateRecords(
  deps: Pick<TDeps, 'db'>,
  userId: number,
  query: TRebateQuery,
): Promise<TPage<TRebateRecord>> {
  const { records, total } = await listRebates(
    deps.db,
    { inviterId: userId, status: query.status },
    query.page_size,
    (query.page - 1) * query.page_size,
  );
  return { records: records.map(toRebateRecord), total, page: query.page, page_size: query.page_size };
}

/** GET /admin/invite/rebates: every rebate, with both accounts, the order and what a reversal took back. */
export async function listAllRebates(deps: Pick<TDeps, 'db'>, query: TRebateQuery): Promise<TPage<TAdminRebateRecord>> {
  const { records, total } = await listRebates(
    deps.db,
    { status: query.status },
    query.page_size,
    (query.page - 1) * query.page_size,
  );
  return {
    records: records.map((row) => ({
      ...toRebateRecord(row),
      invitee: row.inviteeEmail,
      inviter_id: row.inviterId,
      inviter_email: row.inviterEmail,
      invitee_id: row.inviteeId,
      invitee_email: row.inviteeEmail,
      order_id: row.orderId,
      rule_version: row.ruleVersion,
      reversed_amount: fenToYuan(row.reversedFen),
      shortfall_amount: fenToYuan(row.shortfallFen),
    })),
    total,
    page: query.page,
    page_size: query.page_size,
  };
}

/** GET /invite/rebate/config. */
export async function getRebateConfig(deps: Pick<TDeps, 'db' | 'clock'>): Promise<TRebateConfig> {
  return toConfig(await currentRules(deps));
}

/** GET /invite/share/{code}: valid only for an active account's code; the inviter by display name only. */
export async function getShare(deps: TInviteDeps, code: string, lang: TLang): Promise<TInviteShare> {
  const normalized = code.trim().toUpperCase();
  const owner = /^[A-Z0-9]{4,32}$/.test(normalized) ? await findAccountByInviteCode(deps.db, normalized) : undefined;
  const isValid = owner?.status === 'active';
  return {
    invite_code: isValid ? normalized : code,
    is_valid: isValid,
    inviter_name: isValid ? owner.username : null,
    message: isValid ? null : ERRORS.INVITE_CODE_INVALID[lang],
    invite_required: deps.config.REGISTRATION_INVITE_REQUIRED,
    claims: await readClaims(deps.db),
  };
}

/** POST /invite/admin/rebate/config: a new version, effective from now (concurrent changes each get their own version). */
export async function updateRebateConfig(
  deps: Pick<TDeps, 'db' | 'clock'>,
  operatorId: number,
  input: TRebateConfigInput,
): Promise<TRebateConfigVersion> {
  const rules = {
    rateBp: Math.round(input.rate * 100),
    minChargeFen: yuanToFen(input.min_charge),
    maxRebateFen: yuanToFen(input.max_rebate),
    createdBy: operatorId,
    effectiveAt: deps.clock.now(),
  };
  for (let attempt = 0; ; attempt += 1) {
    try {
      // One transaction (the first rules, if none yet, and the next): the audit entry is written in it (features/audit).
      const row = await deps.db.transaction(async (tx) => {
        await currentRules(deps, tx);
        return insertNextRules(tx, rules);
      });
      return {
        ...toConfig(row),
        created_by: (await findAccount(deps.db, operatorId))?.email ?? null,
        is_current: true,
      };
    } catch (error) {
      if (uniqueViolationOf(error) === undefined || attempt >= 4) throw error;
    }
  }
}

/** GET /invite/admin/rebate/config/list. */
export async function listRebateConfigVersions(
  deps: Pick<TDeps, 'db' | 'clock'>,
  query: { page: number; page_size: number },
): Promise<TPage<TRebateConfigVersion>> {
  const current = await currentRules(deps);
  const { records, total } = await listRuleVersions(deps.db, query.page_size, (query.page - 1) * query.page_size);
  return {
    records: records.map((r) => ({
      ...toConfig(r),
      created_by: r.createdByEmail,
      is_current: r.version === current.version,
    })),
    total,
    page: query.page,
    page_size: query.page_size,
  };
}
