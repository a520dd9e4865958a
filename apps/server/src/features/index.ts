import type { TDeps } from '../lib/deps';
import type { THandlers } from '../lib/routing';
import { createSystemHandlers } from './system/system.routes';

/** Every feature's handlers; routes without one answer 501. */
export function createFeatureHandlers(deps: TDeps): THandlers {
  return {
    ...createSystemHandlers(deps),
  };
}
