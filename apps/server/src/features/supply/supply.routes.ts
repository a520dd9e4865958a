import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { idempotencyKeyOf } from '../proxies/proxies.routes';
import { createSupply, getSupply, listSupply, revokeSupply } from './supply.service';

/** The customer's supply (restock) requests: submit (fee frozen), list, detail, revoke. */
export function createSupplyHandlers(deps: TDeps): THandlersOf<'supply'> {
  return {
    supplyCreate: async (ctx) => createSupply(deps, ctx.user.id, ctx.input, idempotencyKeyOf(ctx), ctx.lang),
    supplyList: async ({ input, user, lang }) => listSupply(deps, user.id, input, lang),
    supplyDetail: async ({ input, user, lang }) => getSupply(deps, user.id, input.id, lang),
    supplyRevoke: async ({ input, user, lang }) => revokeSupply(deps, user.id, input.id, lang),
  };
}
