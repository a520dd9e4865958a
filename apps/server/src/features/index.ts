import type { TDeps } from '../lib/deps';
import type { THandlers } from '../lib/routing';
import { createSystemHandlers } from './system/system.routes';
import { createAuthHandlers } from './auth/auth.routes';
import { createOAuthHandlers } from './auth/oauth.routes';
import { createUserHandlers } from './users/users.routes';
import { createNotificationAdminHandlers, createNotificationHandlers } from './notifications/notifications.routes';
import { createAlertHandlers } from './alerts/alerts.routes';
import { createIpQualityHandlers } from './ip-quality/ip-quality.routes';
import { createPricingAdminHandlers, createPricingHandlers } from './pricing/pricing.routes';
import { createChargeOptionAdminHandlers } from './payments/charge-options.routes';
import { createAreaHandlers } from './areas/areas.routes';
import { createProxyHandlers } from './proxies/proxies.routes';
import { createIpListHandlers } from './ip-lists/ip-lists.routes';
import { createTargetRuleHandlers } from './target-rules/target-rules.routes';
import { createProxyTestHandlers } from './proxy-test/proxy-test.routes';
import { createUsageHandlers } from './usage/usage.routes';
import { createUsageDomainsHandlers } from './usage/usage-domains.routes';
import { createUsageLogHandlers } from './usage-log/usage-log.routes';
import { createUsageSessionsHandlers } from './usage/usage-sessions.routes';
import { createEndpointGeneratorHandlers } from './endpoint-generator/endpoint-generator.routes';
import { createCustomerApiHandlers } from './customer-api/customer-api.routes';
import { createUserAdminHandlers } from './users/users-admin.routes';
import { createAuditHandlers } from './audit/audit.routes';
import { createPaymentHandlers } from './payments/payments.routes';
import { createPaymentAdminHandlers } from './payments/payments-admin.routes';
import { createPluginHandlers } from './plugin/plugin.routes';
import { createInviteHandlers } from './invite/invite.routes';
import { createSiteAdminHandlers, createSiteHandlers } from './site/site.routes';
import { createDownloadHandlers } from './downloads/downloads.routes';
import { createDownloadAdminHandlers } from './downloads/downloads-admin.routes';
import { createSupplyHandlers } from './supply/supply.routes';
import { createSupplyAdminHandlers } from './supply/supply-admin.routes';
import { createWorkOrderAdminHandlers, createWorkOrderHandlers } from './work-orders/work-orders.routes';
import { createWorkOrder, listWorkOrders } from './work-orders/work-orders.service';
import type { TReferToOperator } from './payments/payments-check.service';
import { createInventoryAdminHandlers } from './inventory/inventory-admin.routes';
import { createPoolAdminHandlers } from './pools/pools.routes';
import { createEconomicsAdminHandlers } from './economics/economics.routes';
import { createOverviewAdminHandlers } from './overview/overview.routes';
import { createWebhookHandlers } from './webhooks/webhooks.routes';

/**
 * "I have paid" found a payment it cannot credit: the customer's work order
 * about the order (category billing) carries the evidence to the operator,
 * one per order while it is open. Payments sit below work orders, so the
 * call is handed to them here, in their transaction (which queues the order's
 * referrals).
 */
function referPaymentsToOperator(deps: TDeps): TReferToOperator {
  return async (tx, user, referral) => {
    const inTx = { db: tx as unknown as TDeps['db'], clock: deps.clock };
    for (const status of ['open', 'answered'] as const) {
      const open = await listWorkOrders(inTx, user.id, { page: 1, page_size: 100, status });
      const same = open.records.find((w) => w.category === 'billing' && w.subject.includes(referral.orderId));
      if (same) return same.id;
    }
    const created = await createWorkOrder(inTx, user, {
      category: 'billing',
      subject: referral.subject,
      content: referral.content,
    });
    return created.id;
  };
}

/**
 * Every feature's handlers, by route group (packages/contract/src/routes.ts):
 * a feature answers exactly the routes of its group. Groups without handlers
 * answer 501.
 */
export function createFeatureHandlers(deps: TDeps): THandlers {
  return {
    system: createSystemHandlers(deps),
    auth: createAuthHandlers(deps),
    oauth: createOAuthHandlers(deps),
    users: createUserHandlers(deps),
    notifications: createNotificationHandlers(deps),
    alerts: createAlertHandlers(deps),
    'notifications-admin': createNotificationAdminHandlers(deps),
    'inventory-admin': createInventoryAdminHandlers(deps),
    'pools-admin': createPoolAdminHandlers(deps),
    'economics-admin': createEconomicsAdminHandlers(deps),
    'ip-quality': createIpQualityHandlers(deps),
    pricing: createPricingHandlers(deps),
    areas: createAreaHandlers(deps),
    proxies: createProxyHandlers(deps),
    'ip-lists': createIpListHandlers(deps),
    'target-rules': createTargetRuleHandlers(deps),
    'proxy-test': createProxyTestHandlers(deps),
    usage: createUsageHandlers(deps),
    'usage-domains': createUsageDomainsHandlers(deps),
    'usage-log': createUsageLogHandlers(deps),
    'usage-sessions': createUsageSessionsHandlers(deps),
    'endpoint-generator': createEndpointGeneratorHandlers(deps),
    'customer-api': createCustomerApiHandlers(deps),
    'users-admin': createUserAdminHandlers(deps),
    audit: createAuditHandlers(deps),
    payments: createPaymentHandlers(deps, { referToOperator: referPaymentsToOperator(deps) }),
    'payments-admin': createPaymentAdminHandlers(deps),
    plugin: createPluginHandlers(deps),
    invite: createInviteHandlers(deps),
    site: createSiteHandlers(deps),
    downloads: createDownloadHandlers(deps),
    'site-admin': createSiteAdminHandlers(deps),
    'downloads-admin': createDownloadAdminHandlers(deps),
    supply: createSupplyHandlers(deps),
    webhooks: createWebhookHandlers(deps),
    'supply-admin': createSupplyAdminHandlers(deps),
    'work-orders': createWorkOrderHandlers(deps),
    'work-orders-admin': createWorkOrderAdminHandlers(deps),
    'pricing-admin': createPricingAdminHandlers(deps),
    'charge-options-admin': createChargeOptionAdminHandlers(deps),
    'overview-admin': createOverviewAdminHandlers(deps),
  };
}
