import type { TDeps } from '../../lib/deps';

/**
 * Runs a change of what gateways enforce (its transaction calls
 * bumpGatewayVersion), then waits until a gateway in this process has applied
 * it, so a proxy bought, enabled or renewed works on the first connection
 * after the answer, and one disabled or deleted is refused on it.
 */
export async function changeGatewayState<T>(deps: Pick<TDeps, 'gatewayApplied'>, change: () => Promise<T>): Promise<T> {
  const result = await change();
  await deps.gatewayApplied();
  return result;
}
