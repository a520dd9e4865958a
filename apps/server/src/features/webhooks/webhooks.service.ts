import { randomBytes } from 'node:crypto';
import {
  fenToYuan,
  WEBHOOK_DISABLE_AFTER_MS,
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_PING_EVENT,
  WEBHOOK_RETRY_WINDOW_MS,
  WEBHOOK_TIMEOUT_MS,
  webhookBackoffMs,
  type TAlertKind,
  type TPage,
  type TWebhookCreateBody,
  type TWebhookDelivery,
  type TWebhookEndpoint,
  type TWebhookEndpointWithSecret,
  type TWebhookEventType,
  type TWebhookUpdateBody,
} from '@proxy/contract';
import { secretBoxOf, type TDbOrTx } from '@proxy/db';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { writeNotification } from '../notifications/notifications.service';
import {
  claimDueDeliveries,
  countEndpoints,
  deleteEndpoint,
  findDeliveryLog,
  findEndpoint,
  findUserDelivery,
  insertDelivery,
  insertEndpoint,
  insertEventWithDeliveries,
  listDeliveries,
  listEndpoints,
  lockEndpointById,
  lockUserForWebhooks,
  recordAttempt,
  resealEndpointSecret,
  setEndpointState,
  updateEndpoint,
  type TClaimedDelivery,
  type TDeliveryLogRow,
  type TEndpointRow,
} from './webhooks.repository';
import { createWebhookSender, literalHostRefusal, type TWebhookSender } from './webhooks.sender';

type TWebhookDeps = Pick<TDeps, 'db' | 'clock' | 'config'> & Partial<Pick<TDeps, 'metrics'>>;

/** An attempt holds its delivery this long; a server that dies mid-attempt leaves it to be redelivered after. */
export const WEBHOOK_LEASE_MS = WEBHOOK_TIMEOUT_MS * 6;
/** Attempts sent at the same time by one pass. */
const BATCH = 8;

/** The public id of an event: the `Webhook-Id` header and the body's `id`. */
export function webhookEventId(id: number): string {
  return `evt_${id}`;
}

/**
 * Writes a webhook event for the user in the caller's transaction (one line
 * where the thing happens): a pending delivery for each of the user's enabled
 * endpoints subscribed to `type`. `subject` orders deliveries ("proxy:12").
 */
export async function emitWebhookEvent(
  tx: TDbOrTx,
  userId: number,
  type: TWebhookEventType,
  subject: string,
  payload: Record<string, unknown>,
): Promise<void> {
  await insertEventWithDeliveries(tx, { userId, type, subject, payload });
}

/** A proxy's event (subject "proxy:<id>"): its id, username and expiry, plus `extra`. */
export async function emitProxyWebhook(
  tx: TDbOrTx,
  type: TWebhookEventType,
  token: { id: number; userId: number; username: string; expiresAt: Date },
  extra: Record<string, unknown> = {},
): Promise<void> {
  await emitWebhookEvent(tx, token.userId, type, `proxy:${token.id}`, {
    proxy_id: token.id,
    proxy: token.username,
    expires_at: token.expiresAt.toISOString(),
    ...extra,
  });
}

/** A credited recharge order's event (subject "recharge:<order id>"). */
export async function emitRechargeWebhook(
  tx: TDbOrTx,
  order: { id: string; userId: number; method: string; amountFen: number; valueFen: number },
): Promise<void> {
  await emitWebhookEvent(tx, order.userId, 'recharge.succeeded', `recharge:${order.id}`, {
    order_id: order.id,
    method: order.method,
    amount: fenToYuan(order.amountFen),
    value: fenToYuan(order.valueFen),
  });
}

const ALERT_EVENT_TYPES: Partial<Record<TAlertKind, TWebhookEventType>> = {
  usage_threshold: 'usage.threshold',
  proxy_expiring: 'proxy.expiring',
  proxy_expired: 'proxy.expired',
  balance_low: 'balance.low',
};

/** The webhook event of an alert record, for the kinds that have one. */
export async function emitAlertWebhook(
  tx: TDbOrTx,
  alert: { userId: number; kind: string; subjectType: string; subjectId: number; payload: Record<string, unknown> },
): Promise<void> {
  const type = ALERT_EVENT_TYPES[alert.kind as TAlertKind];
  if (type) await emitWebhookEvent(tx, alert.userId, type, `${alert.subjectType}:${alert.subjectId}`, alert.payload);
}

function toEndpoint(row: TEndpointRow): TWebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as TWebhookEventType[],
    is_enabled: row.isEnabled,
    disabled_reason: row.disabledReason ?? null,
    failing_since: row.failingSince?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

function toDelivery(row: TDeliveryLogRow): TWebhookDelivery {
  return {
    id: row.id,
    event_id: webhookEventId(row.eventId),
    event_type: row.eventType,
    status: row.status,
    attempts: row.attempts,
    response_code: row.responseCode,
    latency_ms: row.latencyMs,
    response_excerpt: row.responseExcerpt,
    last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    next_attempt_at: row.status === 'pending' ? (row.nextAttemptAt ?? row.createdAt).toISOString() : null,
    created_at: row.createdAt.toISOString(),
  };
}

const newSecret = () => `whsec_${randomBytes(24).toString('hex')}`;

/** What the secret column is sealed for (the additional data of AES-GCM). */
export const WEBHOOK_SECRET_PURPOSE = 'webhook_endpoints.secret';

/**
 * An endpoint's signing secret in clear (stored sealed with
 * DATA_ENCRYPTION_KEY). A secret stored before encryption still signs and is
 * sealed now, on this read. A key that cannot open it throws SecretBoxError:
 * the delivery pass fails (logged, naming DATA_ENCRYPTION_KEY) and the
 * delivery stays queued.
 */
async function endpointSecretOf(
  deps: Pick<TDeps, 'db' | 'config'>,
  endpoint: { id: number; secret: string },
): Promise<string> {
  const box = secretBoxOf(deps.config);
  const { plain, isSealed } = box.open(endpoint.secret, WEBHOOK_SECRET_PURPOSE);
  if (!isSealed)
    await resealEndpointSecret(deps.db, endpoint.id, endpoint.secret, box.seal(plain, WEBHOOK_SECRET_PURPOSE));
  return plain;
}

function checkUrl(deps: TWebhookDeps, url: string): void {
  if (literalHostRefusal(new URL(url).hostname, deps.config.WEBHOOK_ALLOW_PRIVATE))
    throw new AppError('WEBHOOK_ADDRESS_REFUSED');
}

/** GET /user/webhooks. */
export async function listWebhooks(deps: Pick<TDeps, 'db'>, userId: number): Promise<{ records: TWebhookEndpoint[] }> {
  return { records: (await listEndpoints(deps.db, userId)).map(toEndpoint) };
}

/** POST /user/webhooks: at most WEBHOOK_ENDPOINTS_MAX per account; the secret is answered this once. */
export async function createWebhook(
  deps: TWebhookDeps,
  userId: number,
  input: TWebhookCreateBody,
): Promise<TWebhookEndpointWithSecret> {
  checkUrl(deps, input.url);
  return deps.db.transaction(async (tx) => {
    await lockUserForWebhooks(tx, userId);
    if ((await countEndpoints(tx, userId)) >= WEBHOOK_ENDPOINTS_MAX)
      throw new AppError('WEBHOOK_LIMIT', { max: WEBHOOK_ENDPOINTS_MAX });
    const secret = newSecret();
    const row = await insertEndpoint(tx, {
      userId,
      url: input.url,
      description: input.description,
      events: [...input.events],
      secret: secretBoxOf(deps.config).seal(secret, WEBHOOK_SECRET_PURPOSE),
      createdAt: deps.clock.now(),
    });
    return { ...toEndpoint(row), secret };
  });
}

/** PUT /user/webhooks/:id. Turning an endpoint on again clears its failure state. */
export async function updateWebhook(
  deps: TWebhookDeps,
  userId: number,
  input: TWebhookUpdateBody,
): Promise<TWebhookEndpoint> {
  if (input.url !== undefined) checkUrl(deps, input.url);
  const changes: Parameters<typeof updateEndpoint>[3] = {};
  if (input.url !== undefined) changes.url = input.url;
  if (input.description !== undefined) changes.description = input.description;
  if (input.events !== undefined) changes.events = [...input.events];
  if (input.is_enabled !== undefined) {
    changes.isEnabled = input.is_enabled;
    changes.disabledReason = null;
    if (input.is_enabled) changes.failingSince = null;
  }
  const row =
    Object.keys(changes).length === 0
      ? await findEndpoint(deps.db, userId, input.id)
      : await updateEndpoint(deps.db, userId, input.id, changes);
  if (!row) throw new AppError('NOT_FOUND');
  return toEndpoint(row);
}

/** DELETE /user/webhooks/:id. */
export async function removeWebhook(deps: Pick<TDeps, 'db'>, userId: number, id: number): Promise<null> {
  if (!(await deleteEndpoint(deps.db, userId, id))) throw new AppError('NOT_FOUND');
  return null;
}

/** POST /user/webhooks/:id/rotate-secret: the old secret stops signing at once. */
export async function rotateWebhookSecret(
  deps: Pick<TDeps, 'db' | 'config'>,
  userId: number,
  id: number,
): Promise<TWebhookEndpointWithSecret> {
  const secret = newSecret();
  const row = await updateEndpoint(deps.db, userId, id, {
    secret: secretBoxOf(deps.config).seal(secret, WEBHOOK_SECRET_PURPOSE),
  });
  if (!row) throw new AppError('NOT_FOUND');
  return { ...toEndpoint(row), secret };
}

/** GET /user/webhooks/:id/deliveries. */
export async function listWebhookDeliveries(
  deps: Pick<TDeps, 'db'>,
  userId: number,
  query: { id: number; page: number; page_size: number },
): Promise<TPage<TWebhookDelivery>> {
  if (!(await findEndpoint(deps.db, userId, query.id))) throw new AppError('NOT_FOUND');
  const { rows, total } = await listDeliveries(deps.db, query.id, {
    limit: query.page_size,
    offset: (query.page - 1) * query.page_size,
  });
  return { records: rows.map(toDelivery), total, page: query.page, page_size: query.page_size };
}

async function deliveryOf(deps: Pick<TDeps, 'db'>, id: number): Promise<TWebhookDelivery> {
  const row = await findDeliveryLog(deps.db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return toDelivery(row);
}

/** POST /user/webhooks/deliveries/:id/resend: the same event (same id) again, after the subject's earlier deliveries. */
export async function resendWebhookDelivery(deps: TWebhookDeps, userId: number, id: number): Promise<TWebhookDelivery> {
  const found = await findUserDelivery(deps.db, userId, id);
  if (!found) throw new AppError('NOT_FOUND');
  const copy = await insertDelivery(deps.db, {
    eventId: found.delivery.eventId,
    endpointId: found.endpoint.id,
    subject: found.delivery.subject,
  });
  return deliveryOf(deps, copy.id);
}

/**
 * POST /user/webhooks/:id/test: a "ping" event for this endpoint only (even
 * when it is off), attempted now; a failure is retried like any delivery.
 */
export async function testWebhook(
  deps: TWebhookDeps,
  sender: TWebhookSender,
  userId: number,
  id: number,
): Promise<TWebhookDelivery> {
  const now = deps.clock.now();
  const { deliveryId, claimed } = await deps.db.transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, userId, id);
    if (!endpoint) throw new AppError('NOT_FOUND');
    const { deliveries } = await insertEventWithDeliveries(
      tx,
      { userId, type: WEBHOOK_PING_EVENT, subject: `ping:${id}`, payload: { endpoint_id: id, message: 'ping' } },
      id,
    );
    const leaseUntil = new Date(now.getTime() + WEBHOOK_LEASE_MS);
    const giveUpAt = new Date(now.getTime() + WEBHOOK_RETRY_WINDOW_MS);
    return {
      deliveryId: deliveries[0].id,
      claimed: await claimDueDeliveries(tx, now, leaseUntil, giveUpAt, 1, deliveries[0].id),
    };
  });
  // An earlier ping still pending goes first; this one then waits in the queue.
  for (const attempt of claimed) await attemptDelivery(deps, sender, attempt);
  return deliveryOf(deps, deliveryId);
}

/** The body of an event's deliveries (the same on every attempt). */
export function webhookBody(claimed: Pick<TClaimedDelivery, 'event'>): string {
  const { event } = claimed;
  return JSON.stringify({
    id: webhookEventId(event.id),
    type: event.type,
    created_at: event.createdAt.toISOString(),
    data: event.payload,
  });
}

/**
 * Sends one claimed attempt and records it: success ends the delivery; a
 * failure waits for the next retry (backoff) or, past the retry window, is
 * given up. The endpoint's failure state follows; 3 days of failures turn it
 * off with a notification. An attempt cut short by a stopping server records
 * nothing: its lease runs out and a later pass delivers it again.
 */
async function attemptDelivery(
  deps: TWebhookDeps,
  sender: TWebhookSender,
  claimed: TClaimedDelivery,
  signal?: AbortSignal,
): Promise<void> {
  const { delivery, endpoint } = claimed;
  let secret: string;
  try {
    secret = await endpointSecretOf(deps, endpoint);
  } catch (error) {
    deps.metrics?.webhookDelivery('error');
    throw error;
  }
  const result = await sender.send({
    url: endpoint.url,
    secret,
    eventId: webhookEventId(claimed.event.id),
    timestamp: Math.floor(deps.clock.now().getTime() / 1000),
    body: webhookBody(claimed),
    signal,
  });
  if (result.isAborted) return;
  const now = deps.clock.now();
  const outcome = await deps.db.transaction(async (tx) => {
    const isGivenUp =
      !result.ok &&
      delivery.giveUpAt !== null &&
      now.getTime() + webhookBackoffMs(delivery.attempts) > delivery.giveUpAt.getTime();
    const recorded = await recordAttempt(tx, delivery.id, delivery.attempts, {
      status: result.ok ? 'succeeded' : isGivenUp ? 'failed' : 'pending',
      nextAttemptAt: result.ok || isGivenUp ? null : new Date(now.getTime() + webhookBackoffMs(delivery.attempts)),
      responseCode: result.status,
      latencyMs: result.latencyMs,
      responseExcerpt: result.excerpt,
    });
    if (!recorded) return null;
    const outcome = result.ok ? 'succeeded' : isGivenUp ? 'failed' : 'retry';
    const locked = await lockEndpointById(tx, endpoint.id);
    if (!locked) return outcome;
    if (result.ok) {
      if (locked.failingSince) await setEndpointState(tx, locked.id, { failingSince: null });
      return outcome;
    }
    const since = locked.failingSince ?? now;
    if (!locked.failingSince) await setEndpointState(tx, locked.id, { failingSince: since });
    if (locked.isEnabled && now.getTime() - since.getTime() >= WEBHOOK_DISABLE_AFTER_MS) {
      await setEndpointState(tx, locked.id, { isEnabled: false, disabledReason: 'failing' });
      await writeNotification(deps, locked.userId, 'webhook_disabled', tx, { url: locked.url });
    }
    return outcome;
  });
  // Counted once committed; an attempt whose row was claimed again meanwhile (its lease ran out) is not recorded.
  if (outcome) deps.metrics?.webhookDelivery(outcome);
}

/**
 * One pass of the delivery queue: claims due attempts in batches (leases,
 * SKIP LOCKED), sends each batch at once and records them; answers how many
 * attempts were made. A failing endpoint only delays its own subject.
 */
export async function deliverDueWebhooks(
  deps: TWebhookDeps,
  sender: TWebhookSender,
  signal?: AbortSignal,
  max = 200,
): Promise<number> {
  let attempts = 0;
  while (attempts < max && !signal?.aborted) {
    const now = deps.clock.now();
    const claimed = await deps.db.transaction((tx) =>
      claimDueDeliveries(
        tx,
        now,
        new Date(now.getTime() + WEBHOOK_LEASE_MS),
        new Date(now.getTime() + WEBHOOK_RETRY_WINDOW_MS),
        BATCH,
      ),
    );
    if (claimed.length === 0) break;
    // Every attempt of the batch settles before the pass goes on; one that throws (a secret this key cannot open)
    // fails the pass after the others were recorded, and its delivery is taken again once its lease runs out.
    const settled = await Promise.allSettled(claimed.map((c) => attemptDelivery(deps, sender, c, signal)));
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    attempts += claimed.length;
  }
  return attempts;
}

/** The sender of this server's settings. */
export function senderOf(config: TDeps['config']): TWebhookSender {
  return createWebhookSender({ allowPrivate: config.WEBHOOK_ALLOW_PRIVATE, extraCa: config.WEBHOOK_EXTRA_CA });
}
