import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { completeSupply, failSupply, listSupplyQueue, takeSupply } from './supply.service';

/** Operators' supply queue: list, take, complete with the allocation, fail with a reason (audited by the routing layer). */
export function createSupplyAdminHandlers(deps: TDeps): THandlersOf<'supply-admin'> {
  return {
    adminSupplyList: async ({ input, lang }) => listSupplyQueue(deps, input, lang),
    adminSupplyTake: async ({ input, user, lang }) => takeSupply(deps, user.id, input.id, lang),
    adminSupplyComplete: async ({ input, lang }) => completeSupply(deps, input.id, lang),
    adminSupplyFail: async ({ input, lang }) => failSupply(deps, input.id, input.reason, lang),
  };
}
