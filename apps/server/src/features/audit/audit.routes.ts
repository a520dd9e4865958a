import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { listAudit } from './audit.service';

/** The operator area's audit list (entries are written by the routing layer). */
export function createAuditHandlers(deps: TDeps): THandlersOf<'audit'> {
  return {
    async adminAuditList({ input }) {
      return listAudit(deps, input);
    },
  };
}
