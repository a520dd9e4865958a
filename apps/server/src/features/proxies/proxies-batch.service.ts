import type { TBatchResult } from '@proxy/contract';
import { bumpGatewayVersion } from '../gateway/gateway-state.repository';
import { changeGatewayState } from '../gateway/gateway-state.service';
import { lockUserTokens, updateToken } from './proxies.repository';
import { uniqueIds, type TProduct, type TServiceDeps } from './proxies.service';

/**
 * Deletes (or restores) tokens per item: unknown, foreign or not applicable
 * ids count as failed, the rest proceed, in one transaction.
 */
export async function batchSetDeleted(
  deps: TServiceDeps,
  userId: number,
  ids: number[],
  isDelete: boolean,
): Promise<TBatchResult> {
  const wanted = uniqueIds(ids);
  return changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      const rows = await lockUserTokens(tx, userId, wanted);
      const now = deps.clock.now();
      let success = 0;
      for (const row of rows) {
        if (isDelete === (row.deletedAt !== null)) continue;
        // A restored token keeps its stored status: an expired one stays expired.
        await updateToken(tx, row.id, { deletedAt: isDelete ? now : null });
        success += 1;
      }
      if (success > 0) await bumpGatewayVersion(tx);
      return { success, failed: wanted.length - success, total: wanted.length };
    }),
  );
}

/** Turns auto-renew on or off for IP tokens of a product; others count as failed. */
export async function batchSetAutoRenew(
  deps: TServiceDeps,
  userId: number,
  product: TProduct,
  ids: number[],
  isOn: boolean,
): Promise<TBatchResult> {
  const wanted = uniqueIds(ids);
  return deps.db.transaction(async (tx) => {
    const rows = await lockUserTokens(tx, userId, wanted);
    let success = 0;
    for (const row of rows) {
      if (row.deletedAt || row.billing !== 'ip' || row.product !== product) continue;
      if (row.autoRenew !== isOn) await updateToken(tx, row.id, { autoRenew: isOn });
      success += 1;
    }
    return { success, failed: wanted.length - success, total: wanted.length };
  });
}
