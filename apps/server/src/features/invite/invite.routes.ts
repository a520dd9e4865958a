import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import {
  getInviteInfo,
  getRebateConfig,
  getShare,
  listAllRebates,
  listInviteRecords,
  listRebateConfigVersions,
  listRebateRecords,
  updateRebateConfig,
} from './invite.service';

/** Invite code and link, invitees, rebates, the rules, the public share page and the operators' rules (contract: INVITE_ROUTES). */
export function createInviteHandlers(deps: TDeps): THandlersOf<'invite'> {
  return {
    inviteInfo: async ({ user }) => getInviteInfo(deps, user.id),
    inviteRecords: async ({ user, input }) => listInviteRecords(deps, user.id, input),
    inviteRebateRecords: async ({ user, input }) => listRebateRecords(deps, user.id, input),
    inviteRebateConfig: async () => getRebateConfig(deps),
    inviteShare: async ({ input, lang }) => getShare(deps, input.code, lang),
    inviteAdminRebateConfigUpdate: async ({ user, input }) => updateRebateConfig(deps, user.id, input),
    inviteAdminRebateConfigList: async ({ input }) => listRebateConfigVersions(deps, input),
    inviteAdminRebateList: async ({ input }) => listAllRebates(deps, input),
  };
}
