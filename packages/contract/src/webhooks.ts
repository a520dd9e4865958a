import { z } from 'zod';
import { ZPageQuery, zPage } from './envelope';
import { defineRoute, type TRouteDef } from './route-def';
import { zId, zIdParam } from './validators';

/**
 * Webhooks ("Beyond the anchors", part 1): a user registers HTTPS endpoints
 * and chooses events; each event is delivered at least once, signed, with
 * retries for a day, in order per subject (one proxy's events arrive in the
 * order they happened). Receivers deduplicate by the event id (`Webhook-Id`).
 */
export const WEBHOOK_EVENT_TYPES = [
  'proxy.expiring',
  'proxy.expired',
  'proxy.renewed',
  'proxy.renew_failed',
  'usage.threshold',
  'balance.low',
  'recharge.succeeded',
  'supply.changed',
  'work_order.replied',
] as const;
/** A type of event an endpoint may subscribe to. */
export type TWebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The "send test" event: delivered only to the endpoint it was sent to. */
export const WEBHOOK_PING_EVENT = 'ping';

/** Endpoints one account may register. */
export const WEBHOOK_ENDPOINTS_MAX = 5;
/** Longest endpoint URL. */
export const WEBHOOK_URL_MAX = 500;
/** How long a delivery is retried before it is given up. */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** An endpoint whose deliveries fail for this long is disabled (the user is notified). */
export const WEBHOOK_DISABLE_AFTER_MS = 3 * 24 * 60 * 60 * 1000;
/** Time one delivery may take. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Characters of the receiver's answer kept in the delivery log. */
export const WEBHOOK_EXCERPT_MAX = 500;

/** Headers of a delivery. */
export const WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

/** Delay before retry number `attempt` (1 after the first failure): 30 s doubling, at most 4 h. */
export function webhookBackoffMs(attempt: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempt - 1), 4 * 60 * 60 * 1000);
}

/** The signed text of a delivery: `${timestamp}.${body}` (timestamp in Unix seconds). */
export function webhookSignedText(timestamp: number | string, body: string): string {
  return `${timestamp}.${body}`;
}

/** Delivery states: pending (waiting or being retried), succeeded, failed (given up). */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
/** A delivery state. */
export type TWebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** The URL of an endpoint: https:// with a host, no user info or fragment. */
export const zWebhookUrl = z
  .string({ error: 'webhookUrlInvalid' })
  .trim()
  .min(1, { error: 'webhookUrlInvalid' })
  .max(WEBHOOK_URL_MAX, { error: 'webhookUrlInvalid' })
  .refine(
    (v) => {
      try {
        const url = new URL(v);
        return (
          url.protocol === 'https:' &&
          url.hostname !== '' &&
          url.username === '' &&
          url.password === '' &&
          url.hash === ''
        );
      } catch {
        return false;
      }
    },
    { error: 'webhookUrlInvalid' },
  )
  .meta({ examples: ['https://example.com/hooks/proxyhub'] });

const zEvents = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: 'webhookEventsInvalid' }), { error: 'webhookEventsInvalid' })
  .min(1, { error: 'webhookEventsInvalid' })
  .max(WEBHOOK_EVENT_TYPES.length, { error: 'webhookEventsInvalid' })
  .refine((list) => new Set(list).size === list.length, { error: 'webhookEventsInvalid' });

const zDescription = z.string({ error: 'invalidType' }).trim().max(100, { error: 'webhookDescriptionMax' });

/** An endpoint as the API shows it (the secret only when created or rotated). */
export const ZWebhookEndpoint = z.object({
  id: z.number().int(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  is_enabled: z.boolean(),
  /** Why it is off: null (on, or turned off by the user) or "failing" (3 days of failed deliveries). */
  disabled_reason: z.enum(['failing']).nullable(),
  /** When deliveries started failing without a success since (ISO), or null. */
  failing_since: z.string().nullable(),
  created_at: z.string(),
});
/** Parsed endpoint. */
export type TWebhookEndpoint = z.infer<typeof ZWebhookEndpoint>;

/** An endpoint with its signing secret: the one time it is shown. */
export const ZWebhookEndpointWithSecret = ZWebhookEndpoint.extend({
  secret: z.string().meta({ examples: ['whsec_3f0c…'] }),
});
/** Parsed endpoint with secret. */
export type TWebhookEndpointWithSecret = z.infer<typeof ZWebhookEndpointWithSecret>;

/** Body of a new endpoint. */
export const ZWebhookCreateBody = z.object({
  url: zWebhookUrl,
  description: zDescription.default(''),
  events: zEvents,
});
/** Parsed new endpoint. */
export type TWebhookCreateBody = z.infer<typeof ZWebhookCreateBody>;

/** Body of a change: any of URL, description, events, on/off. */
export const ZWebhookUpdateBody = z.object({
  id: zId,
  url: zWebhookUrl.optional(),
  description: zDescription.optional(),
  events: zEvents.optional(),
  is_enabled: z.boolean({ error: 'booleanRequired' }).optional(),
});
/** Parsed change. */
export type TWebhookUpdateBody = z.infer<typeof ZWebhookUpdateBody>;

/** One delivery of an event to an endpoint, with its last attempt. */
export const ZWebhookDelivery = z.object({
  id: z.number().int(),
  /** The event id (the `Webhook-Id` header; the same on every attempt and resend). */
  event_id: z.string(),
  event_type: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** HTTP status of the last answer, or null (no answer: refused address, timeout, connection error). */
  response_code: z.number().int().nullable(),
  latency_ms: z.number().int().nullable(),
  /** The start of the last answer's body, or why there was none. */
  response_excerpt: z.string(),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
});
/** Parsed delivery. */
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

/** Query of an endpoint's delivery log. */
export const ZWebhookDeliveriesQuery = ZPageQuery.extend({ id: zId });

/** Customer calls of the webhook settings (user centre, /developer/webhooks in the console). */
export const WEBHOOK_ROUTES = {
  webhookList: defineRoute({
    method: 'GET',
    path: '/user/webhooks',
    auth: 'user',
    summary: 'Webhook endpoints (at most 5)',
    tag: 'webhooks',
    output: z.object({ records: z.array(ZWebhookEndpoint) }),
  }),
  webhookCreate: defineRoute({
    method: 'POST',
    path: '/user/webhooks',
    auth: 'user',
    summary: 'Register an HTTPS endpoint; the answer holds its signing secret, shown this once',
    tag: 'webhooks',
    input: ZWebhookCreateBody,
    output: ZWebhookEndpointWithSecret,
  }),
  webhookUpdate: defineRoute({
    method: 'PUT',
    path: '/user/webhooks/:id',
    auth: 'user',
    summary: 'Change an endpoint: URL, description, events, on or off',
    tag: 'webhooks',
    input: ZWebhookUpdateBody,
    output: ZWebhookEndpoint,
  }),
  webhookDelete: defineRoute({
    method: 'DELETE',
    path: '/user/webhooks/:id',
    auth: 'user',
    summary: 'Remove an endpoint and its delivery log',
    tag: 'webhooks',
    input: zIdParam,
  }),
  webhookRotateSecret: defineRoute({
    method: 'POST',
    path: '/user/webhooks/:id/rotate-secret',
    auth: 'user',
    summary: 'Replace the signing secret; the answer holds the new one, shown this once',
    tag: 'webhooks',
    input: zIdParam,
    output: ZWebhookEndpointWithSecret,
  }),
  webhookTest: defineRoute({
    method: 'POST',
    path: '/user/webhooks/:id/test',
    auth: 'user',
    summary: 'Send a signed "ping" event to the endpoint now; answers its delivery',
    tag: 'webhooks',
    input: zIdParam,
    output: ZWebhookDelivery,
  }),
  webhookDeliveries: defineRoute({
    method: 'GET',
    path: '/user/webhooks/:id/deliveries',
    auth: 'user',
    summary: "An endpoint's delivery log, newest first",
    tag: 'webhooks',
    input: ZWebhookDeliveriesQuery,
    output: zPage(ZWebhookDelivery),
  }),
  webhookResend: defineRoute({
    method: 'POST',
    path: '/user/webhooks/deliveries/:id/resend',
    auth: 'user',
    summary: 'Deliver the event of a delivery again (same event id)',
    tag: 'webhooks',
    input: zIdParam,
    output: ZWebhookDelivery,
  }),
} as const satisfies Record<string, TRouteDef>;
