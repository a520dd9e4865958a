import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { idempotencyKeyOf } from '../proxies/proxies.routes';
import { withRetryAfter } from '../../lib/rate-limiter';
import { confirmContact, createSupply, getSupply, listSupply, revokeSupply } from './supply.service';

/** The customer's supply (restock) requests: submit (fee frozen), list, detail, revoke. */
export function createSupplyHandlers(deps: TDeps): THandlersOf<'supply'> {
  return {
    supplyCreate: async (ctx) =>
      withRetryAfter(ctx.reply, () => createSupply(deps, ctx.user.id, ctx.input, idempotencyKeyOf(ctx), ctx.lang)),
    supplyList: async ({ input, user, lang }) => listSupply(deps, user.id, input, lang),
    supplyDetail: async ({ input, user, lang }) => getSupply(deps, user.id, input.id, lang),
    supplyRevoke: async ({ input, user, lang }) => revokeSupply(deps, user.id, input.id, lang),
    supplyContactConfirm: async ({ input }) => confirmContact(deps, input.token),
  };
}
