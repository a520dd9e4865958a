import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { webhookDeliveries, webhookEndpoints, webhookEvents, type TDbOrTx } from '@proxy/db';

/** An endpoint row. */
export type TEndpointRow = typeof webhookEndpoints.$inferSelect;
/** An event row. */
export type TEventRow = typeof webhookEvents.$inferSelect;
/** A delivery row. */
export type TDeliveryRow = typeof webhookDeliveries.$inferSelect;
/** A delivery with its event's type (the log). */
export type TDeliveryLogRow = TDeliveryRow & { eventType: string };
/** A claimed attempt: the delivery, its endpoint and its event. */
export type TClaimedDelivery = { delivery: TDeliveryRow; endpoint: TEndpointRow; event: TEventRow };

/** The user's endpoints, oldest first. */
export async function listEndpoints(db: TDbOrTx, userId: number): Promise<TEndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, userId))
    .orderBy(asc(webhookEndpoints.id));
}

/** One of the user's endpoints, locked when `isForUpdate`. */
export async function findEndpoint(
  db: TDbOrTx,
  userId: number,
  id: number,
  isForUpdate = false,
): Promise<TEndpointRow | undefined> {
  const query = db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)));
  const [row] = isForUpdate ? await query.for('update') : await query;
  return row;
}

/** How many endpoints the user has (counted under the lock of the user's row taken by the caller). */
export async function countEndpoints(db: TDbOrTx, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId));
  return row?.n ?? 0;
}

/** Serialises changes of one user's endpoint list (the limit of 5). */
export async function lockUserForWebhooks(db: TDbOrTx, userId: number): Promise<void> {
  await db.execute(sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`);
}

/** Adds an endpoint. */
export async function insertEndpoint(db: TDbOrTx, row: typeof webhookEndpoints.$inferInsert): Promise<TEndpointRow> {
  const [saved] = await db.insert(webhookEndpoints).values(row).returning();
  return saved;
}

/** Changes an endpoint of the user; undefined when there is none. */
export async function updateEndpoint(
  db: TDbOrTx,
  userId: number,
  id: number,
  changes: Partial<typeof webhookEndpoints.$inferInsert>,
): Promise<TEndpointRow | undefined> {
  const [row] = await db
    .update(webhookEndpoints)
    .set(changes)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .returning();
  return row;
}

/** Replaces a secret stored before encryption with its sealed form (only while the row still holds `from`). */
export async function resealEndpointSecret(db: TDbOrTx, id: number, from: string, to: string): Promise<void> {
  await db
    .update(webhookEndpoints)
    .set({ secret: to })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.secret, from)));
}

/** Removes an endpoint of the user with its deliveries; answers whether there was one. */
export async function deleteEndpoint(db: TDbOrTx, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/**
 * Writes an event and, in the same statement's transaction, one pending
 * delivery per enabled endpoint of the user subscribed to its type (or only
 * to `endpointId`, for a ping). Answers the event and its deliveries.
 */
export async function insertEventWithDeliveries(
  db: TDbOrTx,
  event: { userId: number; type: string; subject: string; payload: Record<string, unknown> },
  endpointId?: number,
): Promise<{ event: TEventRow; deliveries: TDeliveryRow[] }> {
  const [saved] = await db.insert(webhookEvents).values(event).returning();
  const target =
    endpointId === undefined
      ? sql`${webhookEndpoints.isEnabled} AND ${event.type} = ANY(${webhookEndpoints.events})`
      : sql`${webhookEndpoints.id} = ${endpointId}`;
  const endpoints = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.userId, event.userId), target))
    .orderBy(asc(webhookEndpoints.id));
  const deliveries =
    endpoints.length === 0
      ? []
      : await db
          .insert(webhookDeliveries)
          .values(endpoints.map((e) => ({ eventId: saved.id, endpointId: e.id, subject: event.subject })))
          .returning();
  return { event: saved, deliveries };
}

/** Adds a pending delivery of an event to an endpoint (a resend). */
export async function insertDelivery(
  db: TDbOrTx,
  row: { eventId: number; endpointId: number; subject: string },
): Promise<TDeliveryRow> {
  const [saved] = await db.insert(webhookDeliveries).values(row).returning();
  return saved;
}

/** A delivery of one of the user's endpoints, with its endpoint. */
export async function findUserDelivery(
  db: TDbOrTx,
  userId: number,
  id: number,
): Promise<{ delivery: TDeliveryRow; endpoint: TEndpointRow } | undefined> {
  const [row] = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookDeliveries.id, id), eq(webhookEndpoints.userId, userId)));
  return row;
}

/** One delivery with its event type. */
export async function findDeliveryLog(db: TDbOrTx, id: number): Promise<TDeliveryLogRow | undefined> {
  const [row] = await db
    .select({ delivery: webhookDeliveries, eventType: webhookEvents.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, id));
  return row ? { ...row.delivery, eventType: row.eventType } : undefined;
}

/** A page of an endpoint's deliveries, newest first. */
export async function listDeliveries(
  db: TDbOrTx,
  endpointId: number,
  page: { limit: number; offset: number },
): Promise<{ rows: TDeliveryLogRow[]; total: number }> {
  const rows = await db
    .select({ delivery: webhookDeliveries, eventType: webhookEvents.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.id))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db
    .select({ n: count() })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId));
  return { rows: rows.map((r) => ({ ...r.delivery, eventType: r.eventType })), total: total?.n ?? 0 };
}

/**
 * Claims up to `limit` due attempts (SKIP LOCKED, so instances share the
 * work): pending deliveries of enabled endpoints, due and not leased, each
 * the oldest pending one of its endpoint and subject. Each gets a lease until
 * `leaseUntil` and its attempt counted. `onlyId` claims that delivery only.
 */
export async function claimDueDeliveries(
  tx: TDbOrTx,
  now: Date,
  leaseUntil: Date,
  giveUpAt: Date,
  limit: number,
  onlyId?: number,
): Promise<TClaimedDelivery[]> {
  const d = webhookDeliveries;
  const rows = await tx
    .select({ delivery: d, endpoint: webhookEndpoints, event: webhookEvents })
    .from(d)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, d.endpointId))
    .innerJoin(webhookEvents, eq(webhookEvents.id, d.eventId))
    .where(
      and(
        onlyId === undefined ? eq(webhookEndpoints.isEnabled, true) : eq(d.id, onlyId),
        eq(d.status, 'pending'),
        sql`(${d.nextAttemptAt} IS NULL OR ${d.nextAttemptAt} <= ${now})`,
        sql`(${d.leaseUntil} IS NULL OR ${d.leaseUntil} <= ${now})`,
        sql`NOT EXISTS (SELECT 1 FROM webhook_deliveries p WHERE p.endpoint_id = ${d.endpointId} AND p.subject = ${d.subject} AND p.status = 'pending' AND p.id < ${d.id})`,
      ),
    )
    .orderBy(asc(d.id))
    .limit(limit)
    .for('update', { of: d, skipLocked: true });
  const claimed: TClaimedDelivery[] = [];
  for (const row of rows) {
    const [delivery] = await tx
      .update(d)
      .set({
        leaseUntil,
        attempts: sql`${d.attempts} + 1`,
        lastAttemptAt: now,
        giveUpAt: sql`coalesce(${d.giveUpAt}, ${giveUpAt})`,
      })
      .where(eq(d.id, row.delivery.id))
      .returning();
    claimed.push({ ...row, delivery });
  }
  return claimed;
}

/** Records the end of attempt number `attempt`; a later claim of the row (after the lease ran out) wins over a late record. */
export async function recordAttempt(
  tx: TDbOrTx,
  id: number,
  attempt: number,
  changes: Pick<Partial<TDeliveryRow>, 'status' | 'nextAttemptAt' | 'responseCode' | 'latencyMs' | 'responseExcerpt'>,
): Promise<TDeliveryRow | undefined> {
  const [row] = await tx
    .update(webhookDeliveries)
    .set({ ...changes, leaseUntil: null })
    .where(
      and(
        eq(webhookDeliveries.id, id),
        eq(webhookDeliveries.attempts, attempt),
        eq(webhookDeliveries.status, 'pending'),
      ),
    )
    .returning();
  return row;
}

/** Locks an endpoint by id (the delivery job's failure accounting). */
export async function lockEndpointById(tx: TDbOrTx, id: number): Promise<TEndpointRow | undefined> {
  const [row] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).for('update');
  return row;
}

/** Sets an endpoint's failure state (by id). */
export async function setEndpointState(
  tx: TDbOrTx,
  id: number,
  changes: Pick<Partial<TEndpointRow>, 'failingSince' | 'isEnabled' | 'disabledReason'>,
): Promise<void> {
  await tx.update(webhookEndpoints).set(changes).where(eq(webhookEndpoints.id, id));
}

/**
 * The queue of every instance (the metrics): deliveries pending for enabled
 * endpoints, and how long the oldest due one has been due, in seconds (0: none due).
 */
export async function readDeliveryBacklog(
  db: TDbOrTx,
  now: Date,
): Promise<{ pending: number; oldestDueSeconds: number }> {
  const d = webhookDeliveries;
  const dueAt = sql`coalesce(${d.nextAttemptAt}, ${d.createdAt})`;
  const [row] = await db
    .select({
      pending: sql<number>`count(*)::int`,
      oldestDueSeconds: sql<number>`coalesce(extract(epoch from (${now}::timestamptz - min(${dueAt}) filter (where ${dueAt} <= ${now}))), 0)::float8`,
    })
    .from(d)
    .innerJoin(webhookEndpoints, and(eq(webhookEndpoints.id, d.endpointId), eq(webhookEndpoints.isEnabled, true)))
    .where(eq(d.status, 'pending'));
  return { pending: Number(row?.pending ?? 0), oldestDueSeconds: Math.max(0, Number(row?.oldestDueSeconds ?? 0)) };
}
