import { z } from 'zod';
import { ZPageQuery, zPage, ZBatchResult } from './envelope';
import { defineRoute, zPending, type TRouteDef } from './route-def';
import {
  ZAreaQuery,
  ZArea,
  ZAutoRenewBody,
  ZBuyIpBody,
  ZBuyResult,
  ZBuyTrafficBody,
  ZExportQuery,
  ZPayway,
  ZPriceCatalogue,
  ZProxyListQuery,
  ZProxyToken,
  ZProxyTokenPage,
  ZRenewBody,
  ZRenewResult,
  ZTokenBatchBody,
  ZTokenRemarkBody,
  ZTokenStatusBody,
  zCountryId,
} from './proxies';
import { IP_LIST_REMARK_MAX, addressScope } from './ip';
import { ZProxyEcho, ZSessionTraffic, ZSessionTrafficQuery, ZStatisticsAmount, ZStatisticsAmountQuery, ZTokenTestResult } from './usage';
import {
  ZApiKeyReset,
  ZCreateSpiderBody,
  ZSpiderRecordPage,
  ZSpiderRecordWithLines,
  ZSpiderRecordsQuery,
  ZV1CitiesQuery,
  ZV1CountriesQuery,
  ZV1Endpoints,
  ZV1EndpointsQuery,
  ZV1ProxiesQuery,
  ZV1ProxyPage,
  ZV1StatesQuery,
} from './endpoints';
import {
  zCode,
  zEmail,
  zFormBool,
  zInviteCode,
  zPassword,
  zUsername,
  withPasswordConfirm,
} from './validators';

/** Purposes of an e-mailed verification code. */
export const CODE_PURPOSES = ['register', 'reset', 'change_email'] as const;
/** A verification code purpose. */
export type TCodePurpose = (typeof CODE_PURPOSES)[number];

/** Sign-in providers. */
export const OAUTH_PROVIDERS = ['github', 'google'] as const;
/** A sign-in provider. */
export type TOAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/** Answer of every sign-in: the access token. */
export const ZSession = z.object({
  token: z.string(),
  /** Seconds until the token expires. */
  expires_in: z.number().int(),
  /** True when this sign-in created the account. */
  is_new_user: z.boolean(),
});
/** Parsed sign-in answer. */
export type TSession = z.infer<typeof ZSession>;

/** GET /user/info (spec section 3). Money in yuan. */
export const ZUserInfo = z.object({
  user_id: z.number().int(),
  name: z.string(),
  balance: z.number(),
  frozen_balance: z.number(),
  status: z.enum(['active', 'disabled']),
  total_balance: z.number(),
  email: z.string(),
  /** Personal API key (the API docs' "current token"), never the session JWT. */
  token: z.string(),
  avatar: z.string(),
  invite_code: z.string(),
  trial_credit: z.number(),
  is_admin: z.boolean(),
  created_at: z.string(),
});
/** Parsed user info. */
export type TUserInfo = z.infer<typeof ZUserInfo>;

/** A notification (spec section 3). */
export const ZNotification = z.object({
  notification_id: z.number().int(),
  kind: z.string(),
  title: z.string(),
  content: z.string(),
  is_read: z.boolean(),
  created_at: z.string(),
});
/** Parsed notification. */
export type TNotification = z.infer<typeof ZNotification>;

const zId = z.coerce.number().int().positive();
const zIdParam = z.object({ id: zId });

/** Register form (spec section 5). */
export const ZRegisterForm = withPasswordConfirm(
  z.object({
    username: zUsername,
    email: zEmail,
    password: zPassword,
    confirm_password: z.string({ error: 'required' }),
    code: zCode,
    invite_code: z.union([zInviteCode, z.literal('')]).optional(),
  }),
);

/** Reset-password form (spec section 5). */
export const ZResetPasswordForm = withPasswordConfirm(
  z.object({
    email: zEmail,
    code: zCode,
    password: zPassword,
    confirm_password: z.string({ error: 'required' }),
  }),
);

/** Login form: e-mail or username, password, remember me. */
export const ZLoginForm = z.object({
  email: z.string({ error: 'loginRequired' }).trim().min(1, { error: 'loginRequired' }).max(254, { error: 'tooLong' }),
  password: z.string({ error: 'loginRequired' }).min(1, { error: 'loginRequired' }).max(128, { error: 'passwordMax' }),
  remember: zFormBool,
});

/** Change-password form of the user center. */
export const ZChangePasswordForm = withPasswordConfirm(
  z.object({
    current_password: z.string({ error: 'required' }).min(1, { error: 'required' }),
    password: zPassword,
    confirm_password: z.string({ error: 'required' }),
  }),
);

const zOAuthVerify = z
  .object({
    code: z.string().trim().max(2048).optional(),
    state: z.string().trim().max(256).optional(),
    access_token: z.string().trim().max(4096).optional(),
    redirect_uri: z.string().trim().max(2048).optional(),
    /** Needed only when the sign-in creates an account and REGISTRATION_INVITE_REQUIRED is on. */
    invite_code: z.union([zInviteCode, z.literal('')]).optional(),
  })
  .refine((v) => (v.code && v.state) || v.access_token, { error: 'required', path: ['code'] });

/** An entry of an IP whitelist or blacklist as the API shows it. */
export const ZIpListEntry = z.object({
  id: z.number().int(),
  /** Canonical text: "1.2.3.4", "10.0.0.0/24", "10.0.0.1-10.0.0.9" (IPv6 in RFC 5952 form). */
  ip: z.string(),
  kind: z.enum(['single', 'cidr', 'range']),
  remark: z.string(),
  created_at: z.string(),
});
/** Parsed IP list entry. */
export type TIpListEntry = z.infer<typeof ZIpListEntry>;

/**
 * Add form of both IP lists: `ip` holds one or more entries separated by ";".
 * The entries themselves are checked by the contract's IP parser in the
 * service (IP_FORMAT_INVALID names the bad one), not here.
 */
export const ZIpListAddForm = z.object({
  ip: z.string({ error: 'ipRequired' }).trim().min(1, { error: 'ipRequired' }).max(60_000, { error: 'tooLong' }),
  remark: z.string().trim().max(IP_LIST_REMARK_MAX, { error: 'ipRemarkMax' }).default(''),
});
/** Parsed add form. */
export type TIpListAddForm = z.infer<typeof ZIpListAddForm>;

const zIpListPage = zPage(ZIpListEntry);
const zIpListAdded = z.object({ records: z.array(ZIpListEntry) });

/** Network kinds of the IP quality check ("unknown" where the data does not say). */
export const IP_NETWORK_KINDS = ['hosting', 'isp', 'mobile', 'education', 'unknown'] as const;
/** A network kind. */
export type TIpNetworkKind = (typeof IP_NETWORK_KINDS)[number];
/** Address scopes of the contract's addressScope(). */
export const IP_ADDRESS_SCOPES = ['public', 'loopback', 'private', 'link-local', 'unspecified', 'multicast', 'reserved'] as const;

/** An IP address to check: required, and a single IPv4 or IPv6 address. */
export const zIpAddress = z
  .string({ error: 'ipAddressRequired' })
  .trim()
  .min(1, { error: 'ipAddressRequired', abort: true })
  .max(64, { error: 'ipAddressInvalid', abort: true })
  .refine((v) => addressScope(v) !== null, { error: 'ipAddressInvalid' });

const zBothLangs = z.object({ zh: z.string(), en: z.string() });

/** One reason behind a risk score: points added (0 for notes) and its text in both languages. */
export const ZIpRiskReason = z.object({
  code: z.string(),
  points: z.number().int(),
  text: zBothLangs,
});

/** One data set behind an IP quality answer. */
export const ZIpDataSource = z.object({
  kind: z.enum(['geolocation', 'asn']),
  name: z.string(),
  package: z.string(),
  version: z.string(),
  /** Build date of the data (YYYY-MM-DD). */
  date: z.string(),
  license: z.string(),
});

/**
 * GET /v1/ip-quality/{ip}. Private, loopback and other non-public addresses
 * are answered with their scope, no location and a null score (they have no
 * public owner); malformed addresses are a BAD_REQUEST.
 */
export const ZIpQuality = z.object({
  /** Canonical form (IPv4-mapped IPv6 becomes IPv4). */
  ip: z.string(),
  family: z.union([z.literal(4), z.literal(6)]),
  scope: z.enum(IP_ADDRESS_SCOPES),
  is_public: z.boolean(),
  location: z
    .object({
      country_code: z.string(),
      country_name: zBothLangs,
      /** Flag emoji of the country. */
      flag: z.string(),
      region: z.string(),
      city: z.string(),
      latitude: z.number().nullable(),
      longitude: z.number().nullable(),
      timezone: z.string(),
    })
    .nullable(),
  asn: z.object({ number: z.number().int(), organization: z.string() }).nullable(),
  /** Null for non-public addresses. */
  network_kind: z.enum(IP_NETWORK_KINDS).nullable(),
  /** Rule that decided the kind: "asn:<n>", "name:<kind>" or "none". */
  network_kind_rule: z.string().nullable(),
  is_our_exit: z.boolean(),
  is_blacklisted: z.boolean(),
  /** The caller's blacklist entries that contain the address. */
  blacklist_entries: z.array(z.string()),
  /** 0 (clean) to 100; null for non-public addresses. */
  risk_score: z.number().int().min(0).max(100).nullable(),
  risk_level: z.enum(['low', 'medium', 'high']).nullable(),
  reasons: z.array(ZIpRiskReason),
  /** Why there is no score (non-public addresses), else null. */
  note: zBothLangs.nullable(),
  data: z.object({
    sources: z.array(ZIpDataSource),
    /** Date of the network-kind rule set. */
    rules_date: z.string(),
    checked_at: z.string(),
  }),
});
/** Parsed IP quality answer. */
export type TIpQuality = z.infer<typeof ZIpQuality>;

/**
 * Every call of spec section 7, plus the console's own calls (health, OpenAPI,
 * sign-in providers, user center). Paths are relative to `/api`.
 */
export const ROUTES = {
  // --- service -----------------------------------------------------------
  health: defineRoute({ method: 'GET', path: '/health', auth: 'none', summary: 'Liveness and database check', tag: 'service', output: z.object({ status: z.literal('ok'), database: z.string() }) }),
  openapi: defineRoute({ method: 'GET', path: '/openapi.json', auth: 'none', summary: 'This API as an OpenAPI 3.1 document', tag: 'service', isBlob: true }),

  // --- auth and user -----------------------------------------------------
  userLogin: defineRoute({ method: 'POST', path: '/user/login', auth: 'none', body: 'form', summary: 'Sign in with e-mail (or username) and password', tag: 'auth', input: ZLoginForm, output: ZSession }),
  userGoogleVerify: defineRoute({ method: 'POST', path: '/user/google/verify', auth: 'none', body: 'form', summary: 'Finish Google sign-in with an authorization code (and state) or an access token', tag: 'auth', input: zOAuthVerify, output: ZSession }),
  userGithubVerify: defineRoute({ method: 'POST', path: '/user/github/verify', auth: 'none', body: 'form', summary: 'Finish GitHub sign-in with an authorization code and state', tag: 'auth', input: zOAuthVerify, output: ZSession }),
  userOAuthProviders: defineRoute({ method: 'GET', path: '/user/oauth/providers', auth: 'none', summary: 'Sign-in options of this installation', tag: 'auth', output: z.object({ github: z.boolean(), google: z.boolean(), invite_required: z.boolean() }) }),
  userOAuthAuthorize: defineRoute({ method: 'GET', path: '/user/oauth/:provider/authorize', auth: 'none', summary: 'Start GitHub or Google sign-in: authorization URL with state and PKCE', tag: 'auth', input: z.object({ provider: z.enum(OAUTH_PROVIDERS), redirect_uri: z.string().trim().url().max(2048) }), output: z.object({ url: z.string(), state: z.string() }) }),
  userRegister: defineRoute({ method: 'POST', path: '/user/register', auth: 'none', body: 'form', summary: 'Register with an e-mailed code', tag: 'auth', input: ZRegisterForm, output: ZSession }),
  userCode: defineRoute({ method: 'POST', path: '/user/code', auth: 'none', body: 'form', summary: 'E-mail a 6-digit verification code', tag: 'auth', input: z.object({ email: zEmail, type: z.enum(CODE_PURPOSES, { error: 'invalidValue' }) }), output: z.object({ resend_after: z.number().int() }) }),
  userResetPassword: defineRoute({ method: 'POST', path: '/user/reset_password', auth: 'none', body: 'form', summary: 'Set a new password with an e-mailed code', tag: 'auth', input: ZResetPasswordForm }),
  userRefreshToken: defineRoute({ method: 'GET', path: '/user/refresh_token', auth: 'user', summary: 'A fresh access token for the current session', tag: 'auth', output: z.object({ token: z.string(), expires_in: z.number().int() }) }),
  userLogout: defineRoute({ method: 'POST', path: '/user/logout', auth: 'user', summary: 'Sign out everywhere (revokes every access token)', tag: 'auth' }),
  userInfo: defineRoute({ method: 'GET', path: '/user/info', auth: 'user', summary: 'The signed-in user', tag: 'user', output: ZUserInfo }),
  userUpdateProfile: defineRoute({ method: 'PUT', path: '/user/profile', auth: 'user', summary: 'Change the username', tag: 'user', input: z.object({ username: zUsername }), output: ZUserInfo }),
  userChangeEmail: defineRoute({ method: 'POST', path: '/user/change_email', auth: 'user', summary: 'Change the e-mail with a code sent to the new address', tag: 'user', input: z.object({ email: zEmail, code: zCode }), output: ZUserInfo }),
  userChangePassword: defineRoute({ method: 'POST', path: '/user/change_password', auth: 'user', summary: 'Change the password; other sessions are signed out', tag: 'user', input: ZChangePasswordForm, output: ZSession }),
  userNotificationList: defineRoute({ method: 'GET', path: '/user/notification/list', auth: 'user', summary: 'Notifications, newest first', tag: 'user', input: ZPageQuery.extend({ unread: zFormBool }), output: zPage(ZNotification).extend({ unread: z.number().int() }) }),
  userNotificationMarkRead: defineRoute({ method: 'POST', path: '/user/notification/mark_as_read', auth: 'user', body: 'form', summary: 'Mark a notification (or all with notification_id=all) as read', tag: 'user', input: z.object({ notification_id: z.union([zId, z.literal('all')]) }) }),
  userStatisticsAmount: defineRoute({ method: 'GET', path: '/user/statistics/amount', auth: 'user', summary: 'Spend and recharge per day in yuan over the last 7, 30 or 90 days (days, tz_offset_minutes; zero-filled)', tag: 'user', input: ZStatisticsAmountQuery, output: ZStatisticsAmount }),
  userApiKeyReset: defineRoute({ method: 'POST', path: '/user/api-key/reset', auth: 'user', summary: 'Replace your personal API key (the old key stops working at once)', tag: 'user', output: ZApiKeyReset }),
  userWhitelist: defineRoute({ method: 'GET', path: '/user/ip/whitelist', auth: 'user', summary: 'IP whitelist', tag: 'security', input: ZPageQuery, output: zIpListPage }),
  userWhitelistAdd: defineRoute({ method: 'POST', path: '/user/add/ip/whitelist', auth: 'user', body: 'form', summary: 'Add whitelist entries ("ip": entries separated by ";"), all or nothing', tag: 'security', input: ZIpListAddForm, output: zIpListAdded }),
  userBlacklist: defineRoute({ method: 'GET', path: '/user/ip/blacklist', auth: 'user', summary: 'IP blacklist', tag: 'security', input: ZPageQuery, output: zIpListPage }),
  userBlacklistAdd: defineRoute({ method: 'POST', path: '/user/add/ip/blacklist', auth: 'user', body: 'form', summary: 'Add blacklist entries ("ip": entries separated by ";"), all or nothing', tag: 'security', input: ZIpListAddForm, output: zIpListAdded }),
  userIpRemove: defineRoute({ method: 'DELETE', path: '/user/remove/ip/:id', auth: 'user', summary: 'Remove an IP list entry (either list)', tag: 'security', input: zIdParam }),

  // --- tokens / proxies --------------------------------------------------
  tokenListStaticTraffic: defineRoute({ method: 'GET', path: '/token/list/static/traffic', auth: 'user', summary: 'Static residential proxies by traffic', tag: 'proxy', input: ZProxyListQuery, output: ZProxyTokenPage }),
  tokenListStaticIp: defineRoute({ method: 'GET', path: '/token/list/static/ip', auth: 'user', summary: 'Static residential proxies by IP', tag: 'proxy', input: ZProxyListQuery, output: ZProxyTokenPage }),
  tokenListVariableTraffic: defineRoute({ method: 'GET', path: '/token/list/variable/traffic', auth: 'user', summary: 'Dynamic residential proxies by traffic', tag: 'proxy', input: ZProxyListQuery, output: ZProxyTokenPage }),
  tokenListVariableIp: defineRoute({ method: 'GET', path: '/token/list/variable/ip', auth: 'user', summary: 'Dynamic residential proxies by IP', tag: 'proxy', input: ZProxyListQuery, output: ZProxyTokenPage }),
  tokenListIspDynamic: defineRoute({ method: 'GET', path: '/token/list/isp/dynamic', auth: 'user', summary: 'All dynamic residential proxies', tag: 'proxy', input: ZProxyListQuery, output: ZProxyTokenPage }),
  tokenListIspStatic: defineRoute({ method: 'GET', path: '/token/list/isp/static', auth: 'user', summary: 'All static residential proxies', tag: 'proxy', input: ZProxyListQuery, output: ZProxyTokenPage }),
  tokenListIdcStatic: defineRoute({ method: 'GET', path: '/token/list/idc/static', auth: 'user', summary: 'Data-center proxies', tag: 'proxy', input: ZProxyListQuery, output: ZProxyTokenPage }),
  tokenTest: defineRoute({ method: 'GET', path: '/token/test/:id', auth: 'user', summary: 'Test a proxy: a real request through the gateway with its credentials (latency, exit address and country; a refusal answers ok false with the reason; the bytes count as usage)', tag: 'proxy', input: zIdParam, output: ZTokenTestResult }),
  tokenBatchDelete: defineRoute({ method: 'DELETE', path: '/token/batch', auth: 'user', body: 'json', summary: 'Delete proxies (per item: unknown ids count as failed)', tag: 'proxy', input: ZTokenBatchBody, output: ZBatchResult }),
  tokenBatchRestore: defineRoute({ method: 'PUT', path: '/token/batch/restore', auth: 'user', summary: 'Restore deleted proxies (per item: unknown ids count as failed)', tag: 'proxy', input: ZTokenBatchBody, output: ZBatchResult }),
  tokenSetStatus: defineRoute({ method: 'PUT', path: '/token/:id', auth: 'user', summary: 'Enable or disable a proxy', tag: 'proxy', input: ZTokenStatusBody, output: ZProxyToken }),
  tokenDelete: defineRoute({ method: 'DELETE', path: '/token/:id', auth: 'user', summary: 'Delete a proxy (it can be restored)', tag: 'proxy', input: zIdParam }),
  tokenReset: defineRoute({ method: 'PUT', path: '/token/reset/:id', auth: 'user', summary: 'Reset a proxy password', tag: 'proxy', input: zIdParam, output: ZProxyToken }),
  tokenSessionTraffic: defineRoute({ method: 'GET', path: '/token/session/traffic', auth: 'user', summary: 'Metered traffic over time by hour or day (one proxy, a list, or all); the buckets sum to the metered bytes', tag: 'proxy', input: ZSessionTrafficQuery, output: ZSessionTraffic }),
  tokenAreaCountries: defineRoute({ method: 'GET', path: '/token/list/area/countries', auth: 'user', summary: 'Countries with inventory', tag: 'proxy', input: ZAreaQuery, output: z.array(ZArea) }),
  tokenAreaStates: defineRoute({ method: 'GET', path: '/token/list/area/state', auth: 'user', summary: 'States with inventory in a country', tag: 'proxy', input: ZAreaQuery.extend({ country_id: zCountryId }), output: z.array(ZArea) }),
  tokenAreaCities: defineRoute({ method: 'GET', path: '/token/list/area/city', auth: 'user', summary: 'Cities with inventory in a state', tag: 'proxy', input: ZAreaQuery.extend({ country_id: zCountryId, state_id: z.string().trim().toLowerCase().max(64).default('') }), output: z.array(ZArea) }),
  tokenPaywayList: defineRoute({ method: 'GET', path: '/token/payway/list', auth: 'user', summary: 'Payment options for renewals', tag: 'proxy', output: z.array(ZPayway) }),
  tokenPrices: defineRoute({ method: 'GET', path: '/token/prices', auth: 'user', summary: 'Price catalogue in fen', tag: 'proxy', output: ZPriceCatalogue }),
  tokenCreateStaticTraffic: defineRoute({ method: 'POST', path: '/token/static/traffic', auth: 'user', summary: 'Buy static proxies by traffic (optional Idempotency-Key header)', tag: 'proxy', input: ZBuyTrafficBody, output: ZBuyResult }),
  tokenCreateStaticIp: defineRoute({ method: 'POST', path: '/token/static/ip', auth: 'user', summary: 'Buy static proxies by IP (optional Idempotency-Key header)', tag: 'proxy', input: ZBuyIpBody, output: ZBuyResult }),
  tokenCreateVariableTraffic: defineRoute({ method: 'POST', path: '/token/variable/traffic', auth: 'user', summary: 'Buy dynamic residential proxies by traffic (optional Idempotency-Key header)', tag: 'proxy', input: ZBuyTrafficBody, output: ZBuyResult }),
  tokenCreateVariableIp: defineRoute({ method: 'POST', path: '/token/variable/ip', auth: 'user', summary: 'Buy dynamic residential proxies by IP (optional Idempotency-Key header)', tag: 'proxy', input: ZBuyIpBody, output: ZBuyResult }),
  tokenIpRenew: defineRoute({ method: 'POST', path: '/token/ip/renew', auth: 'user', summary: 'Renew static IP proxies', tag: 'proxy', input: ZRenewBody, output: ZRenewResult }),
  tokenIpAutoRenew: defineRoute({ method: 'POST', path: '/token/ip/auto/renew', auth: 'user', summary: 'Auto-renew static IP proxies on or off', tag: 'proxy', input: ZAutoRenewBody, output: ZBatchResult }),
  tokenVariableIpRenew: defineRoute({ method: 'POST', path: '/token/variable/ip/renew', auth: 'user', summary: 'Renew dynamic IP proxies', tag: 'proxy', input: ZRenewBody, output: ZRenewResult }),
  tokenVariableIpAutoRenew: defineRoute({ method: 'POST', path: '/token/variable/ip/auto/renew', auth: 'user', summary: 'Auto-renew dynamic IP proxies on or off', tag: 'proxy', input: ZAutoRenewBody, output: ZBatchResult }),
  tokenRemark: defineRoute({ method: 'PUT', path: '/token/remark/:token_id', auth: 'user', summary: 'Edit a proxy remark', tag: 'proxy', input: ZTokenRemarkBody, output: ZProxyToken }),
  tokenSpiderRecords: defineRoute({ method: 'GET', path: '/token/spider/records', auth: 'user', summary: 'Generated endpoint files, newest first', tag: 'proxy', input: ZSpiderRecordsQuery, output: ZSpiderRecordPage }),
  tokenCreateSpider: defineRoute({ method: 'POST', path: '/token/create/spider', auth: 'user', summary: 'Generate an endpoint file: count lines of one proxy with area, session (rotating or sticky with sesstime) and line format', tag: 'proxy', input: ZCreateSpiderBody, output: ZSpiderRecordWithLines }),
  tokenSpiderFile: defineRoute({ method: 'GET', path: '/token/spider/record/file/:id', auth: 'user', summary: 'Download an endpoint file (text, one endpoint per line)', tag: 'proxy', input: zIdParam, isBlob: true }),
  tokenExport: defineRoute({ method: 'GET', path: '/token/export', auth: 'user', summary: 'Export proxies as a file (token_ids, or every token matching the list filters)', tag: 'proxy', input: ZExportQuery, isBlob: true }),

  // --- invite --------------------------------------------------------------
  inviteInfo: defineRoute({ method: 'GET', path: '/invite/info', auth: 'user', summary: 'Invite code, link and totals', tag: 'invite', input: zPending }),
  inviteRecords: defineRoute({ method: 'GET', path: '/invite/records', auth: 'user', summary: 'Invited users', tag: 'invite', input: zPending }),
  inviteRebateRecords: defineRoute({ method: 'GET', path: '/invite/rebate/records', auth: 'user', summary: 'Rebates earned', tag: 'invite', input: zPending }),
  inviteRebateConfig: defineRoute({ method: 'GET', path: '/invite/rebate/config', auth: 'user', summary: 'Rebate rules', tag: 'invite', input: zPending }),
  inviteShare: defineRoute({ method: 'GET', path: '/invite/share/:code', auth: 'none', summary: 'Public invite share info', tag: 'invite', input: z.object({ code: z.string().max(64) }) }),
  inviteAdminRebateConfigUpdate: defineRoute({ method: 'POST', path: '/invite/admin/rebate/config', auth: 'admin', summary: 'Update rebate rules (admin)', tag: 'invite', input: zPending }),
  inviteAdminRebateConfigList: defineRoute({ method: 'GET', path: '/invite/admin/rebate/config/list', auth: 'admin', summary: 'Rebate rule history (admin)', tag: 'invite', input: zPending }),

  // --- payments ------------------------------------------------------------
  payOptionList: defineRoute({ method: 'GET', path: '/pay/option/list', auth: 'user', summary: 'Recharge options', tag: 'pay', input: zPending }),
  payRecordList: defineRoute({ method: 'GET', path: '/pay/record/list', auth: 'user', summary: 'Recharge orders and bills', tag: 'pay', input: zPending }),
  payCharge: defineRoute({ method: 'POST', path: '/pay/charge/:method/:option', auth: 'user', summary: 'Start a recharge', tag: 'pay', input: zPending }),

  // --- other ---------------------------------------------------------------
  ipQuality: defineRoute({ method: 'GET', path: '/v1/ip-quality/:ip', auth: 'user-or-key', summary: 'IP quality check from offline data: location, network owner and kind, our exit, your blacklist, risk score with reasons (non-public addresses: scope only, score null)', tag: 'tools', input: z.object({ ip: zIpAddress }), output: ZIpQuality }),
  proxyEcho: defineRoute({ method: 'GET', path: '/proxy/echo', auth: 'none', summary: 'Echo of the caller\'s address (the proxy test\'s target)', tag: 'tools', output: ZProxyEcho }),

  // --- customer API (X-API-Key header or key query; the console may use its bearer token) ---
  v1AreaCountries: defineRoute({ method: 'GET', path: '/v1/areas/countries', auth: 'user-or-key', summary: 'Countries with inventory: id (countryId), names in zh and en, available exits', tag: 'customer-api', input: ZV1CountriesQuery, output: z.array(ZArea) }),
  v1AreaStates: defineRoute({ method: 'GET', path: '/v1/areas/states', auth: 'user-or-key', summary: 'States with inventory in a country (countryId): id (stateId), names, available exits', tag: 'customer-api', input: ZV1StatesQuery, output: z.array(ZArea) }),
  v1AreaCities: defineRoute({ method: 'GET', path: '/v1/areas/cities', auth: 'user-or-key', summary: 'Cities with inventory in a country and state (countryId, stateId): id (cityId), names, available exits', tag: 'customer-api', input: ZV1CitiesQuery, output: z.array(ZArea) }),
  v1Proxies: defineRoute({ method: 'GET', path: '/v1/proxies', auth: 'user-or-key', summary: 'Your proxies with credentials, paged (page, pageSize), filtered by networkType, countryId, stateId, cityId and exit ipAddress', tag: 'customer-api', input: ZV1ProxiesQuery, output: ZV1ProxyPage }),
  v1Endpoints: defineRoute({ method: 'GET', path: '/v1/endpoints', auth: 'user-or-key', summary: 'Endpoint lines of your proxies (proxyId, countryId, stateId, cityId, networkType, limit, session, sesstime, line): format=text answers text/plain, one per line; format=json the envelope', tag: 'customer-api', input: ZV1EndpointsQuery, output: ZV1Endpoints }),
  userMyIp: defineRoute({ method: 'GET', path: '/user/my-ip', auth: 'user', summary: 'Your public address as the server sees it (the IP check default)', tag: 'tools', output: z.object({ ip: z.string() }) }),
  workOrderList: defineRoute({ method: 'GET', path: '/user/work/order/list', auth: 'user', summary: 'Work orders', tag: 'support', input: zPending }),
  workOrderCreate: defineRoute({ method: 'POST', path: '/user/work/order', auth: 'user', summary: 'Open a work order', tag: 'support', input: zPending }),
  workOrderCancel: defineRoute({ method: 'POST', path: '/user/work/order/cancel/:id', auth: 'user', summary: 'Cancel a work order', tag: 'support', input: zIdParam }),
} as const satisfies Record<string, TRouteDef>;

/** Name of a route in the table. */
export type TRouteName = keyof typeof ROUTES;
/** Parsed input of a route. */
export type TRouteInput<N extends TRouteName> = z.output<(typeof ROUTES)[N]['input']>;
/** Raw input a client sends for a route. */
export type TRouteRequest<N extends TRouteName> = z.input<(typeof ROUTES)[N]['input']>;
/** Data of a route's successful answer. */
export type TRouteOutput<N extends TRouteName> = z.output<(typeof ROUTES)[N]['output']>;

/** The API mount point. */
export const API_PREFIX = '/api';
