import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';

/**
 * Area names. Countries: i18n-iso-countries (zh and en). States and cities:
 * the country-state-city data set (English names; its data has no Chinese, so
 * zh shows the English name), falling back to the slug. The data files are
 * read lazily and only the names of areas asked for are kept, because the
 * city file is large (8 MB of JSON).
 */

/** A name in both languages. */
export type TAreaName = { zh: string; en: string };

const require = createRequire(import.meta.url);

type TStateRecord = { name: string; isoCode: string; countryCode: string };
// [name, countryCode, stateCode, latitude, longitude]
type TCityRecord = [string, string, string, string, string];

let states: TStateRecord[] | undefined;
const cityNameCache = new Map<string, Map<string, string>>();

function slugOf(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

function loadStates(): TStateRecord[] {
  states ??= JSON.parse(readFileSync(require.resolve('country-state-city/lib/cjs/assets/state.json'), 'utf8')) as TStateRecord[];
  return states;
}

/** Country name from its alpha-2 code; the code upper-cased when unknown. */
export function countryName(code: string): TAreaName {
  const upper = code.toUpperCase();
  return { zh: countries.getName(upper, 'zh') ?? upper, en: countries.getName(upper, 'en') ?? upper };
}

function findState(country: string, state: string): TStateRecord | undefined {
  const cc = country.toUpperCase();
  return loadStates().find((s) => s.countryCode === cc && (s.isoCode.toLowerCase() === state || slugOf(s.name) === state));
}

/** State name from its code ("ca") or slug ("california"); the slug when unknown. */
export function stateName(country: string, state: string): TAreaName {
  if (!state) return { zh: '', en: '' };
  const found = findState(country, state);
  return found ? { zh: found.name, en: found.name } : { zh: state, en: state };
}

// Slug -> English name of the cities of one country (and state when known), built once per key.
function cityNames(country: string, state: string): Map<string, string> {
  const key = `${country}|${state}`;
  let names = cityNameCache.get(key);
  if (names) return names;
  names = new Map();
  const cc = country.toUpperCase();
  const stateCode = findState(country, state)?.isoCode;
  const cities = JSON.parse(readFileSync(require.resolve('country-state-city/lib/cjs/assets/city.json'), 'utf8')) as TCityRecord[];
  for (const [name, cityCountry, cityState] of cities) {
    if (cityCountry !== cc || (stateCode !== undefined && cityState !== stateCode)) continue;
    const slug = slugOf(name);
    if (!names.has(slug)) names.set(slug, name);
  }
  cityNameCache.set(key, names);
  return names;
}

/** City name from its slug ("losangeles" -> "Los Angeles"); the slug when unknown. */
export function cityName(country: string, state: string, city: string): TAreaName {
  if (!city) return { zh: '', en: '' };
  const name = cityNames(country, state).get(city);
  return name ? { zh: name, en: name } : { zh: city, en: city };
}
