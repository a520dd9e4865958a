import { z } from 'zod';
import { ZSession } from './auth';
import { defineRoute, type TRouteDef } from './route-def';
import { zCode, zEmail, zIdParam, zPassword, zUsername, withPasswordConfirm } from './validators';

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
  userInfo: defineRoute({ method: 'GET', path: '/user/info', auth: 'user', summary: 'The signed-in user', tag: 'user', output: ZUserInfo }),
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

/** Operators: disable or enable an account (a disabled account's sessions end at once). */
export const USER_ADMIN_ROUTES = {
  adminUserSetStatus: defineRoute({
    method: 'PUT',
    path: '/admin/users/:id/status',
    auth: 'admin',
    summary: 'Disable or enable an account; disabling ends its sessions at once and stops its proxies',
    tag: 'admin',
    input: zIdParam.extend({ status: z.enum(USER_STATUSES, { error: 'invalidValue' }) }),
    output: z.object({ user_id: z.number().int(), status: z.enum(USER_STATUSES) }),
  }),
} as const satisfies Record<string, TRouteDef>;
