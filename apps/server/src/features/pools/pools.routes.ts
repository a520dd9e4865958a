import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { checkPool } from './pools-check.service';
import {
  createPool,
  deletePoolForOperators,
  getPoolForOperators,
  listPoolsForOperators,
  setPoolAreaMapping,
  setPoolCoverage,
  setPoolStatus,
  updatePoolForOperators,
} from './pools.service';

/** Operators' calls on upstream pools (under /admin/pools). */
export function createPoolAdminHandlers(deps: TDeps): THandlersOf<'pools-admin'> {
  return {
    adminPools: ({ input }) => listPoolsForOperators(deps, input),
    adminPool: ({ input }) => getPoolForOperators(deps, input.id),
    adminPoolCreate: ({ input }) => createPool(deps, input),
    adminPoolUpdate: ({ input }) => updatePoolForOperators(deps, input),
    adminPoolPause: ({ input }) => setPoolStatus(deps, input.id, 'paused'),
    adminPoolResume: ({ input }) => setPoolStatus(deps, input.id, 'enabled'),
    adminPoolDelete: ({ input }) => deletePoolForOperators(deps, input.id),
    adminPoolCoverage: ({ input }) => setPoolCoverage(deps, input),
    adminPoolAreaMapping: ({ input }) => setPoolAreaMapping(deps, input),
    adminPoolCheck: ({ input }) => checkPool(deps, input),
  };
}
