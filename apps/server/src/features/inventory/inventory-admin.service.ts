import countries from 'i18n-iso-countries';
import type {
  TInventoryNode,
  TInventoryNodeQuery,
  TInventoryNodeUpdate,
  TInventoryStockRow,
  TPage,
} from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { bumpGatewayVersion } from '../gateway/gateway-state.repository';
import { changeGatewayState } from '../gateway/gateway-state.service';
import { toAreaSlug } from './inventory-csv';
import { probeNode } from './inventory-probe.service';
import { openExitPassword, sealExitPassword } from './inventory-secrets';
import {
  countStock,
  findEndpointTwin,
  findListedExitNode,
  listExitNodes,
  movePinnedTokens,
  updateExitNode,
  type TExitKind,
  type TListedExitNode,
  type TNewExitNode,
} from './inventory.repository';

type TAdminDeps = Pick<TDeps, 'db' | 'clock' | 'config' | 'gatewayApplied'>;

function toInventoryNode(row: TListedExitNode): TInventoryNode {
  return {
    id: row.id,
    kind: row.kind,
    egress: row.egress,
    host: row.host,
    port: row.port,
    username: row.username,
    has_password: row.password !== null && row.password !== '',
    country: row.country,
    state: row.state,
    city: row.city,
    state_name: row.stateName,
    city_name: row.cityName,
    status: row.status,
    exit_ip: row.exitIp,
    health: row.health,
    latency_ms: row.latencyMs,
    checked_at: row.checkedAt?.toISOString() ?? null,
    probe_failures: row.probeFailures,
    probe_error: row.probeError,
    holder_token_id: row.holderTokenId,
    pinned_tokens: row.pinnedTokens,
    cost_per_day_fen: row.costPerDayFen,
    created_at: row.createdAt.toISOString(),
  };
}

/** GET /admin/inventory/nodes. */
export async function listNodesForOperators(
  deps: Pick<TDeps, 'db' | 'clock'>,
  query: TInventoryNodeQuery,
): Promise<TPage<TInventoryNode>> {
  const { records, total } = await listExitNodes(deps.db, query, deps.clock.now());
  return { records: records.map(toInventoryNode), total, page: query.page, page_size: query.page_size };
}

const SLUG = /^[a-z0-9_]*$/;

/** The area of an edit as stored: slugs for filters and usernames, the names as written for display. */
function areaOf(input: TInventoryNodeUpdate): {
  country: string;
  state: string;
  city: string;
  stateName: string;
  cityName: string;
} {
  if (!countries.isValid(input.country.toUpperCase()))
    throw new AppError('BAD_REQUEST', undefined, [{ path: 'country', message: 'invalidValue' }]);
  const state = toAreaSlug(input.state);
  const city = toAreaSlug(input.city);
  if (!SLUG.test(state)) throw new AppError('BAD_REQUEST', undefined, [{ path: 'state', message: 'invalidValue' }]);
  if (!SLUG.test(city)) throw new AppError('BAD_REQUEST', undefined, [{ path: 'city', message: 'invalidValue' }]);
  if (city && !state) throw new AppError('BAD_REQUEST', undefined, [{ path: 'city', message: 'stateRequired' }]);
  return { country: input.country, state, city, stateName: input.state, cityName: input.city };
}

/**
 * PUT /admin/inventory/nodes/:id: an upstream node's area, endpoint,
 * credentials and status. Disabling is refused while live tokens are pinned
 * (retire moves them). A changed endpoint forgets what the probe found.
 */
export async function updateNodeForOperators(deps: TAdminDeps, input: TInventoryNodeUpdate): Promise<TInventoryNode> {
  const area = areaOf(input);
  return changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      const now = deps.clock.now();
      const node = await findListedExitNode(tx, input.id, now, true);
      if (!node) throw new AppError('NOT_FOUND');
      if (node.egress === 'direct') throw new AppError('INVENTORY_DIRECT_NODE');
      if (input.status === 'disabled' && node.status === 'active' && node.pinnedTokens > 0) {
        throw new AppError('INVENTORY_NODE_PINNED', { count: node.pinnedTokens });
      }
      const username = input.username;
      // Compared in the clear, stored sealed: the same password typed again is not a new endpoint.
      const wasPassword = openExitPassword(deps, node.password);
      const password = username === null ? null : input.password === undefined ? wasPassword : input.password;
      const endpoint = { host: input.host, port: input.port, username };
      if (await findEndpointTwin(tx, { ...node, ...endpoint, ...area })) throw new AppError('INVENTORY_NODE_DUPLICATE');
      const isNewEndpoint =
        endpoint.host !== node.host ||
        endpoint.port !== node.port ||
        endpoint.username !== node.username ||
        password !== wasPassword;
      const changes: Partial<TNewExitNode> = {
        ...area,
        ...endpoint,
        // An unchanged password keeps its stored value (the probe compares what it dialled with what is stored).
        password: password === wasPassword ? node.password : sealExitPassword(deps, password),
        status: input.status,
        ...(input.cost_per_day_fen === undefined ? {} : { costPerDayFen: input.cost_per_day_fen }),
      };
      // What the probe found was about the old endpoint.
      if (isNewEndpoint)
        Object.assign(changes, {
          health: 'unknown',
          exitIp: null,
          latencyMs: null,
          checkedAt: null,
          probeFailures: 0,
          probeError: null,
        });
      await updateExitNode(tx, node.id, changes);
      await bumpGatewayVersion(tx);
      return toInventoryNode((await findListedExitNode(tx, node.id, now))!);
    }),
  );
}

/**
 * POST /admin/inventory/nodes/:id/retire: status disabled. Refused while live
 * tokens are pinned to the node, unless `moveTo` names another active, free
 * upstream node of the same kind and area: the tokens are re-pinned to it in
 * the same transaction.
 */
export async function retireNode(
  deps: TAdminDeps,
  id: number,
  moveTo: number | null | undefined,
): Promise<{ node: TInventoryNode; moved_tokens: number; moved_to: number | null }> {
  return changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      const now = deps.clock.now();
      // Rows are locked in id order, so two retirements moving to each other cannot deadlock.
      const ids = moveTo && moveTo !== id ? [id, moveTo].sort((a, b) => a - b) : [id];
      const locked = new Map<number, TListedExitNode | undefined>();
      for (const nodeId of ids) locked.set(nodeId, await findListedExitNode(tx, nodeId, now, true));
      const node = locked.get(id);
      if (!node) throw new AppError('NOT_FOUND');
      if (node.egress === 'direct') throw new AppError('INVENTORY_DIRECT_NODE');
      let moved: number[] = [];
      if (node.pinnedTokens > 0 || moveTo) {
        if (!moveTo) throw new AppError('INVENTORY_NODE_PINNED', { count: node.pinnedTokens });
        const target = locked.get(moveTo);
        const isFit =
          target !== undefined &&
          target.id !== node.id &&
          target.egress !== 'direct' &&
          target.status === 'active' &&
          target.holderTokenId === null &&
          target.pinnedTokens === 0 &&
          target.kind === node.kind &&
          target.country === node.country &&
          target.state === node.state &&
          target.city === node.city;
        if (!isFit) throw new AppError('INVENTORY_MOVE_TARGET_INVALID');
        moved = await movePinnedTokens(tx, node, target, now);
      }
      await updateExitNode(tx, node.id, { status: 'disabled', holderTokenId: null });
      await bumpGatewayVersion(tx);
      const after = (await findListedExitNode(tx, node.id, now))!;
      return { node: toInventoryNode(after), moved_tokens: moved.length, moved_to: moved.length > 0 ? moveTo! : null };
    }),
  );
}

/** POST /admin/inventory/nodes/:id/probe: probes the node now (direct nodes are not probed) and answers it. */
export async function probeNodeNow(deps: TAdminDeps, id: number): Promise<TInventoryNode> {
  const node = await findListedExitNode(deps.db, id, deps.clock.now());
  if (!node) throw new AppError('NOT_FOUND');
  // When the node went up or down, the answer waits until the gateways here use it.
  const isChanged = await probeNode(deps, node);
  if (isChanged) await deps.gatewayApplied();
  return toInventoryNode((await findListedExitNode(deps.db, id, deps.clock.now()))!);
}

/** GET /admin/inventory/stock: the one stock query grouped by whole area and kind. */
export async function listStock(deps: Pick<TDeps, 'db'>, kind: TExitKind | undefined): Promise<TInventoryStockRow[]> {
  const rows = await countStock(deps.db, { kind, level: 'area' });
  return rows.map((r) => ({
    kind: r.kind,
    country: r.country,
    state: r.state,
    city: r.city,
    state_name: r.stateName,
    city_name: r.cityName,
    active: r.active,
    disabled: r.disabled,
    up: r.up,
    down: r.down,
    held: r.held,
    static_available: r.staticAvailable,
    dynamic_available: r.dynamicAvailable,
  }));
}
