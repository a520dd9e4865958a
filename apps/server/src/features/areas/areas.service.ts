import {
  ISO_COUNTRY_CODES,
  POOL_HEALTH_FRESH_MS,
  poolServesArea,
  type TArea,
  type TAreaSupply,
  type TClaimsStock,
  type TLang,
  type TPoolArea,
  type TProxyBilling,
  type TProxyCategory,
  type TProxyProduct,
} from '@proxy/contract';
import type { TDbOrTx } from '@proxy/db';
import type { TDeps } from '../../lib/deps';
import {
  countAreas,
  countNodesInArea,
  countStock,
  type TAreaFilter,
  type TExitKind,
} from '../inventory/inventory.repository';
import { cityName, countryName, stateName, type TAreaName } from './area-names';
import { readFairUseGbPerDay } from './fair-use';
import { findEnabledPools, findPoolCircuits, type TPoolCircuitRow, type TServingPool } from './areas.repository';

/** Exit kind that serves a category. */
export function exitKindOf(category: TProxyCategory): TExitKind {
  return category === 'idc' ? 'datacenter' : 'residential';
}

/** The product an area list is for; both left out: the exits' areas as before (docs/pools.md, "What customers see"). */
export type TAreaOffer = { product?: TProxyProduct; billing?: TProxyBilling };

/**
 * Whether upstream pools may carry the product: dynamic proxies with a traffic allowance (issue 37, "Which proxies
 * use pools"), that is billed by traffic, or billed by IP while the operator sets a fair-use traffic per day
 * (`isFairUseOn`: such a proxy is bought with an allowance). Without it an IP-billed dynamic proxy has no traffic cap
 * to bound a pool's cost; static ones hold an exit.
 */
export function isPoolProduct(offer: TAreaOffer, isFairUseOn: boolean): boolean {
  if (offer.product !== 'dynamic') return false;
  return offer.billing === 'traffic' || (offer.billing === 'ip' && isFairUseOn);
}

/** isPoolProduct with the fair-use setting read (only for an IP-billed dynamic offer, which depends on it). */
async function carriesPools(db: TDbOrTx, offer: TAreaOffer): Promise<boolean> {
  const isFairUseAsked = offer.product === 'dynamic' && offer.billing === 'ip';
  return isPoolProduct(offer, isFairUseAsked && (await readFairUseGbPerDay(db)) > 0);
}

/**
 * Whether a pool is failing for a country across the fleet: circuit-open (the whole pool until a time in the
 * future, or the country among its open areas) on more than half of the gateway processes that reported on it in
 * the last minute. No fresh report says nothing, so the pool counts as healthy: a fleet that has not dialled it
 * yet must not hide it.
 */
export function isPoolDown(rows: readonly TPoolCircuitRow[], country: string, now: Date): boolean {
  if (rows.length === 0) return false;
  const open = rows.filter(
    (r) => (r.circuitOpenUntil !== null && r.circuitOpenUntil > now) || r.openAreas.includes(country),
  ).length;
  return open * 2 > rows.length;
}

// The enabled pools of a kind with each one's fresh reports, read once per list or purchase.
type TPoolView = { pools: TServingPool[]; circuits: Map<number, TPoolCircuitRow[]>; now: Date };

async function loadPoolView(db: TDbOrTx, now: Date, kind: TExitKind): Promise<TPoolView> {
  const enabled = await findEnabledPools(db, kind);
  const since = new Date(now.getTime() - POOL_HEALTH_FRESH_MS);
  const rows = await findPoolCircuits(
    db,
    enabled.map((p) => p.id),
    since,
  );
  const circuits = new Map<number, TPoolCircuitRow[]>();
  for (const row of rows) circuits.set(row.poolId, [...(circuits.get(row.poolId) ?? []), row]);
  return { pools: enabled, circuits, now };
}

function coverageOf(pool: TServingPool) {
  return { mode: pool.coverageMode, areas: pool.coverage };
}

/**
 * Whether the pool serves the area or an area below it: the lists name a country a pool covers only in some
 * states (so the customer can go on to those states), while a purchase needs poolServesArea itself.
 */
function poolReaches(pool: TServingPool, area: TPoolArea): boolean {
  if (pool.coverageMode === 'all') return true;
  return pool.coverage.some(
    (e) =>
      e.country === area.country &&
      (area.state === '' || e.state === '' || e.state === area.state) &&
      (area.city === '' || e.city === '' || (e.state === area.state && e.city === area.city)),
  );
}

/** The codes the pools list one level down from the parent: every country for 'all', else the coverage's entries. */
function poolCodes(view: TPoolView, parent: { country?: string; state?: string }): Set<string> {
  const codes = new Set<string>();
  for (const pool of view.pools) {
    if (parent.country === undefined) {
      for (const code of pool.coverageMode === 'all' ? ISO_COUNTRY_CODES : pool.coverage.map((e) => e.country)) {
        codes.add(code);
      }
      continue;
    }
    // A pool serving a whole country (or state) serves "any state" there: its states are not known, so not listed.
    for (const e of pool.coverageMode === 'list' ? pool.coverage : []) {
      if (e.country !== parent.country) continue;
      if (parent.state === undefined && e.state !== '') codes.add(e.state);
      if (parent.state !== undefined && e.state === parent.state && e.city !== '') codes.add(e.city);
    }
  }
  return codes;
}

function areaAt(parent: { country?: string; state?: string }, code: string): TPoolArea {
  if (parent.country === undefined) return { country: code, state: '', city: '' };
  if (parent.state === undefined) return { country: parent.country, state: code, city: '' };
  return { country: parent.country, state: parent.state, city: code };
}

function isReachedByHealthyPool(view: TPoolView, area: TPoolArea): boolean {
  return view.pools.some(
    (pool) => poolReaches(pool, area) && !isPoolDown(view.circuits.get(pool.id) ?? [], area.country, view.now),
  );
}

type TListedArea = { code: string; name: TAreaName; available: number; supply?: TAreaSupply; isAvailable?: boolean };

function toArea(area: TListedArea, lang: TLang): TArea {
  const listed: TArea = {
    id: area.code,
    name: area.name[lang],
    name_zh: area.name.zh,
    name_en: area.name.en,
    available: area.available,
  };
  if (area.supply === undefined) return listed;
  return { ...listed, supply: area.supply, is_available: area.isAvailable };
}

/**
 * One level of the area lists: the exits' areas with their available counts and, for a product asked, the areas
 * the enabled pools of its kind serve when pools may carry it, each saying what serves it and whether it can be
 * bought now.
 */
async function listLevel(
  deps: Pick<TDeps, 'db' | 'clock'>,
  category: TProxyCategory,
  parent: { country?: string; state?: string },
  offer: TAreaOffer,
  nameOf: (code: string, storedName: string) => TAreaName,
  lang: TLang,
): Promise<TArea[]> {
  const kind = exitKindOf(category);
  const exitRows = await countAreas(deps.db, kind, parent);
  // Nodes without a state (or city) serve "any state" of their parent: not an area of the level below.
  const exits = new Map(
    exitRows.filter((r) => parent.country === undefined || r.code !== '').map((r) => [r.code, r] as const),
  );
  if (offer.product === undefined) {
    return [...exits.values()].map((r) =>
      toArea({ code: r.code, name: nameOf(r.code, r.name), available: r.available }, lang),
    );
  }
  const view = (await carriesPools(deps.db, offer)) ? await loadPoolView(deps.db, deps.clock.now(), kind) : undefined;
  const codes = new Set([...exits.keys(), ...(view ? poolCodes(view, parent) : [])]);
  const areas: TListedArea[] = [];
  for (const code of [...codes].sort()) {
    const exit = exits.get(code);
    const area = areaAt(parent, code);
    const isPoolServed = view?.pools.some((pool) => poolReaches(pool, area)) ?? false;
    // A dynamic proxy rotates among every active exit of its area (held ones too); a static one needs a free one.
    const isExitOk = exit !== undefined && (offer.product === 'dynamic' || exit.available > 0);
    const isPoolOk = view !== undefined && isPoolServed && isReachedByHealthyPool(view, area);
    areas.push({
      code,
      name: nameOf(code, exit?.name ?? ''),
      available: exit?.available ?? 0,
      supply: exit && isPoolServed ? 'both' : isPoolServed ? 'pool' : 'exits',
      isAvailable: isExitOk || isPoolOk,
    });
  }
  return areas.map((a) => toArea(a, lang));
}

/** Countries with inventory for a category (and, for a product that pools carry, those its pools serve). */
export async function listCountries(
  deps: Pick<TDeps, 'db' | 'clock'>,
  category: TProxyCategory,
  lang: TLang,
  offer: TAreaOffer = {},
): Promise<TArea[]> {
  return listLevel(deps, category, {}, offer, (code) => countryName(code), lang);
}

/** States with inventory in a country (nodes without a state are not listed: they serve "any state"). */
export async function listStates(
  deps: Pick<TDeps, 'db' | 'clock'>,
  category: TProxyCategory,
  country: string,
  lang: TLang,
  offer: TAreaOffer = {},
): Promise<TArea[]> {
  return listLevel(deps, category, { country }, offer, (code, stored) => stateName(country, code, stored), lang);
}

/** Cities with inventory in a state of a country. */
export async function listCities(
  deps: Pick<TDeps, 'db' | 'clock'>,
  category: TProxyCategory,
  country: string,
  state: string,
  lang: TLang,
  offer: TAreaOffer = {},
): Promise<TArea[]> {
  return listLevel(
    deps,
    category,
    { country, state },
    offer,
    (code, stored) => cityName(country, state, code, stored),
    lang,
  );
}

/** What can serve a dynamic proxy of an area: its active exits, and the enabled pools serving it, healthy or not. */
export type TDynamicSupply = { exits: number; pools: number; healthyPools: number };

/**
 * Counts what serves a dynamic proxy of the area (a purchase's stock check): the area's active exits and, when
 * pools may carry the product, the enabled pools of its kind serving exactly that area and how many of those are
 * not failing for its country (isPoolDown). `isFairUseOn` is the fair-use setting as the caller read it (a purchase
 * reads it once for the check and the allowance); left out, it is read here.
 */
export async function findDynamicSupply(
  db: TDbOrTx,
  now: Date,
  area: TAreaFilter,
  offer: TAreaOffer,
  isFairUseOn?: boolean,
): Promise<TDynamicSupply> {
  const exits = await countNodesInArea(db, area);
  const isCarried = isFairUseOn === undefined ? await carriesPools(db, offer) : isPoolProduct(offer, isFairUseOn);
  if (exits > 0 || !isCarried) return { exits, pools: 0, healthyPools: 0 };
  const view = await loadPoolView(db, now, area.kind);
  const poolArea = { country: area.country, state: area.state ?? '', city: area.city ?? '' };
  const serving = view.pools.filter((pool) => poolServesArea(coverageOf(pool), poolArea));
  const healthy = serving.filter((pool) => !isPoolDown(view.circuits.get(pool.id) ?? [], area.country, view.now));
  return { exits, pools: serving.length, healthyPools: healthy.length };
}

/**
 * The countries actually in stock, of every kind, to set the marketing figure of countries by (features/system):
 * those with an active exit and those an enabled pool's coverage list names; an enabled pool covering "all" serves
 * every country and is said apart (its providers' real reach is not known here).
 */
export async function findCountriesInStock(db: TDbOrTx): Promise<TClaimsStock> {
  const exitCountries = new Set((await countStock(db, { level: 'country', activeOnly: true })).map((r) => r.country));
  const enabled = [...(await findEnabledPools(db, 'residential')), ...(await findEnabledPools(db, 'datacenter'))];
  const poolCountries = new Set(
    enabled.flatMap((pool) => (pool.coverageMode === 'list' ? pool.coverage : [])).map((e) => e.country),
  );
  const codes = [...new Set([...exitCountries, ...poolCountries])].sort();
  return {
    countries: codes.map((code) => {
      const name = countryName(code);
      return {
        id: code,
        name_zh: name.zh,
        name_en: name.en,
        has_exits: exitCountries.has(code),
        has_pools: poolCountries.has(code),
      };
    }),
    pools_serve_all: enabled.some((pool) => pool.coverageMode === 'all'),
  };
}
