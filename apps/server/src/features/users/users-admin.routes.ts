import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { listOrders, listStatement } from '../payments/payments-orders.service';
import {
  adjustBalance,
  endUserSessionForOperators,
  getUserForOperators,
  listInviteesForOperators,
  listUserProxiesForOperators,
  listUserSessionsForOperators,
  listUsersForOperators,
  sendMailForOperators,
  setOperatorRole,
} from './users-admin.service';
import { findUserById } from '../accounts/accounts.repository';
import { setUserStatus } from './users.service';

/** Operators' calls on accounts (under /admin/users). */
export function createUserAdminHandlers(deps: TDeps): THandlersOf<'users-admin'> {
  const existing = async (id: number) => {
    if (!(await findUserById(deps.db, id))) throw new AppError('NOT_FOUND');
    return id;
  };
  return {
    adminUserList: ({ input }) => listUsersForOperators(deps, input),
    adminUserDetail: ({ input }) => getUserForOperators(deps, input.id),
    adminUserLedger: async ({ input }) => listStatement(deps, await existing(input.id), input),
    adminUserOrders: async ({ input, lang }) => listOrders(deps, await existing(input.id), input, lang),
    adminUserAdjust: ({ input }) => adjustBalance(deps, input.id, input),
    adminUserSetAdmin: ({ input, user }) => setOperatorRole(deps, user.id, input.id, input.is_admin),
    async adminUserSetStatus({ input, user }) {
      // An operator who disables their own account locks everyone out of the operator area it may be the only key to.
      if (input.id === user.id) throw new AppError('SELF_ACTION_REFUSED');
      const updated = await setUserStatus(deps, input.id, input.status);
      return { user_id: updated.id, status: updated.status };
    },
    adminUserProxies: ({ input }) => listUserProxiesForOperators(deps, input.id, input),
    adminUserSessions: ({ input }) => listUserSessionsForOperators(deps, input.id, input),
    adminUserSessionEnd: ({ input }) => endUserSessionForOperators(deps, input.id, input.session_id),
    adminUserInvitees: ({ input }) => listInviteesForOperators(deps, input.id, input),
    adminUserSendMail: ({ input, lang }) => sendMailForOperators(deps, input.id, input.kind, lang),
  };
}
