import {
  NO_POOL_HEALTH,
  POOL_HEALTH_FRESH_MS,
  compilePoolTemplate,
  describeCharacter,
  findSpellingProblem,
  isRefusedUsernameCharacter,
  POOL_TEMPLATE_PLACEHOLDERS,
  type TPage,
  type TPool,
  type TPoolCoverageBody,
  type TPoolCreateBody,
  type TPoolDetail,
  type TPoolHealth,
  type TPoolMappingBody,
  type TPoolQuery,
  type TPoolTemplate,
  type TPoolUpdateBody,
} from '@proxy/contract';
import { POOL_PASSWORD_PURPOSE, secretBoxOf, type TDbOrTx } from '@proxy/db';
import { AppError } from '../../lib/app-error';
import { uniqueViolationOf } from '../../lib/database-errors';
import type { TDeps } from '../../lib/deps';
import { bumpGatewayVersion } from '../gateway/gateway-state.repository';
import { changeGatewayState } from '../gateway/gateway-state.service';
import { parsePoolCoverageCsv, parsePoolMappingCsv } from './pools-csv';
import {
  deletePool,
  findPool,
  findPoolNamed,
  insertPool,
  listPoolHealth,
  listPools,
  updatePool,
  type TNewPool,
  type TPoolHealthRow,
  type TPoolRow,
} from './pools.repository';

/**
 * Operators' upstream pools (docs/pools.md): every change is one transaction that bumps the gateways' state
 * version (a gateway loads pools with its state), and the answer waits for an embedded gateway to apply it. The
 * password is sealed when written and never answered.
 */

type TPoolDeps = Pick<TDeps, 'db' | 'config' | 'gatewayApplied' | 'clock'>;

/** The pool's template, read (a stored template was checked when saved). */
export function templateOf(row: Pick<TPoolRow, 'usernameTemplate'>): TPoolTemplate {
  const compiled = compilePoolTemplate(row.usernameTemplate);
  if (!compiled.ok) throw new Error(`pool template no longer reads: ${compiled.problem.message}`);
  return compiled.template;
}

/** The fleet's view of a pool: the sum of the fresh reports of the gateway processes (one row each). */
function sumHealth(rows: TPoolHealthRow[], now: Date): TPoolHealth {
  if (rows.length === 0) return NO_POOL_HEALTH;
  const refusals: Record<string, number> = {};
  const areas = new Set<string>();
  let attempts = 0;
  let successes = 0;
  let connectMs = 0;
  let open = 0;
  let circuits = 0;
  for (const row of rows) {
    attempts += row.attempts;
    successes += row.successes;
    connectMs += row.connectMsTotal;
    open += row.open;
    if (row.circuitOpenUntil && row.circuitOpenUntil > now) circuits += 1;
    for (const area of row.openAreas) areas.add(area);
    for (const [reason, n] of Object.entries(row.refusals)) refusals[reason] = (refusals[reason] ?? 0) + n;
  }
  return {
    gateways: rows.length,
    attempts,
    successes,
    avg_connect_ms: successes > 0 ? Math.round(connectMs / successes) : null,
    refusals,
    open_connections: open,
    circuit_open_on: circuits,
    open_areas: [...areas].sort(),
  };
}

/** The fleet's health of each pool (by id), from the reports of the last POOL_HEALTH_FRESH_MS. */
async function healthOf(db: TDbOrTx, poolIds: number[], now: Date): Promise<Map<number, TPoolHealth>> {
  const rows = await listPoolHealth(db, poolIds, new Date(now.getTime() - POOL_HEALTH_FRESH_MS));
  return new Map(
    poolIds.map((id) => [
      id,
      sumHealth(
        rows.filter((r) => r.poolId === id),
        now,
      ),
    ]),
  );
}

// A change's answer with the pool's health as the fleet reports it.
async function withHealth(deps: Pick<TDeps, 'db' | 'clock'>, detail: TPoolDetail): Promise<TPoolDetail> {
  const health = (await healthOf(deps.db, [detail.id], deps.clock.now())).get(detail.id) ?? NO_POOL_HEALTH;
  return { ...detail, health };
}

function toPool(row: TPoolRow, health: TPoolHealth = NO_POOL_HEALTH): TPool {
  const template = templateOf(row);
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    protocol: row.protocol,
    endpoints: row.endpoints,
    username: row.username,
    has_password: row.password !== '',
    username_template: row.usernameTemplate,
    template_placeholders: POOL_TEMPLATE_PLACEHOLDERS.filter((p) => template.placeholders.has(p)),
    session_length: template.sessionLength,
    area_case: row.areaCase,
    area_mapping_count: row.areaMapping.length,
    coverage_mode: row.coverageMode,
    coverage_count: row.coverage.length,
    cost_per_gb_fen: row.costPerGbFen,
    priority: row.priority,
    weight: row.weight,
    max_connections: row.maxConnections,
    exit_ip_header: row.exitIpHeader,
    session_idle_minutes: row.sessionIdleMinutes,
    status: row.status,
    last_check: row.lastCheck ?? null,
    health,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A pool with its lists, as the pool's own call and every change answer it. */
export function toPoolDetail(row: TPoolRow, health: TPoolHealth = NO_POOL_HEALTH): TPoolDetail {
  return {
    ...toPool(row, health),
    coverage: row.coverage.map((a) => ({ country: a.country, state: a.state, city: a.city })),
    area_mapping: row.areaMapping.map((m) => ({
      country: m.country,
      state: m.state,
      city: m.city,
      spelling: m.spelling,
    })),
  };
}

/** GET /admin/pools. */
export async function listPoolsForOperators(
  deps: Pick<TDeps, 'db' | 'clock'>,
  query: TPoolQuery,
): Promise<TPage<TPool>> {
  const { records, total } = await listPools(deps.db, query);
  const health = await healthOf(
    deps.db,
    records.map((r) => r.id),
    deps.clock.now(),
  );
  return {
    records: records.map((r) => toPool(r, health.get(r.id))),
    total,
    page: query.page,
    page_size: query.page_size,
  };
}

/** GET /admin/pools/:id. */
export async function getPoolForOperators(deps: Pick<TDeps, 'db' | 'clock'>, id: number): Promise<TPoolDetail> {
  const row = await findPool(deps.db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return withHealth(deps, toPoolDetail(row));
}

/** The template of an input, checked; a refusal names the character or placeholder (zh and en). */
function checkedTemplate(source: string, mapping: TPoolRow['areaMapping']): TPoolTemplate {
  const compiled = compilePoolTemplate(source);
  if (!compiled.ok) throw new AppError('BAD_REQUEST', undefined, [{ path: 'username_template', ...compiled.problem }]);
  // A new template's separators must not split a spelling imported for the old one.
  for (const entry of mapping) {
    const problem = findSpellingProblem(compiled.template, entry.spelling);
    if (problem) throw new AppError('BAD_REQUEST', undefined, [{ path: 'username_template', ...problem }]);
  }
  return compiled.template;
}

function checkUsername(username: string): void {
  for (const char of username) {
    if (isRefusedUsernameCharacter(char))
      throw new AppError('BAD_REQUEST', undefined, [
        { path: 'username', message: 'poolUsernameChar', params: { char: describeCharacter(char) } },
      ]);
  }
}

function sealPassword(deps: Pick<TDeps, 'config'>, password: string): string {
  return secretBoxOf(deps.config).seal(password, POOL_PASSWORD_PURPOSE);
}

/** The password to dial with. Throws SecretBoxError when this key cannot open it. */
export function openPoolPassword(deps: Pick<TDeps, 'config'>, row: Pick<TPoolRow, 'password'>): string {
  return secretBoxOf(deps.config).open(row.password, POOL_PASSWORD_PURPOSE).plain;
}

// One change of a pool: a transaction that bumps the gateways' version, retried on a conflict, answered once applied.
function changePool<T>(deps: TPoolDeps, change: (tx: TDbOrTx) => Promise<T>): Promise<T> {
  return changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      const result = await change(tx);
      await bumpGatewayVersion(tx);
      return result;
    }),
  );
}

async function lockedPool(tx: TDbOrTx, id: number): Promise<TPoolRow> {
  const row = await findPool(tx, id, true);
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

function fieldsOf(input: TPoolCreateBody | TPoolUpdateBody): Partial<TNewPool> {
  return {
    name: input.name,
    kind: input.kind,
    protocol: input.protocol,
    endpoints: input.endpoints.map((e) => ({ host: e.host, port: e.port })),
    username: input.username,
    usernameTemplate: input.username_template,
    areaCase: input.area_case,
    costPerGbFen: input.cost_per_gb_fen,
    priority: input.priority,
    weight: input.weight,
    maxConnections: input.max_connections,
    exitIpHeader: input.exit_ip_header,
    sessionIdleMinutes: input.session_idle_minutes,
  };
}

// Names are unique without case: a race between two creations ends in the unique index, answered the same way.
async function withNameCheck<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (uniqueViolationOf(error) === 'pools_name_key') throw new AppError('POOL_NAME_TAKEN');
    throw error;
  }
}

/** POST /admin/pools. */
export async function createPool(deps: TPoolDeps, input: TPoolCreateBody): Promise<TPoolDetail> {
  checkUsername(input.username);
  checkedTemplate(input.username_template, []);
  return withNameCheck(() =>
    changePool(deps, async (tx) => {
      if (await findPoolNamed(tx, input.name)) throw new AppError('POOL_NAME_TAKEN');
      const row = await insertPool(tx, {
        ...(fieldsOf(input) as TNewPool),
        password: sealPassword(deps, input.password),
        status: input.status,
      });
      return toPoolDetail(row);
    }),
  );
}

/** PUT /admin/pools/:id: every field; a password left out keeps the stored one. */
export async function updatePoolForOperators(deps: TPoolDeps, input: TPoolUpdateBody): Promise<TPoolDetail> {
  checkUsername(input.username);
  return withNameCheck(() =>
    changePool(deps, async (tx) => {
      const row = await lockedPool(tx, input.id);
      checkedTemplate(input.username_template, row.areaMapping);
      if (await findPoolNamed(tx, input.name, row.id)) throw new AppError('POOL_NAME_TAKEN');
      const changes = fieldsOf(input);
      if (input.password !== undefined) changes.password = sealPassword(deps, input.password);
      return toPoolDetail(await updatePool(tx, row.id, changes));
    }),
  );
}

/** POST /admin/pools/:id/pause and /resume: the status (the same status again changes nothing but is answered). */
export async function setPoolStatus(deps: TPoolDeps, id: number, status: TPoolRow['status']): Promise<TPoolDetail> {
  return changePool(deps, async (tx) => {
    const row = await lockedPool(tx, id);
    return toPoolDetail(row.status === status ? row : await updatePool(tx, row.id, { status }));
  });
}

/**
 * DELETE /admin/pools/:id: a paused pool only (an enabled one may carry connections), and not while a gateway
 * reported connections through it in the last minute (those opened before the pause run until they end).
 */
export async function deletePoolForOperators(deps: TPoolDeps, id: number): Promise<{ id: number }> {
  return changePool(deps, async (tx) => {
    const row = await lockedPool(tx, id);
    if (row.status === 'enabled') throw new AppError('POOL_ENABLED');
    const open = (await healthOf(tx, [row.id], deps.clock.now())).get(row.id)?.open_connections ?? 0;
    if (open > 0) throw new AppError('POOL_IN_USE', { open });
    await deletePool(tx, row.id);
    return { id: row.id };
  });
}

/** POST /admin/pools/:id/coverage: every country, or the list of the CSV (a bad line changes nothing). */
export async function setPoolCoverage(deps: TPoolDeps, input: TPoolCoverageBody): Promise<TPoolDetail> {
  const parsed = input.mode === 'list' ? parsePoolCoverageCsv(input.csv) : { areas: [], issues: [] };
  if (parsed.issues.length > 0) throw new AppError('BAD_REQUEST', undefined, parsed.issues.slice(0, 20));
  if (input.mode === 'list' && parsed.areas.length === 0)
    throw new AppError('BAD_REQUEST', undefined, [{ path: 'csv', message: 'poolCsvEmpty' }]);
  return changePool(deps, async (tx) => {
    const row = await lockedPool(tx, input.id);
    return toPoolDetail(await updatePool(tx, row.id, { coverageMode: input.mode, coverage: parsed.areas }));
  });
}

/** POST /admin/pools/:id/area-mapping: the spellings of the CSV replace the last ones (empty: none). */
export async function setPoolAreaMapping(deps: TPoolDeps, input: TPoolMappingBody): Promise<TPoolDetail> {
  return changePool(deps, async (tx) => {
    const row = await lockedPool(tx, input.id);
    const parsed = parsePoolMappingCsv(input.csv, templateOf(row));
    if (parsed.issues.length > 0) throw new AppError('BAD_REQUEST', undefined, parsed.issues.slice(0, 20));
    return toPoolDetail(await updatePool(tx, row.id, { areaMapping: parsed.mapping }));
  });
}
