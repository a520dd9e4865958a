import type { TArea, TLang, TProxyCategory } from '@proxy/contract';
import type { TDeps } from '../../lib/deps';
import { countAreas, type TExitKind } from '../inventory/inventory.repository';
import { cityName, countryName, stateName, type TAreaName } from './area-names';

/** Exit kind that serves a category. */
export function exitKindOf(category: TProxyCategory): TExitKind {
  return category === 'idc' ? 'datacenter' : 'residential';
}

function toArea(code: string, name: TAreaName, available: number, lang: TLang): TArea {
  return { id: code, name: name[lang], name_zh: name.zh, name_en: name.en, available };
}

/** Countries with inventory for a category. */
export async function listCountries(deps: Pick<TDeps, 'db'>, category: TProxyCategory, lang: TLang): Promise<TArea[]> {
  const rows = await countAreas(deps.db, exitKindOf(category), {});
  return rows.map((r) => toArea(r.code, countryName(r.code), r.available, lang));
}

/** States with inventory in a country (nodes without a state are not listed: they serve "any state"). */
export async function listStates(
  deps: Pick<TDeps, 'db'>,
  category: TProxyCategory,
  country: string,
  lang: TLang,
): Promise<TArea[]> {
  const rows = await countAreas(deps.db, exitKindOf(category), { country });
  return rows
    .filter((r) => r.code !== '')
    .map((r) => toArea(r.code, stateName(country, r.code, r.name), r.available, lang));
}

/** Cities with inventory in a state of a country. */
export async function listCities(
  deps: Pick<TDeps, 'db'>,
  category: TProxyCategory,
  country: string,
  state: string,
  lang: TLang,
): Promise<TArea[]> {
  const rows = await countAreas(deps.db, exitKindOf(category), { country, state });
  return rows
    .filter((r) => r.code !== '')
    .map((r) => toArea(r.code, cityName(country, state, r.code, r.name), r.available, lang));
}
