import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';

/**
 * Area names. Countries: i18n-iso-countries (MIT; zh and en). States and
 * regions: country-region-data (MIT; English names, so zh shows the English
 * name). Cities have no permissively licensed data set small enough to ship,
 * so a city shows the name captured when its exit nodes were imported, else
 * its slug title-cased ("losangeles" -> "Losangeles").
 */

/** A name in both languages. */
export type TAreaName = { zh: string; en: string };

const require = createRequire(import.meta.url);

type TRegionRecord = { name: string; shortCode?: string };
type TCountryRecord = { countryShortCode: string; regions: TRegionRecord[] };

let regionsByCountry: Map<string, TRegionRecord[]> | undefined;

function slugOf(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

// The package's ESM entry is not shipped; its JSON is (and is small: 330 KB), read once on first use.
function loadRegions(): Map<string, TRegionRecord[]> {
  if (regionsByCountry) return regionsByCountry;
  const data = JSON.parse(readFileSync(require.resolve('country-region-data/data.json'), 'utf8')) as TCountryRecord[];
  regionsByCountry = new Map(data.map((c) => [c.countryShortCode.toUpperCase(), c.regions]));
  return regionsByCountry;
}

/** "los_angeles" -> "Los Angeles", "losangeles" -> "Losangeles". */
export function titleCaseSlug(slug: string): string {
  return slug
    .split(/_+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');
}

// A stored name that is only the slug again ("berlin") says less than the title-cased slug ("Berlin").
function displayName(slug: string, storedName: string): string {
  return storedName && storedName !== slug ? storedName : titleCaseSlug(slug);
}

function both(name: string): TAreaName {
  return { zh: name, en: name };
}

/** Country name from its alpha-2 code; the code upper-cased when unknown. */
export function countryName(code: string): TAreaName {
  const upper = code.toUpperCase();
  return { zh: countries.getName(upper, 'zh') ?? upper, en: countries.getName(upper, 'en') ?? upper };
}

/**
 * State name from its code ("ca") or slug ("california"): the region data's
 * name, else the name captured at import, else the slug title-cased.
 */
export function stateName(country: string, state: string, storedName = ''): TAreaName {
  if (!state) return both('');
  const regions = loadRegions().get(country.toUpperCase()) ?? [];
  const found =
    regions.find((r) => r.shortCode?.toLowerCase() === state) ?? regions.find((r) => slugOf(r.name) === state);
  if (found) return both(found.name);
  return both(displayName(state, storedName));
}

/** City name: the name captured at import, else the slug title-cased. */
export function cityName(_country: string, _state: string, city: string, storedName = ''): TAreaName {
  if (!city) return both('');
  return both(displayName(city, storedName));
}
