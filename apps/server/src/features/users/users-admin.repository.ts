import { and, count, desc, eq, gt, ilike, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { balances, payOrders, proxyTokens, users, userSessions, type TDbOrTx } from '@proxy/db';
import type { TAdminUserQuery } from '@proxy/contract';
import { newestOfUser, ofUser } from '../../lib/user-rows.repository';

/** An account with its balances, as the operators' list shows it. */
export type TAdminUserRow = {
  id: number;
  username: string;
  email: string;
  status: 'active' | 'disabled';
  isAdmin: boolean;
  inviteCode: string;
  invitedBy: number | null;
  availableFen: number;
  frozenFen: number;
  totalRechargeFen: number;
  createdAt: Date;
  lastLoginAt: Date | null;
};

const columns = {
  id: users.id,
  username: users.username,
  email: users.email,
  status: users.status,
  isAdmin: users.isAdmin,
  inviteCode: users.inviteCode,
  invitedBy: users.invitedBy,
  availableFen: sql<number>`coalesce(${balances.availableFen}, 0)`.mapWith(Number),
  frozenFen: sql<number>`coalesce(${balances.frozenFen}, 0)`.mapWith(Number),
  totalRechargeFen: users.totalRechargeFen,
  createdAt: users.createdAt,
  lastLoginAt: users.lastLoginAt,
};

// LIKE's own characters in a keyword match themselves.
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One keyword against e-mail, username and invite code (contains, any case), or the id when it is a number. */
function keywordFilter(keyword: string): SQL | undefined {
  const pattern = `%${likeEscaped(keyword)}%`;
  const byText = or(ilike(users.email, pattern), ilike(users.username, pattern), ilike(users.inviteCode, pattern));
  return /^\d{1,15}$/.test(keyword) ? or(eq(users.id, Number(keyword)), byText) : byText;
}

/** Accounts, newest first, with their balances. */
export async function listAdminUsers(
  db: TDbOrTx,
  query: TAdminUserQuery,
): Promise<{ records: TAdminUserRow[]; total: number }> {
  const where = and(
    query.keyword ? keywordFilter(query.keyword) : undefined,
    query.status ? eq(users.status, query.status) : undefined,
  );
  const [records, [{ total }]] = await Promise.all([
    db
      .select(columns)
      .from(users)
      .leftJoin(balances, eq(balances.userId, users.id))
      .where(where)
      .orderBy(desc(users.id))
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { records, total };
}

/** One account with its balances. */
export async function findAdminUser(db: TDbOrTx, userId: number): Promise<TAdminUserRow | undefined> {
  const [row] = await db
    .select(columns)
    .from(users)
    .leftJoin(balances, eq(balances.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

/** What hangs on an account: live proxies, recharge orders, invitees, open sessions, and the inviter's e-mail. */
export async function countUserHoldings(
  db: TDbOrTx,
  user: { id: number; invitedBy: number | null },
  now: Date,
): Promise<{
  liveProxies: number;
  rechargeOrders: number;
  invitees: number;
  sessions: number;
  inviterEmail: string | null;
}> {
  const [[proxies], [orders], [invited], [sessions], [inviter]] = await Promise.all([
    db
      .select({ n: count() })
      .from(proxyTokens)
      .where(
        and(
          eq(proxyTokens.userId, user.id),
          isNull(proxyTokens.deletedAt),
          ne(proxyTokens.status, 'expired'),
          gt(proxyTokens.expiresAt, now),
        ),
      ),
    db.select({ n: count() }).from(payOrders).where(eq(payOrders.userId, user.id)),
    db.select({ n: count() }).from(users).where(eq(users.invitedBy, user.id)),
    db
      .select({ n: count() })
      .from(userSessions)
      .where(and(eq(userSessions.userId, user.id), isNull(userSessions.endedAt))),
    user.invitedBy === null
      ? Promise.resolve([])
      : db.select({ email: users.email }).from(users).where(eq(users.id, user.invitedBy)).limit(1),
  ]);
  return {
    liveProxies: proxies.n,
    rechargeOrders: orders.n,
    invitees: invited.n,
    sessions: sessions.n,
    inviterEmail: inviter?.email ?? null,
  };
}

/** A token row, as the operators' proxy list reads it. */
export type TAdminTokenRow = typeof proxyTokens.$inferSelect;

/** One page of an account's tokens (deleted ones too), newest first, with the total. */
export async function listUserTokensPage(
  db: TDbOrTx,
  userId: number,
  page: { limit: number; offset: number },
): Promise<{ rows: TAdminTokenRow[]; total: number }> {
  const where = ofUser(proxyTokens.userId, userId);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(proxyTokens)
      .where(where)
      .orderBy(...newestOfUser(proxyTokens.userId, proxyTokens.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(proxyTokens).where(where),
  ]);
  return { rows, total: Number(total) };
}

/** A session row. */
export type TAdminSessionRow = typeof userSessions.$inferSelect;

/** One page of an account's sessions that are not ended, latest used first, with the total. */
export async function listOpenSessionsPage(
  db: TDbOrTx,
  userId: number,
  page: { limit: number; offset: number },
): Promise<{ rows: TAdminSessionRow[]; total: number }> {
  const where = and(eq(userSessions.userId, userId), isNull(userSessions.endedAt));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(userSessions)
      .where(where)
      .orderBy(desc(userSessions.lastUsedAt), desc(userSessions.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(userSessions).where(where),
  ]);
  return { rows, total: Number(total) };
}

/** An invited account, as the operators' list shows it. */
export type TInviteeRow = {
  id: number;
  username: string;
  email: string;
  status: 'active' | 'disabled';
  totalRechargeFen: number;
  createdAt: Date;
};

/** One page of the accounts a user invited, newest first, with the total. */
export async function listInviteesPage(
  db: TDbOrTx,
  inviterId: number,
  page: { limit: number; offset: number },
): Promise<{ rows: TInviteeRow[]; total: number }> {
  const where = ofUser(users.invitedBy, inviterId);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: users.id,
        username: users.username,
        email: users.email,
        status: users.status,
        totalRechargeFen: users.totalRechargeFen,
        createdAt: users.createdAt,
      })
      .from(users)
      .where(where)
      .orderBy(...newestOfUser(users.invitedBy, users.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { rows, total: Number(total) };
}
