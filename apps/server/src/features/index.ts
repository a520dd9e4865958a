import type { TDeps } from '../lib/deps';
import type { THandlers } from '../lib/routing';
import { createSystemHandlers } from './system/system.routes';
import { createAuthHandlers } from './auth/auth.routes';
import { createOAuthHandlers } from './auth/oauth.routes';
import { createUserHandlers } from './users/users.routes';
import { createNotificationHandlers } from './notifications/notifications.routes';
import { createIpQualityHandlers } from './ip-quality/ip-quality.routes';
import { createPricingHandlers } from './pricing/pricing.routes';
import { createAreaHandlers } from './areas/areas.routes';
import { createProxyHandlers } from './proxies/proxies.routes';
import { createIpListHandlers } from './ip-lists/ip-lists.routes';
import { createProxyTestHandlers } from './proxy-test/proxy-test.routes';
import { createUsageHandlers } from './usage/usage.routes';
import { createSpiderHandlers } from './spider/spider.routes';
import { createCustomerApiHandlers } from './customer-api/customer-api.routes';

/** Every feature's handlers; routes without one answer 501. */
export function createFeatureHandlers(deps: TDeps): THandlers {
  return {
    ...createSystemHandlers(deps),
    ...createAuthHandlers(deps),
    ...createOAuthHandlers(deps),
    ...createUserHandlers(deps),
    ...createNotificationHandlers(deps),
    ...createIpQualityHandlers(deps),
    ...createPricingHandlers(deps),
    ...createAreaHandlers(deps),
    ...createProxyHandlers(deps),
    ...createIpListHandlers(deps),
    ...createProxyTestHandlers(deps),
    ...createUsageHandlers(deps),
    ...createSpiderHandlers(deps),
    ...createCustomerApiHandlers(deps),
  };
}
