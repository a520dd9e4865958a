import {
  fenToYuan,
  parseYuanAmount,
  type TAdminAdjustBody,
  type TAdminMailKind,
  type TAdminUser,
  type TAdminUserDetail,
  type TAdminUserInvitee,
  type TAdminUserProxy,
  type TAdminUserQuery,
  type TAdminUserSession,
  type TLang,
  type TPage,
} from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import { faultPoint } from '../../lib/fault-points';
import type { TDeps } from '../../lib/deps';
import { createLedgerService } from '../ledger/ledger.service';
import { sendCode } from '../auth/codes.service';
import { endSession } from '../auth/sessions.service';
import {
  countUserHoldings,
  findAdminUser,
  listAdminUsers,
  listInviteesPage,
  listOpenSessionsPage,
  listUserTokensPage,
  type TAdminTokenRow,
  type TAdminUserRow,
} from './users-admin.repository';
import { findUserById } from '../accounts/accounts.repository';
import { updateIsAdmin } from './users.repository';

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
export async function listUsersForOperators(
  deps: Pick<TDeps, 'db'>,
  query: TAdminUserQuery,
): Promise<TPage<TAdminUser>> {
  const { records, total } = await listAdminUsers(deps.db, query);
  return { records: records.map(toAdminUser), total, page: query.page, page_size: query.page_size };
}

/** GET /admin/users/:id. */
export async function getUserForOperators(
  deps: Pick<TDeps, 'db' | 'clock'>,
  userId: number,
): Promise<TAdminUserDetail> {
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
  const op = {
    userId,
    amountFen,
    reason: ADJUSTMENT_REASON,
    reference: input.reason,
    idempotencyKey: `adjust:${input.request_id}`,
  };
  const result = await deps.db.transaction(async (tx) => {
    const moved = input.kind === 'credit' ? await ledger.credit(op, tx) : await ledger.debit(op, tx);
    await faultPoint('adjust.moved', tx);
    return moved;
  });
  return {
    entry_id: result.entryId,
    balance: fenToYuan(result.availableFen),
    frozen_balance: fenToYuan(result.frozenFen),
    is_replay: result.isReplay,
  };
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
  await deps.db.transaction((tx) => updateIsAdmin(tx, userId, isAdmin));
  return { user_id: userId, is_admin: isAdmin };
}

/** Page and size of a paged operator call. */
type TPageQuery = { page: number; page_size: number };

const pageOf = (query: TPageQuery) => ({ limit: query.page_size, offset: (query.page - 1) * query.page_size });

function toAdminProxy(row: TAdminTokenRow): TAdminUserProxy {
  return {
    token_id: row.id,
    username: row.username,
    product: row.product,
    category: row.category,
    billing: row.billing,
    network: row.network,
    country: row.country,
    state: row.state,
    city: row.city,
    status: row.deletedAt ? 'deleted' : row.status,
    expires_at: row.expiresAt.toISOString(),
    traffic_used: row.trafficUsedBytes,
    traffic_limit: row.trafficLimitBytes,
    created_at: row.createdAt.toISOString(),
  };
}

// An unknown account is 404, never an empty page.
async function requireUser(deps: Pick<TDeps, 'db'>, userId: number) {
  const user = await findUserById(deps.db, userId);
  if (!user) throw new AppError('NOT_FOUND');
  return user;
}

/** GET /admin/users/:id/proxies. */
export async function listUserProxiesForOperators(
  deps: Pick<TDeps, 'db'>,
  userId: number,
  query: TPageQuery,
): Promise<TPage<TAdminUserProxy>> {
  await requireUser(deps, userId);
  const { rows, total } = await listUserTokensPage(deps.db, userId, pageOf(query));
  return { records: rows.map(toAdminProxy), total, page: query.page, page_size: query.page_size };
}

/** GET /admin/users/:id/sessions. */
export async function listUserSessionsForOperators(
  deps: Pick<TDeps, 'db'>,
  userId: number,
  query: TPageQuery,
): Promise<TPage<TAdminUserSession>> {
  await requireUser(deps, userId);
  const { rows, total } = await listOpenSessionsPage(deps.db, userId, pageOf(query));
  return {
    records: rows.map((row) => ({
      id: row.id,
      method: row.method,
      user_agent: row.userAgent,
      ip: row.ip,
      created_at: row.createdAt.toISOString(),
      last_used_at: row.lastUsedAt.toISOString(),
    })),
    total,
    page: query.page,
    page_size: query.page_size,
  };
}

/** POST /admin/users/:id/sessions/:session_id/end: the session's token answers -401 from its next call. */
export async function endUserSessionForOperators(deps: TDeps, userId: number, sessionId: number): Promise<null> {
  await requireUser(deps, userId);
  await endSession(deps, userId, sessionId);
  return null;
}

/** GET /admin/users/:id/invitees (full e-mails: operators see the accounts themselves). */
export async function listInviteesForOperators(
  deps: Pick<TDeps, 'db'>,
  userId: number,
  query: TPageQuery,
): Promise<TPage<TAdminUserInvitee>> {
  await requireUser(deps, userId);
  const { rows, total } = await listInviteesPage(deps.db, userId, pageOf(query));
  return {
    records: rows.map((row) => ({
      user_id: row.id,
      username: row.username,
      email: row.email,
      status: row.status,
      total_balance: fenToYuan(row.totalRechargeFen),
      created_at: row.createdAt.toISOString(),
    })),
    total,
    page: query.page,
    page_size: query.page_size,
  };
}

/**
 * POST /admin/users/:id/mail. A password reset sends the reset page's own
 * e-mail (a fresh code, through sendCode: the same template and the same
 * once-a-minute throttle per address, CODE_TOO_FREQUENT otherwise). Every
 * address is verified before its account exists or changes (a registration
 * or e-mail change needs a code sent there, a GitHub or Google sign-in a
 * verified address), so a verification e-mail is always refused with
 * EMAIL_ALREADY_VERIFIED. A disabled account gets nothing.
 */
export async function sendMailForOperators(
  deps: TDeps,
  userId: number,
  kind: TAdminMailKind,
  lang: TLang,
): Promise<{ kind: TAdminMailKind; email: string; resend_after: number }> {
  const user = await requireUser(deps, userId);
  if (user.status !== 'active') throw new AppError('MAIL_ACCOUNT_DISABLED');
  if (kind === 'verification') throw new AppError('EMAIL_ALREADY_VERIFIED');
  const sent = await sendCode(deps, { email: user.email, purpose: 'reset', lang });
  return { kind, email: user.email, resend_after: sent.resend_after };
}
