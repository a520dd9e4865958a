import type { TDeps } from '../../lib/deps';
import { bumpGatewayVersion } from '../gateway/gateway-state.repository';
import { parseInventoryCsv, type TCsvLineError } from './inventory-csv';
import { sealExitPassword } from './inventory-secrets';
import { findDirectNode, insertExitNodes, relabelExitNode, type TExitKind } from './inventory.repository';

/** Kinds of inventory: every kind gets a direct node on a fresh install. */
const KINDS: TExitKind[] = ['residential', 'datacenter'];
const IMPORT_CHUNK = 500;

/**
 * Seeds one direct node per kind labelled with the gateway host's own area
 * (DIRECT_EXIT_COUNTRY/STATE/CITY), so a fresh install sells honest stock.
 * Idempotent; a changed configuration relabels the existing nodes.
 */
export async function seedDirectNodes(
  deps: Pick<TDeps, 'db' | 'config'>,
): Promise<{ created: number; relabelled: number }> {
  const area = {
    country: deps.config.DIRECT_EXIT_COUNTRY,
    state: deps.config.DIRECT_EXIT_STATE,
    city: deps.config.DIRECT_EXIT_CITY,
  };
  return deps.db.transaction(async (tx) => {
    let created = 0;
    let relabelled = 0;
    for (const kind of KINDS) {
      const existing = await findDirectNode(tx, kind);
      if (!existing) {
        created += (await insertExitNodes(tx, [{ kind, egress: 'direct', host: '', port: 0, ...area }])).length;
      } else if (existing.country !== area.country || existing.state !== area.state || existing.city !== area.city) {
        await relabelExitNode(tx, existing.id, area);
        relabelled += 1;
      }
    }
    if (created + relabelled > 0) await bumpGatewayVersion(tx);
    return { created, relabelled };
  });
}

/** Outcome of an import: counts, or the bad lines (then nothing was imported). */
export type TImportResult = { imported: number; duplicates: number; errors: TCsvLineError[] };

/**
 * Imports upstream proxies from an inventory CSV in one transaction: any bad
 * line imports nothing; duplicates of existing nodes are skipped and counted.
 * Passwords are stored sealed (inventory-secrets.ts).
 */
export async function importInventory(
  deps: Pick<TDeps, 'db' | 'config'>,
  text: string,
  kind: TExitKind,
): Promise<TImportResult> {
  const parsed = parseInventoryCsv(text, kind);
  const { errors } = parsed;
  if (errors.length > 0) return { imported: 0, duplicates: 0, errors };
  const nodes = parsed.nodes.map((node) => ({ ...node, password: sealExitPassword(deps, node.password ?? null) }));
  return deps.db.transaction(async (tx) => {
    let imported = 0;
    // Chunks keep each statement under PostgreSQL's bind-parameter limit.
    for (let i = 0; i < nodes.length; i += IMPORT_CHUNK) {
      imported += (await insertExitNodes(tx, nodes.slice(i, i + IMPORT_CHUNK))).length;
    }
    if (imported > 0) await bumpGatewayVersion(tx);
    return { imported, duplicates: nodes.length - imported, errors: [] };
  });
}
