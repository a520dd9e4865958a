import type { z } from 'zod';
import { ALERT_ROUTES } from './alerts';
import { AREA_ROUTES } from './areas';
import { AUDIT_ROUTES } from './audit';
import { AUTH_ROUTES, OAUTH_ROUTES } from './auth';
import { CUSTOMER_API_ROUTES } from './customer-api';
import { ECONOMICS_ADMIN_ROUTES } from './economics';
import { SPIDER_ROUTES } from './endpoint-generator';
import { INVITE_ROUTES } from './invite';
import { IP_LIST_ROUTES } from './ip-lists';
import { IP_QUALITY_ROUTES } from './ip-quality';
import { NOTIFICATION_ADMIN_ROUTES, NOTIFICATION_ROUTES } from './notifications';
import { INVENTORY_ADMIN_ROUTES } from './inventory';
import { PAY_ROUTES } from './payments';
import { PAY_ADMIN_ROUTES } from './payments-admin';
import { CHARGE_OPTION_ADMIN_ROUTES } from './payments-charge-options';
import { PRICING_ADMIN_ROUTES, PRICING_ROUTES } from './pricing';
import { PLUGIN_ROUTES } from './plugin';
import { POOL_ADMIN_ROUTES } from './pools';
import { PROXY_ROUTES } from './proxies';
import { PROXY_TEST_ROUTES } from './proxy-test';
import type { TRouteDef } from './route-def';
import { SYSTEM_ROUTES } from './system';
import { TARGET_RULE_ROUTES } from './target-rules';
import { OVERVIEW_ADMIN_ROUTES } from './overview';
import { USAGE_ROUTES } from './usage';
import { USAGE_DOMAIN_ROUTES } from './usage-domains';
import { USAGE_LOG_ROUTES } from './usage-log';
import { USAGE_SESSIONS_ROUTES } from './usage-sessions';
import { USER_ADMIN_ROUTES, USER_ROUTES } from './users';
import { SITE_ADMIN_ROUTES, SITE_ROUTES } from './site';
import { DOWNLOAD_ADMIN_ROUTES, DOWNLOAD_ROUTES } from './downloads';
import { SUPPLY_ADMIN_ROUTES, SUPPLY_ROUTES } from './supply';
import { WORK_ORDER_ADMIN_ROUTES, WORK_ORDER_ROUTES } from './work-orders';
import { WEBHOOK_ROUTES } from './webhooks';

/**
 * The route table by domain: each group is declared in the contract file of
 * its domain and handled by the server feature of the same name (spec section
 * 7 plus the console's own calls). Paths are relative to `/api`.
 */
export const ROUTE_GROUPS = {
  system: SYSTEM_ROUTES,
  auth: AUTH_ROUTES,
  oauth: OAUTH_ROUTES,
  users: USER_ROUTES,
  notifications: NOTIFICATION_ROUTES,
  alerts: ALERT_ROUTES,
  'notifications-admin': NOTIFICATION_ADMIN_ROUTES,
  'inventory-admin': INVENTORY_ADMIN_ROUTES,
  'pools-admin': POOL_ADMIN_ROUTES,
  'economics-admin': ECONOMICS_ADMIN_ROUTES,
  'ip-lists': IP_LIST_ROUTES,
  'ip-quality': IP_QUALITY_ROUTES,
  proxies: PROXY_ROUTES,
  areas: AREA_ROUTES,
  pricing: PRICING_ROUTES,
  usage: USAGE_ROUTES,
  'usage-domains': USAGE_DOMAIN_ROUTES,
  'proxy-test': PROXY_TEST_ROUTES,
  'usage-log': USAGE_LOG_ROUTES,
  'usage-sessions': USAGE_SESSIONS_ROUTES,
  'endpoint-generator': SPIDER_ROUTES,
  'customer-api': CUSTOMER_API_ROUTES,
  invite: INVITE_ROUTES,
  payments: PAY_ROUTES,
  'work-orders': WORK_ORDER_ROUTES,
  plugin: PLUGIN_ROUTES,
  supply: SUPPLY_ROUTES,
  webhooks: WEBHOOK_ROUTES,
  // The operator area: calls under /admin/<domain>/..., auth "admin", audited automatically.
  'users-admin': USER_ADMIN_ROUTES,
  audit: AUDIT_ROUTES,
  'payments-admin': PAY_ADMIN_ROUTES,
  // The console's own content (terms, notice, settings) and the software download.
  site: SITE_ROUTES,
  downloads: DOWNLOAD_ROUTES,
  'site-admin': SITE_ADMIN_ROUTES,
  'downloads-admin': DOWNLOAD_ADMIN_ROUTES,
  'supply-admin': SUPPLY_ADMIN_ROUTES,
  'work-orders-admin': WORK_ORDER_ADMIN_ROUTES,
  'pricing-admin': PRICING_ADMIN_ROUTES,
  'charge-options-admin': CHARGE_OPTION_ADMIN_ROUTES,
  'overview-admin': OVERVIEW_ADMIN_ROUTES,
  // Target rules: the account's and proxies' deny / allow lists of destinations.
  'target-rules': TARGET_RULE_ROUTES,
} as const;

type TGroups = typeof ROUTE_GROUPS;
type TUnion<G> = G[keyof G];
// Every group merged into one object type.
type TMerged<G> =
  TUnion<{ [K in keyof G]: (x: G[K]) => void }> extends (x: infer I) => void ? { [N in keyof I]: I[N] } : never;

/**
 * Merges the groups into one table; a route name or a method and path
 * declared twice is an error at load time, never a silent override, and so is
 * an admin route outside /admin/ or a route under /admin/ not marked admin.
 */
export function mergeRouteGroups<G extends Record<string, Record<string, TRouteDef>>>(groups: G): TMerged<G> {
  const table: Record<string, TRouteDef> = {};
  const owners = new Map<string, string>();
  for (const [group, routes] of Object.entries(groups)) {
    for (const [name, def] of Object.entries(routes)) {
      if (name in table)
        throw new Error(`Route "${name}" is declared twice (group "${group}" and "${owners.get(name)}")`);
      const isAdminPath = def.path.startsWith('/admin/') || def.path.startsWith('/invite/admin/');
      if (isAdminPath !== (def.auth === 'admin')) {
        throw new Error(
          `Route "${name}": operator calls live under /admin/ (or the spec's /invite/admin/) with auth "admin", and only there`,
        );
      }
      const call = `${def.method} ${def.path}`;
      const clash = Object.entries(table).find(([, d]) => `${d.method} ${d.path}` === call);
      if (clash) throw new Error(`${call} is declared twice ("${name}" and "${clash[0]}")`);
      table[name] = def;
      owners.set(name, group);
    }
  }
  return table as TMerged<G>;
}

/** Every call of the API, by route name. */
export const ROUTES = mergeRouteGroups(ROUTE_GROUPS) as TMerged<TGroups>;

/** Name of a route in the table. */
export type TRouteName = Extract<keyof TMerged<TGroups>, string>;
/** Name of a route group (the server feature that handles it). */
export type TRouteGroupName = keyof TGroups;
/** Route names of one group. */
export type TRouteNameOf<G extends TRouteGroupName> = Extract<keyof TGroups[G], TRouteName>;
/** Parsed input of a route. */
export type TRouteInput<N extends TRouteName> = z.output<(typeof ROUTES)[N]['input']>;
/** Raw input a client sends for a route. */
export type TRouteRequest<N extends TRouteName> = z.input<(typeof ROUTES)[N]['input']>;
/** Data of a route's successful answer. */
export type TRouteOutput<N extends TRouteName> = z.output<(typeof ROUTES)[N]['output']>;

/** The API mount point (declared in api-constants.ts). */
export { API_PREFIX } from './api-constants';
