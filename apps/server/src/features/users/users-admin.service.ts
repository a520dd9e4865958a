import { fenToYuan, parseYuanAmount, type TAdminAdjustBody, type TAdminUser, type TAdminUserDetail, type TAdminUserQuery, type TPage } from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { createLedgerService } from '../ledger/ledger.service';
import { countUserHoldings, findAdminUser, listAdminUsers, type TAdminUserRow } from './users-admin.repository';
import { findUserById, updateIsAdmin } from './users.repository';

/** Ledger reason of an operator's adjustment. */
export const ADJUSTMENT_REASON = 'adjustment';

function toAdminUser(row: TAdminUserRow): TAdminUser {
  return {
    user_id: row.id,
    username: row.username,
    email: row.email,
    status: row.status,
    is_admin: row.isAdmin,
    invite_code: row.inviteCode,
    invited_by: row.invitedBy,
    balance: fenToYuan(row.availableFen),
    frozen_balance: fenToYuan(row.frozenFen),
    total_balance: fenToYuan(row.totalRechargeFen),
    created_at: row.createdAt.toISOString(),
    last_login_at: row.lastLoginAt?.toISOString() ?? null,
  };
}

/** GET /admin/users/list. */
export async function listUsersForOperators(deps: Pick<TDeps, 'db'>, query: TAdminUserQuery): Promise<TPage<TAdminUser>> {
  const { records, total } = await listAdminUsers(deps.db, query);
  return { records: records.map(toAdminUser), total, page: query.page, page_size: query.page_size };
}

/** GET /admin/users/:id. */
export async function getUserForOperators(deps: Pick<TDeps, 'db' | 'clock'>, userId: number): Promise<TAdminUserDetail> {
  const row = await findAdminUser(deps.db, userId);
  if (!row) throw new AppError('NOT_FOUND');
  const held = await countUserHoldings(deps.db, row, deps.clock.now());
  return {
    ...toAdminUser(row),
    live_proxies: held.liveProxies,
    recharge_orders: held.rechargeOrders,
    invitees: held.invitees,
    sessions: held.sessions,
    inviter_email: held.inviterEmail,
  };
}

/**
 * POST /admin/users/:id/balance: one ledger entry (credit or debit, reason
 * "adjustment", the operator's reason as its reference), keyed by the
 * request id so a retry moves the money once. A debit larger than the
 * available balance is refused and moves nothing.
 */
export async function adjustBalance(
  deps: Pick<TDeps, 'db' | 'clock'>,
  userId: number,
  input: TAdminAdjustBody,
): Promise<{ entry_id: number; balance: number; frozen_balance: number; is_replay: boolean }> {
  if (!(await findUserById(deps.db, userId))) throw new AppError('NOT_FOUND');
  const amountFen = parseYuanAmount(input.amount)!;
  const ledger = createLedgerService(deps);
  const op = { userId, amountFen, reason: ADJUSTMENT_REASON, reference: input.reason, idempotencyKey: `adjust:${input.request_id}` };
  const result = input.kind === 'credit' ? await ledger.credit(op) : await ledger.debit(op);
  return { entry_id: result.entryId, balance: fenToYuan(result.availableFen), frozen_balance: fenToYuan(result.frozenFen), is_replay: result.isReplay };
}

/** PUT /admin/users/:id/admin: grants or revokes the operator role (never one's own: the last operator could lock everyone out). */
export async function setOperatorRole(
  deps: Pick<TDeps, 'db'>,
  operatorId: number,
  userId: number,
  isAdmin: boolean,
): Promise<{ user_id: number; is_admin: boolean }> {
  if (userId === operatorId) throw new AppError('SELF_ACTION_REFUSED');
  if (!(await findUserById(deps.db, userId))) throw new AppError('NOT_FOUND');
  await updateIsAdmin(deps.db, userId, isAdmin);
  return { user_id: userId, is_admin: isAdmin };
}
