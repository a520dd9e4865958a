import { asc, countDistinct, desc, eq, gt, inArray, max, min, sql } from 'drizzle-orm';
import { chargeOptions, payMethodSettings, users, type TDbOrTx, type TTx } from '@proxy/db';
import type { TPayMethod } from '@proxy/contract';

/** A version of the option set: when it takes over and who made it. */
export type TOptionSetHead = { version: number; effectiveAt: Date; createdAt: Date; createdBy: number | null };
/** One option of a version. */
export type TOptionOfSet = { version: number; amountFen: number; giftFen: number };
/** A method's switch. */
export type TMethodSettingRow = typeof payMethodSettings.$inferSelect;

function heads(db: TDbOrTx) {
  return db
    .select({
      version: chargeOptions.version,
      effectiveAt: min(chargeOptions.effectiveAt),
      createdAt: min(chargeOptions.createdAt),
      createdBy: max(chargeOptions.createdBy),
    })
    .from(chargeOptions)
    .groupBy(chargeOptions.version)
    .$dynamic();
}

function asHead(row: {
  version: number;
  effectiveAt: Date | null;
  createdAt: Date | null;
  createdBy: number | null;
}): TOptionSetHead {
  return {
    version: row.version,
    effectiveAt: row.effectiveAt ?? new Date(0),
    createdAt: row.createdAt ?? new Date(0),
    createdBy: row.createdBy,
  };
}

/** Versions not in effect yet, soonest first. */
export async function listScheduledHeads(db: TDbOrTx, now: Date): Promise<TOptionSetHead[]> {
  const rows = await heads(db)
    .having(gt(min(chargeOptions.effectiveAt), now))
    .orderBy(asc(min(chargeOptions.effectiveAt)), asc(chargeOptions.version));
  return rows.map(asHead);
}

/** The head of one version. */
export async function findHead(db: TDbOrTx, version: number): Promise<TOptionSetHead | undefined> {
  const [row] = await heads(db).having(eq(chargeOptions.version, version));
  return row ? asHead(row) : undefined;
}

/** A page of versions, newest first (by effective time, then version). */
export async function listHeadPage(
  db: TDbOrTx,
  limit: number,
  offset: number,
): Promise<{ records: TOptionSetHead[]; total: number }> {
  const rows = await heads(db)
    .orderBy(desc(min(chargeOptions.effectiveAt)), desc(chargeOptions.version))
    .limit(limit)
    .offset(offset);
  const [counted] = await db.select({ total: countDistinct(chargeOptions.version) }).from(chargeOptions);
  return { records: rows.map(asHead), total: counted?.total ?? 0 };
}

/** The options of some versions, in display order. */
export async function listOptionsOf(db: TDbOrTx, versions: number[]): Promise<TOptionOfSet[]> {
  if (versions.length === 0) return [];
  return db
    .select({ version: chargeOptions.version, amountFen: chargeOptions.amountFen, giftFen: chargeOptions.giftFen })
    .from(chargeOptions)
    .where(inArray(chargeOptions.version, versions))
    .orderBy(asc(chargeOptions.version), asc(chargeOptions.sort), asc(chargeOptions.amountFen));
}

/** E-mails of some accounts, by id. */
export async function findEmails(db: TDbOrTx, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((r) => [r.id, r.email]));
}

/**
 * Writes the next version of the option set. Writers queue on one advisory
 * lock for the transaction, so two operators saving at once get two versions
 * (never one version holding both sets).
 */
export async function insertNextOptionSet(
  tx: TTx,
  options: { amountFen: number; giftFen: number }[],
  meta: { effectiveAt: Date; createdBy: number },
): Promise<number> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('charge-options'))`);
  const [latest] = await tx.select({ version: max(chargeOptions.version) }).from(chargeOptions);
  const version = (latest?.version ?? 0) + 1;
  await tx.insert(chargeOptions).values(
    options.map((o, i) => ({
      version,
      amountFen: o.amountFen,
      giftFen: o.giftFen,
      sort: i,
      effectiveAt: meta.effectiveAt,
      createdBy: meta.createdBy,
    })),
  );
  return version;
}

/** Every stored method switch. */
export async function listMethodSettings(db: TDbOrTx): Promise<TMethodSettingRow[]> {
  return db.select().from(payMethodSettings);
}

/** The stored switch of one method (none: on). */
export async function findMethodSetting(db: TDbOrTx, method: TPayMethod): Promise<TMethodSettingRow | undefined> {
  const [row] = await db.select().from(payMethodSettings).where(eq(payMethodSettings.method, method));
  return row;
}

/** Switches a method on or off. */
export async function upsertMethodSetting(db: TDbOrTx, row: TMethodSettingRow): Promise<void> {
  await db
    .insert(payMethodSettings)
    .values(row)
    .onConflictDoUpdate({
      target: payMethodSettings.method,
      set: { isEnabled: row.isEnabled, updatedBy: row.updatedBy, updatedAt: row.updatedAt },
    });
}
