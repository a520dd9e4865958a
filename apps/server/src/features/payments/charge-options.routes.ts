import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import {
  createChargeOptionSet,
  getAdminChargeOptions,
  listChargeOptionVersions,
  setPayMethod,
} from './charge-options.service';

/** Operators' recharge options and payment method switches (contract: CHARGE_OPTION_ADMIN_ROUTES). */
export function createChargeOptionAdminHandlers(deps: TDeps): THandlersOf<'charge-options-admin'> {
  return {
    adminChargeOptions: async () => getAdminChargeOptions(deps),
    adminChargeOptionVersions: async ({ input }) => listChargeOptionVersions(deps, input),
    adminChargeOptionCreate: async ({ input, user }) => createChargeOptionSet(deps, user.id, input),
    adminPayMethodSet: async ({ input, user }) => setPayMethod(deps, user.id, input.method, input.is_enabled),
  };
}
