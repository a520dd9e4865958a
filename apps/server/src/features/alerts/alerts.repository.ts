import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { alertEvents, alertSettings, balances, proxyTokens, users, type TDbOrTx } from '@proxy/db';

/** A user's alert settings row. */
export type TAlertSettingsRow = typeof alertSettings.$inferSelect;
/** An alert record. */
export type TAlertEventRow = typeof alertEvents.$inferSelect;
/** What a new alert record needs. */
export type TNewAlertEvent = typeof alertEvents.$inferInsert;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The tokens the auto-renew job charges: live or disabled, not deleted, billed by IP, auto-renew on. */
function autoRenewedTokens(): SQL[] {
  return [
    inArray(proxyTokens.status, ['enabled', 'disabled']),
    isNull(proxyTokens.deletedAt),
    eq(proxyTokens.billing, 'ip'),
    eq(proxyTokens.autoRenew, true),
  ];
}

/** The user's alert settings, or undefined when they never saved any (the defaults apply). */
export async function findAlertSettings(db: TDbOrTx, userId: number): Promise<TAlertSettingsRow | undefined> {
  const [row] = await db.select().from(alertSettings).where(eq(alertSettings.userId, userId));
  return row;
}

/** Writes the user's alert settings (insert or replace). */
export async function upsertAlertSettings(
  db: TDbOrTx,
  row: typeof alertSettings.$inferInsert,
): Promise<TAlertSettingsRow> {
  const { userId: _userId, ...changes } = row;
  const [saved] = await db
    .insert(alertSettings)
    .values(row)
    .onConflictDoUpdate({ target: alertSettings.userId, set: changes })
    .returning();
  return saved;
}

/** Locks the user's settings row for a change (serialises saves with the balance job). */
export async function lockAlertSettings(tx: TDbOrTx, userId: number): Promise<TAlertSettingsRow | undefined> {
  const [row] = await tx.select().from(alertSettings).where(eq(alertSettings.userId, userId)).for('update');
  return row;
}

/**
 * Writes an alert once: the unique key (subject, kind, period) lets the
 * database refuse a second copy from another instance. Answers the row, or
 * undefined when it was already there.
 */
export async function insertAlertEvent(db: TDbOrTx, row: TNewAlertEvent): Promise<TAlertEventRow | undefined> {
  const [inserted] = await db.insert(alertEvents).values(row).onConflictDoNothing().returning();
  return inserted;
}

/** No alert of this kind and period for the proxy yet (`period` is an SQL text expression over the token's row). */
function noProxyAlert(kind: string, period: SQL): SQL {
  return sql`NOT EXISTS (SELECT 1 FROM ${alertEvents} WHERE ${alertEvents.subjectType} = 'proxy' AND ${alertEvents.subjectId} = ${proxyTokens.id} AND ${alertEvents.kind} = ${kind} AND ${alertEvents.period} = ${period})`;
}

/** A token's expiry as the text of its epoch milliseconds (the alert periods of expiries). */
const expiryMs = sql`(floor(extract(epoch from ${proxyTokens.expiresAt}) * 1000))::bigint::text`;

/** The period of a threshold alert: the allowance (a new limit is a new allowance) and the percentage. */
export function usagePeriod(limitBytes: number, percent: number): string {
  return `${limitBytes}:${percent}`;
}

/** The period of an expiry reminder: the expiry and the days before it. */
export function expiringPeriod(expiresAt: Date, days: number): string {
  return `${expiresAt.getTime()}:${days}d`;
}

const tokenFields = {
  id: proxyTokens.id,
  userId: proxyTokens.userId,
  username: proxyTokens.username,
  limitBytes: proxyTokens.trafficLimitBytes,
  usedBytes: proxyTokens.trafficUsedBytes,
  expiresAt: proxyTokens.expiresAt,
  periodPriceFen: proxyTokens.periodPriceFen,
};

/** A proxy an alert is about. */
export type TAlertToken = {
  id: number;
  userId: number;
  username: string;
  limitBytes: number | null;
  usedBytes: number;
  expiresAt: Date;
  periodPriceFen: number;
};

/**
 * The next traffic token whose usage reached `percent` % of its allowance,
 * with that threshold on for its owner and not alerted in this allowance.
 */
export async function findNextUsageAlert(db: TDbOrTx, percent: number): Promise<TAlertToken | undefined> {
  const pct = sql.raw(String(Math.trunc(percent)));
  const [row] = await db
    .select(tokenFields)
    .from(proxyTokens)
    .leftJoin(alertSettings, eq(alertSettings.userId, proxyTokens.userId))
    .where(
      and(
        eq(proxyTokens.billing, 'traffic'),
        isNotNull(proxyTokens.trafficLimitBytes),
        gt(proxyTokens.trafficLimitBytes, 0),
        isNull(proxyTokens.deletedAt),
        sql`${proxyTokens.trafficUsedBytes} * 100 >= ${proxyTokens.trafficLimitBytes} * ${pct}`,
        sql`${pct} = ANY(coalesce(${alertSettings.usageThresholds}, ARRAY[80, 100]::integer[]))`,
        noProxyAlert('usage_threshold', sql`${proxyTokens.trafficLimitBytes}::text || ${`:${percent}`}`),
      ),
    )
    .orderBy(asc(proxyTokens.id))
    .limit(1);
  return row;
}

/**
 * The next live token expiring within `days` days (and not within the next
 * shorter reminder's `nextDays`), whose reminder time falls after it was
 * created, without auto-renew (renewed tokens do not expire) and not yet
 * reminded for this expiry.
 */
export async function findNextExpiringAlert(
  db: TDbOrTx,
  now: Date,
  days: number,
  nextDays: number,
): Promise<TAlertToken | undefined> {
  const [row] = await db
    .select(tokenFields)
    .from(proxyTokens)
    .where(
      and(
        inArray(proxyTokens.status, ['enabled', 'disabled']),
        isNull(proxyTokens.deletedAt),
        eq(proxyTokens.autoRenew, false),
        gt(proxyTokens.expiresAt, new Date(now.getTime() + nextDays * DAY_MS)),
        lte(proxyTokens.expiresAt, new Date(now.getTime() + days * DAY_MS)),
        sql`${proxyTokens.expiresAt} - ${sql.raw(`interval '${Math.trunc(days)} days'`)} >= ${proxyTokens.createdAt}`,
        noProxyAlert('proxy_expiring', sql`${expiryMs} || ${`:${days}d`}`),
      ),
    )
    .orderBy(asc(proxyTokens.expiresAt))
    .limit(1);
  return row;
}

/** The next token that expired within the last day (not deleted, not renewed) and was not alerted for this expiry. */
export async function findNextExpiredAlert(db: TDbOrTx, now: Date): Promise<TAlertToken | undefined> {
  const [row] = await db
    .select(tokenFields)
    .from(proxyTokens)
    .where(
      and(
        isNull(proxyTokens.deletedAt),
        lte(proxyTokens.expiresAt, now),
        gt(proxyTokens.expiresAt, new Date(now.getTime() - DAY_MS)),
        noProxyAlert('proxy_expired', expiryMs),
      ),
    )
    .orderBy(asc(proxyTokens.expiresAt))
    .limit(1);
  return row;
}

/**
 * The next live IP token with auto-renew on, due within the day, whose owner's
 * available balance is below what the auto-renewals due within the day cost
 * (`dueFen`), not alerted for this expiry and not already refused.
 */
export async function findNextAutoRenewShortfall(
  db: TDbOrTx,
  now: Date,
): Promise<(TAlertToken & { availableFen: number; dueFen: number }) | undefined> {
  const until = new Date(now.getTime() + DAY_MS);
  const due = db
    .select({ userId: proxyTokens.userId, dueFen: sql<string>`sum(${proxyTokens.periodPriceFen})`.as('due_fen') })
    .from(proxyTokens)
    .where(and(...autoRenewedTokens(), gt(proxyTokens.expiresAt, now), lte(proxyTokens.expiresAt, until)))
    .groupBy(proxyTokens.userId)
    .as('due');
  const [row] = await db
    .select({
      ...tokenFields,
      availableFen: sql<number>`coalesce(${balances.availableFen}, 0)`.mapWith(Number),
      dueFen: sql`${due.dueFen}`.mapWith(Number),
    })
    .from(proxyTokens)
    .innerJoin(due, eq(due.userId, proxyTokens.userId))
    .leftJoin(balances, eq(balances.userId, proxyTokens.userId))
    .where(
      and(
        ...autoRenewedTokens(),
        gt(proxyTokens.periodPriceFen, 0),
        gt(proxyTokens.expiresAt, now),
        lte(proxyTokens.expiresAt, until),
        or(isNull(proxyTokens.autoRenewFailedFor), ne(proxyTokens.autoRenewFailedFor, proxyTokens.expiresAt)),
        sql`coalesce(${balances.availableFen}, 0) < ${due.dueFen}`,
        noProxyAlert('auto_renew_will_fail', expiryMs),
      ),
    )
    .orderBy(asc(proxyTokens.expiresAt))
    .limit(1);
  return row;
}

/**
 * The next live IP token with auto-renew on whose renewal charges (at
 * `chargeBeforeMs` before its expiry) within `leadMs` from now and not yet,
 * with a price to charge, not refused for this expiry and without its notice.
 */
export async function findNextAutoRenewNotice(
  db: TDbOrTx,
  now: Date,
  chargeBeforeMs: number,
  leadMs: number,
): Promise<(TAlertToken & { periodDays: number }) | undefined> {
  const [row] = await db
    .select({ ...tokenFields, periodDays: proxyTokens.periodDays })
    .from(proxyTokens)
    .where(
      and(
        ...autoRenewedTokens(),
        gt(proxyTokens.periodPriceFen, 0),
        gt(proxyTokens.periodDays, 0),
        gt(proxyTokens.expiresAt, new Date(now.getTime() + chargeBeforeMs)),
        lte(proxyTokens.expiresAt, new Date(now.getTime() + chargeBeforeMs + leadMs)),
        or(isNull(proxyTokens.autoRenewFailedFor), ne(proxyTokens.autoRenewFailedFor, proxyTokens.expiresAt)),
        noProxyAlert('auto_renew_notice', expiryMs),
      ),
    )
    .orderBy(asc(proxyTokens.expiresAt), asc(proxyTokens.id))
    .limit(1);
  return row;
}

/**
 * Locks the next settings row whose balance alert has to change state: the
 * balance fell below the threshold and this period has not alerted, or it is
 * back at or above it after an alert (a new period starts). SKIP LOCKED: another
 * instance takes the next one.
 */
export async function lockNextBalanceChange(
  tx: TDbOrTx,
): Promise<{ settings: TAlertSettingsRow; availableFen: number; username: string; email: string } | undefined> {
  const available = sql<number>`coalesce(${balances.availableFen}, 0)`;
  const [row] = await tx
    .select({
      settings: alertSettings,
      availableFen: available.mapWith(Number),
      username: users.username,
      email: users.email,
    })
    .from(alertSettings)
    .innerJoin(users, eq(users.id, alertSettings.userId))
    .leftJoin(balances, eq(balances.userId, alertSettings.userId))
    .where(
      and(
        isNotNull(alertSettings.balanceLowFen),
        or(
          and(eq(alertSettings.isBalanceLowAlerted, false), sql`${available} < ${alertSettings.balanceLowFen}`),
          and(eq(alertSettings.isBalanceLowAlerted, true), sql`${available} >= ${alertSettings.balanceLowFen}`),
        ),
      ),
    )
    .orderBy(asc(alertSettings.userId))
    .limit(1)
    .for('update', { of: alertSettings, skipLocked: true });
  return row;
}

/** Locks the next alert whose e-mail is still to send (SKIP LOCKED), with its recipient. */
export async function lockNextPendingMail(
  tx: TDbOrTx,
): Promise<{ event: TAlertEventRow; email: string; username: string } | undefined> {
  const [row] = await tx
    .select({ event: alertEvents, email: users.email, username: users.username })
    .from(alertEvents)
    .innerJoin(users, eq(users.id, alertEvents.userId))
    .where(eq(alertEvents.mailState, 'pending'))
    .orderBy(asc(alertEvents.id))
    .limit(1)
    .for('update', { of: alertEvents, skipLocked: true });
  return row;
}

/** Records how an alert's e-mail went. */
export async function setMailState(tx: TDbOrTx, id: number, state: 'sent' | 'failed'): Promise<void> {
  await tx.update(alertEvents).set({ mailState: state }).where(eq(alertEvents.id, id));
}

/** Updates a settings row's balance period. */
export async function setBalancePeriod(
  tx: TDbOrTx,
  userId: number,
  changes: { balanceLowPeriod?: number; isBalanceLowAlerted: boolean },
): Promise<void> {
  await tx.update(alertSettings).set(changes).where(eq(alertSettings.userId, userId));
}
