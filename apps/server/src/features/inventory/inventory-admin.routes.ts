import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { changeGatewayState } from '../gateway/gateway-state.service';
import {
  listNodesForOperators,
  listStock,
  probeNodeNow,
  retireNode,
  updateNodeForOperators,
} from './inventory-admin.service';
import { parseInventoryCsv } from './inventory-csv';
import { importInventory } from './inventory.service';

/** Operators' calls on the inventory (under /admin/inventory). */
export function createInventoryAdminHandlers(deps: TDeps): THandlersOf<'inventory-admin'> {
  return {
    async adminInventoryImport({ input }) {
      const parsed = parseInventoryCsv(input.csv, input.kind);
      if (input.dry_run || parsed.errors.length > 0) {
        return { valid: parsed.nodes.length, imported: 0, duplicates: 0, errors: parsed.errors };
      }
      // The answer comes once the gateways use the new exits.
      const result = await changeGatewayState(deps, () => importInventory(deps, input.csv, input.kind));
      return { valid: parsed.nodes.length, ...result };
    },
    adminInventoryNodes: ({ input }) => listNodesForOperators(deps, input),
    adminInventoryNodeUpdate: ({ input }) => updateNodeForOperators(deps, input),
    adminInventoryNodeRetire: ({ input }) => retireNode(deps, input.id, input.move_to),
    adminInventoryNodeProbe: ({ input }) => probeNodeNow(deps, input.id),
    adminInventoryStock: ({ input }) => listStock(deps, input.kind),
  };
}
