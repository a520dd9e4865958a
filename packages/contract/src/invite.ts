import { z } from 'zod';
import { defineRoute, zPending, type TRouteDef } from './route-def';

/** Invite and rebate (spec section 7; the admin calls under /invite/admin as the spec names them). */
export const INVITE_ROUTES = {
  inviteInfo: defineRoute({ method: 'GET', path: '/invite/info', auth: 'user', summary: 'Invite code, link and totals', tag: 'invite', input: zPending }),
  inviteRecords: defineRoute({ method: 'GET', path: '/invite/records', auth: 'user', summary: 'Invited users', tag: 'invite', input: zPending }),
  inviteRebateRecords: defineRoute({ method: 'GET', path: '/invite/rebate/records', auth: 'user', summary: 'Rebates earned', tag: 'invite', input: zPending }),
  inviteRebateConfig: defineRoute({ method: 'GET', path: '/invite/rebate/config', auth: 'user', summary: 'Rebate rules', tag: 'invite', input: zPending }),
  inviteShare: defineRoute({
    method: 'GET',
    path: '/invite/share/:code',
    auth: 'none',
    summary: 'Public invite share info',
    tag: 'invite',
    input: z.object({ code: z.string().max(64) }),
  }),
  inviteAdminRebateConfigUpdate: defineRoute({
    method: 'POST',
    path: '/invite/admin/rebate/config',
    auth: 'admin',
    summary: 'Update rebate rules (admin)',
    tag: 'invite',
    input: zPending,
  }),
  inviteAdminRebateConfigList: defineRoute({
    method: 'GET',
    path: '/invite/admin/rebate/config/list',
    auth: 'admin',
    summary: 'Rebate rule history (admin)',
    tag: 'invite',
    input: zPending,
  }),
} as const satisfies Record<string, TRouteDef>;
