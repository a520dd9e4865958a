import { z } from 'zod';
import { ZSession, ZSessionInfo } from './auth';
import { ZPageQuery, zPage } from './envelope';
import { ZLedgerLine, ZLedgerQuery, ZPayOrder, ZPayRecordQuery, parseYuanAmount } from './payments';
import { PROXY_BILLINGS, PROXY_CATEGORIES, PROXY_NETWORKS, PROXY_PRODUCTS, PROXY_STATUSES } from './proxies-tokens';
import { defineRoute, type TRouteDef } from './route-def';
import { zCode, zEmail, zId, zIdParam, zPassword, zUsername, withPasswordConfirm } from './validators';

/** The signed-in user and the user center (spec sections 3 and 7). */

/** Account statuses: a disabled account cannot sign in and its proxies stop. */
export const USER_STATUSES = ['active', 'disabled'] as const;

/** GET /user/info (spec section 3). Money in yuan. */
export const ZUserInfo = z.object({
  user_id: z.number().int(),
  name: z.string(),
  balance: z.number(),
  frozen_balance: z.number(),
  status: z.enum(USER_STATUSES),
  total_balance: z.number(),
  email: z.string(),
  /** Personal API key (the API docs' "current token"), never the session JWT. */
  token: z.string(),
  avatar: z.string(),
  invite_code: z.string(),
  trial_credit: z.number(),
  is_admin: z.boolean(),
  /** The account signs in with a one-time password (the seeded operator): the console asks for a new one first. */
  password_change_required: z.boolean(),
  created_at: z.string(),
});
/** Parsed user info. */
export type TUserInfo = z.infer<typeof ZUserInfo>;

/** Change-password form of the user center. */
export const ZChangePasswordForm = withPasswordConfirm(
  z.object({
    current_password: z.string({ error: 'required' }).min(1, { error: 'required' }),
    password: zPassword,
    confirm_password: z.string({ error: 'required' }),
  }),
);

/** The signed-in user: info, username, e-mail and password. */
export const USER_ROUTES = {
  userInfo: defineRoute({
    method: 'GET',
    path: '/user/info',
    auth: 'user',
    summary: 'The signed-in user',
    tag: 'user',
    output: ZUserInfo,
  }),
  userUpdateProfile: defineRoute({
    method: 'PUT',
    path: '/user/profile',
    auth: 'user',
    summary: 'Change the username',
    tag: 'user',
    input: z.object({ username: zUsername }),
    output: ZUserInfo,
  }),
  userChangeEmail: defineRoute({
    method: 'POST',
    path: '/user/change_email',
    auth: 'user',
    summary: 'Change the e-mail with a code sent to the new address',
    tag: 'user',
    input: z.object({ email: zEmail, code: zCode }),
    output: ZUserInfo,
  }),
  userChangePassword: defineRoute({
    method: 'POST',
    path: '/user/change_password',
    auth: 'user',
    summary: 'Change the password; other sessions are signed out',
    tag: 'user',
    input: ZChangePasswordForm,
    output: ZSession,
  }),
} as const satisfies Record<string, TRouteDef>;

/** An account as operators see it (money in yuan). */
export const ZAdminUser = z.object({
  user_id: z.number().int(),
  username: z.string(),
  email: z.string(),
  status: z.enum(USER_STATUSES),
  is_admin: z.boolean(),
  invite_code: z.string(),
  /** Who invited the account, if anyone. */
  invited_by: z.number().int().nullable(),
  balance: z.number(),
  frozen_balance: z.number(),
  /** Cumulative real recharge (spec total_balance). */
  total_balance: z.number(),
  created_at: z.string(),
  last_login_at: z.string().nullable(),
});
/** Parsed operator's view of an account. */
export type TAdminUser = z.infer<typeof ZAdminUser>;

/** One account's page: the account and what hangs on it. */
export const ZAdminUserDetail = ZAdminUser.extend({
  /** Proxies that still work (active or not yet expired). */
  live_proxies: z.number().int(),
  recharge_orders: z.number().int(),
  invitees: z.number().int(),
  /** Sessions not signed out. */
  sessions: z.number().int(),
  /** The inviter's e-mail, if anyone invited the account. */
  inviter_email: z.string().nullable(),
});
/** Parsed account page. */
export type TAdminUserDetail = z.infer<typeof ZAdminUserDetail>;

/** Search of accounts: by e-mail, name, id or invite code (one keyword), and status. */
export const ZAdminUserQuery = ZPageQuery.extend({
  keyword: z.string().trim().max(100, { error: 'tooLong' }).optional(),
  status: z.enum(USER_STATUSES, { error: 'invalidValue' }).optional(),
});
/** Parsed account search. */
export type TAdminUserQuery = z.output<typeof ZAdminUserQuery>;

/** The largest single adjustment an operator can make (1,000,000 yuan). */
export const ADMIN_ADJUST_MAX_FEN = 100_000_000;

/**
 * A balance adjustment: credit or debit an amount (yuan, at most two
 * decimals) with a mandatory reason; `request_id` (chosen by the caller, one
 * per adjustment) makes a retry move the money once.
 */
export const ZAdminAdjustBody = z.object({
  kind: z.enum(['credit', 'debit'], { error: 'invalidValue' }),
  amount: z
    .string({ error: 'adjustFormat' })
    .refine((v) => parseYuanAmount(v) !== null, { error: 'adjustFormat' })
    .refine(
      (v) => {
        const fen = parseYuanAmount(v);
        return fen === null || (fen > 0 && fen <= ADMIN_ADJUST_MAX_FEN);
      },
      { error: 'adjustRange' },
    ),
  reason: z.string({ error: 'required' }).trim().min(1, { error: 'required' }).max(200, { error: 'tooLong' }),
  request_id: z.string({ error: 'required' }).regex(/^[A-Za-z0-9-]{8,64}$/, { error: 'invalidValue' }),
});
/** Parsed adjustment. */
export type TAdminAdjustBody = z.infer<typeof ZAdminAdjustBody>;

/** What an adjustment did: the ledger entry and the balances after it. */
export const ZAdminAdjustResult = z.object({
  entry_id: z.number().int(),
  balance: z.number(),
  frozen_balance: z.number(),
  /** The same request_id again: nothing moved this time. */
  is_replay: z.boolean(),
});

/** One of an account's proxies, as operators see it (deleted ones too). */
export const ZAdminUserProxy = z.object({
  token_id: z.number().int(),
  username: z.string(),
  product: z.enum(PROXY_PRODUCTS),
  category: z.enum(PROXY_CATEGORIES),
  billing: z.enum(PROXY_BILLINGS),
  network: z.enum(PROXY_NETWORKS),
  country: z.string(),
  state: z.string(),
  city: z.string(),
  status: z.enum(PROXY_STATUSES),
  expires_at: z.string(),
  /** Bytes carried so far. */
  traffic_used: z.number(),
  /** Allowance in bytes (traffic products), null for IP products. */
  traffic_limit: z.number().nullable(),
  created_at: z.string(),
});
/** Parsed operator's view of a proxy. */
export type TAdminUserProxy = z.infer<typeof ZAdminUserProxy>;

/** One of an account's sessions that is not ended. */
export const ZAdminUserSession = ZSessionInfo.omit({ is_current: true });
/** Parsed operator's view of a session. */
export type TAdminUserSession = z.infer<typeof ZAdminUserSession>;

/** An account the user invited (operators see the full e-mail). */
export const ZAdminUserInvitee = z.object({
  user_id: z.number().int(),
  username: z.string(),
  email: z.string(),
  status: z.enum(USER_STATUSES),
  /** Cumulative real recharge, yuan. */
  total_balance: z.number(),
  created_at: z.string(),
});
/** Parsed invitee. */
export type TAdminUserInvitee = z.infer<typeof ZAdminUserInvitee>;

/** E-mails an operator can send again: the address verification, or a password reset code. */
export const ADMIN_MAIL_KINDS = ['verification', 'password_reset'] as const;
/** An e-mail kind an operator can resend. */
export type TAdminMailKind = (typeof ADMIN_MAIL_KINDS)[number];

/** What a resend did: the kind, the address it went to, and when another may be sent (seconds). */
export const ZAdminMailResult = z.object({
  kind: z.enum(ADMIN_MAIL_KINDS),
  email: z.string(),
  resend_after: z.number().int(),
});

/** A page of one account's items. */
const ZAdminUserPageQuery = ZPageQuery.extend(zIdParam.shape);

/** Operators: find accounts, read one, adjust its balance, disable or enable it, grant or revoke the operator role. */
export const USER_ADMIN_ROUTES = {
  adminUserList: defineRoute({
    method: 'GET',
    path: '/admin/users/list',
    auth: 'admin',
    summary: 'Accounts, newest first; keyword matches e-mail, username, id or invite code',
    tag: 'admin',
    input: ZAdminUserQuery,
    output: zPage(ZAdminUser),
  }),
  adminUserDetail: defineRoute({
    method: 'GET',
    path: '/admin/users/:id',
    auth: 'admin',
    summary: 'One account with its balances and counts of proxies, orders, invitees and sessions',
    tag: 'admin',
    input: zIdParam,
    output: ZAdminUserDetail,
  }),
  adminUserLedger: defineRoute({
    method: 'GET',
    path: '/admin/users/:id/ledger',
    auth: 'admin',
    summary: "One account's statement (every balance movement), newest first",
    tag: 'admin',
    input: ZLedgerQuery.extend(zIdParam.shape),
    output: zPage(ZLedgerLine),
  }),
  adminUserOrders: defineRoute({
    method: 'GET',
    path: '/admin/users/:id/orders',
    auth: 'admin',
    summary: "One account's recharge orders, newest first",
    tag: 'admin',
    input: ZPayRecordQuery.extend(zIdParam.shape),
    output: zPage(ZPayOrder),
  }),
  adminUserAdjust: defineRoute({
    method: 'POST',
    path: '/admin/users/:id/balance',
    auth: 'admin',
    body: 'json',
    summary:
      'Credit or debit an account with a reason, through the ledger (reason "adjustment"); the same request_id moves money once',
    tag: 'admin',
    input: ZAdminAdjustBody.extend(zIdParam.shape),
    output: ZAdminAdjustResult,
  }),
  adminUserSetAdmin: defineRoute({
    method: 'PUT',
    path: '/admin/users/:id/admin',
    auth: 'admin',
    body: 'json',
    summary: 'Grant or revoke the operator role',
    tag: 'admin',
    input: zIdParam.extend({ is_admin: z.boolean({ error: 'invalidValue' }) }),
    output: z.object({ user_id: z.number().int(), is_admin: z.boolean() }),
  }),
  adminUserSetStatus: defineRoute({
    method: 'PUT',
    path: '/admin/users/:id/status',
    auth: 'admin',
    summary: 'Disable or enable an account; disabling ends its sessions at once and stops its proxies',
    tag: 'admin',
    input: zIdParam.extend({ status: z.enum(USER_STATUSES, { error: 'invalidValue' }) }),
    output: z.object({ user_id: z.number().int(), status: z.enum(USER_STATUSES) }),
  }),
  adminUserProxies: defineRoute({
    method: 'GET',
    path: '/admin/users/:id/proxies',
    auth: 'admin',
    summary:
      "One account's proxies (deleted ones too), newest first, with product, area, status, expiry and traffic used",
    tag: 'admin',
    input: ZAdminUserPageQuery,
    output: zPage(ZAdminUserProxy),
  }),
  adminUserSessions: defineRoute({
    method: 'GET',
    path: '/admin/users/:id/sessions',
    auth: 'admin',
    summary: "One account's sessions that are not ended (device, address, last use), latest used first",
    tag: 'admin',
    input: ZAdminUserPageQuery,
    output: zPage(ZAdminUserSession),
  }),
  adminUserSessionEnd: defineRoute({
    method: 'POST',
    path: '/admin/users/:id/sessions/:session_id/end',
    auth: 'admin',
    summary: "Ends one of an account's sessions: its token answers -401 from the next call",
    tag: 'admin',
    input: zIdParam.extend({ session_id: zId }),
    output: z.null(),
  }),
  adminUserInvitees: defineRoute({
    method: 'GET',
    path: '/admin/users/:id/invitees',
    auth: 'admin',
    summary: 'The accounts one account invited, newest first, with full e-mails',
    tag: 'admin',
    input: ZAdminUserPageQuery,
    output: zPage(ZAdminUserInvitee),
  }),
  adminUserSendMail: defineRoute({
    method: 'POST',
    path: '/admin/users/:id/mail',
    auth: 'admin',
    body: 'json',
    summary:
      'E-mails the account again: a password reset code (the same e-mail and throttle as the reset page), or the verification e-mail; refused for a disabled account or a verified address',
    tag: 'admin',
    input: zIdParam.extend({ kind: z.enum(ADMIN_MAIL_KINDS, { error: 'mailKindInvalid' }) }),
    output: ZAdminMailResult,
  }),
} as const satisfies Record<string, TRouteDef>;
