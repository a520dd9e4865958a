import type { TDeps } from '../../lib/deps';
import { withRetryAfter } from '../../lib/rate-limiter';
import type { THandlersOf } from '../../lib/routing';
import {
  createWebhook,
  listWebhookDeliveries,
  listWebhooks,
  removeWebhook,
  resendWebhookDelivery,
  rotateWebhookSecret,
  senderOf,
  testWebhook,
  updateWebhook,
} from './webhooks.service';

/** The webhook settings: endpoints, secrets, test pings and the delivery log. */
export function createWebhookHandlers(deps: TDeps): THandlersOf<'webhooks'> {
  const sender = senderOf(deps.config);
  return {
    webhookList: ({ user }) => listWebhooks(deps, user.id),
    webhookCreate: ({ input, user }) => createWebhook(deps, user.id, input),
    webhookUpdate: ({ input, user }) => updateWebhook(deps, user.id, input),
    webhookDelete: ({ input, user }) => removeWebhook(deps, user.id, input.id),
    webhookRotateSecret: ({ input, user }) => rotateWebhookSecret(deps, user.id, input.id),
    // A ping dials the endpoint at once: limited per account like the sign-in calls (RATE_LIMIT_AUTH_*).
    webhookTest: ({ input, user, reply }) =>
      withRetryAfter(reply, async () => {
        await deps.authLimiter.hit(`webhook-test:acct:${user.id}`);
        return testWebhook(deps, sender, user.id, input.id);
      }),
    webhookDeliveries: ({ input, user }) => listWebhookDeliveries(deps, user.id, input),
    webhookResend: ({ input, user }) => resendWebhookDelivery(deps, user.id, input.id),
  };
}
