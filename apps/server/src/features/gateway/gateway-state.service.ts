import type { TDeps } from '../../lib/deps';
import { retryOnConflict } from '../../lib/transaction-retry';

/**
 * Runs a change of what gateways enforce (its transaction calls
 * bumpGatewayVersion), then waits until a gateway in this process has applied
 * it, so a proxy bought, enabled or renewed works on the first connection
 * after the answer, and one disabled or deleted is refused on it. `change`
 * must be one transaction that does nothing outside the database: aborted by
 * a serialization failure or a deadlock (40001, 40P01), it is run again.
 */
export async function changeGatewayState<T>(deps: Pick<TDeps, 'gatewayApplied'>, change: () => Promise<T>): Promise<T> {
  // Every change is one transaction of database work only: aborted by a serialization failure or a deadlock, it runs again.
  const result = await retryOnConflict(change);
  await deps.gatewayApplied();
  return result;
}
