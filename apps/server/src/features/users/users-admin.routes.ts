import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { setUserStatus } from './users.service';

/** Operators' calls on accounts (under /admin/users). */
export function createUserAdminHandlers(deps: TDeps): THandlersOf<'users-admin'> {
  return {
    async adminUserSetStatus({ input, user }) {
      // An operator who disables their own account locks everyone out of the operator area it may be the only key to.
      if (input.id === user.id) throw new AppError('SELF_ACTION_REFUSED');
      const updated = await setUserStatus(deps, input.id, input.status);
      return { user_id: updated.id, status: updated.status };
    },
  };
}
