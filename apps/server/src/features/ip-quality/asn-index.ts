import { createReadStream } from 'node:fs';

/**
 * IP-to-ASN index over the @ip-location-db/asn CSV files
 * ("start,end,asn,organisation", numeric bounds, inclusive, sorted by start).
 * The CSV is read once into sorted typed arrays; a lookup is a binary search
 * (about 19 steps for 400 000 IPv4 rows), so it takes well under a microsecond.
 */

/** The network that announces an address. */
export type TAsnRecord = { asn: number; organization: string };

/** A parsed CSV row; bounds stay decimal text until the family is known (IPv4 fits a number, IPv6 needs bigint). */
export type TAsnRow = { start: string; end: string; asn: number; organization: string };

/** Lookup side of the index. */
export type TAsnIndex = {
  /** Rows loaded per family. */
  readonly size: { 4: number; 6: number };
  /** The row holding the address, or null when no network announces it. */
  lookup(family: 4 | 6, value: bigint): TAsnRecord | null;
};

/** Parses one CSV line; null for blank or malformed lines (they are skipped, never guessed). */
export function parseAsnCsvLine(line: string): TAsnRow | null {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  const first = text.indexOf(',');
  const second = text.indexOf(',', first + 1);
  const third = text.indexOf(',', second + 1);
  if (first <= 0 || second <= first + 1 || third <= second + 1) return null;
  const startText = text.slice(0, first);
  const endText = text.slice(first + 1, second);
  const asnText = text.slice(second + 1, third);
  if (!/^\d+$/.test(startText) || !/^\d+$/.test(endText) || !/^\d+$/.test(asnText)) return null;
  let organization = text.slice(third + 1);
  // RFC 4180 quoting: "LLC ""SPUTNIK""" -> LLC "SPUTNIK".
  if (organization.startsWith('"') && organization.endsWith('"') && organization.length >= 2) {
    organization = organization.slice(1, -1).replaceAll('""', '"');
  }
  return { start: startText, end: endText, asn: Number(asnText), organization: organization.trim() };
}

/** A Uint32Array that grows by doubling (row counts are unknown until the file is read). */
class GrowableU32 {
  data = new Uint32Array(1 << 16);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Uint32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
  done(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}

/** Accumulates rows of both families, then freezes them into the lookup index. */
export function createAsnIndexBuilder() {
  const orgIds = new Map<string, number>();
  const orgs: string[] = [];
  const v4 = { start: new GrowableU32(), end: new GrowableU32(), asn: new GrowableU32(), org: new GrowableU32() };
  const v6 = { start: [] as bigint[], end: [] as bigint[], asn: new GrowableU32(), org: new GrowableU32() };

  function orgIdOf(name: string): number {
    let id = orgIds.get(name);
    if (id === undefined) {
      id = orgs.length;
      orgs.push(name);
      orgIds.set(name, id);
    }
    return id;
  }

  return {
    /** Adds one row; returns false (and skips it) when its bounds are out of order or out of the family's space. */
    add(family: 4 | 6, row: TAsnRow): boolean {
      if (family === 4) {
        const start = Number(row.start);
        const end = Number(row.end);
        if (end < start || end > 0xffffffff) return false;
        v4.start.push(start);
        v4.end.push(end);
        v4.asn.push(row.asn);
        v4.org.push(orgIdOf(row.organization));
        return true;
      }
      const start = BigInt(row.start);
      const end = BigInt(row.end);
      if (end < start || end >= 1n << 128n) return false;
      v6.start.push(start);
      v6.end.push(end);
      v6.asn.push(row.asn);
      v6.org.push(orgIdOf(row.organization));
      return true;
    },
    /** The finished index (rows are sorted by start if the file was not). */
    build(): TAsnIndex {
      const four = sortedV4(v4.start.done(), v4.end.done(), v4.asn.done(), v4.org.done());
      const six = sortedV6(v6.start, v6.end, v6.asn.done(), v6.org.done());
      return {
        size: { 4: four.start.length, 6: six.start.length },
        lookup(family, value) {
          if (family === 4) {
            if (value < 0n || value > 0xffffffffn) return null;
            const n = Number(value);
            const i = lastAtOrBelow(four.start, n);
            return i >= 0 && four.end[i] >= n ? { asn: four.asn[i], organization: orgs[four.org[i]] } : null;
          }
          const i = lastAtOrBelow(six.start, value);
          return i >= 0 && six.end[i] >= value ? { asn: six.asn[i], organization: orgs[six.org[i]] } : null;
        },
      };
    },
  };
}

/** Index of the last element <= value in an ascending array, or -1. */
function lastAtOrBelow<T extends number | bigint>(sorted: ArrayLike<T>, value: T): number {
  let lo = 0;
  let hi = sorted.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= value) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

function isAscending<T extends number | bigint>(values: ArrayLike<T>): boolean {
  for (let i = 1; i < values.length; i++) if (values[i] < values[i - 1]) return false;
  return true;
}

function sortedV4(start: Uint32Array, end: Uint32Array, asn: Uint32Array, org: Uint32Array) {
  if (isAscending(start)) return { start, end, asn, org };
  const order = Array.from(start.keys()).sort((a, b) => start[a] - start[b]);
  const pick = (src: Uint32Array) => Uint32Array.from(order, (i) => src[i]);
  return { start: pick(start), end: pick(end), asn: pick(asn), org: pick(org) };
}

function sortedV6(start: bigint[], end: bigint[], asn: Uint32Array, org: Uint32Array) {
  if (isAscending(start)) return { start, end, asn, org };
  const order = Array.from(start.keys()).sort((a, b) => (start[a] < start[b] ? -1 : start[a] > start[b] ? 1 : 0));
  return {
    start: order.map((i) => start[i]),
    end: order.map((i) => end[i]),
    asn: Uint32Array.from(order, (i) => asn[i]),
    org: Uint32Array.from(order, (i) => org[i]),
  };
}

/**
 * Streams a CSV file into the builder. Reading in 256 KiB chunks gives the
 * event loop back between chunks, so API calls keep being answered while the
 * index loads. Returns the number of rows added.
 */
export async function readAsnCsvInto(
  builder: ReturnType<typeof createAsnIndexBuilder>,
  family: 4 | 6,
  file: string,
): Promise<number> {
  let rest = '';
  let rows = 0;
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 18 });
  for await (const chunk of stream as AsyncIterable<string>) {
    const text = rest + chunk;
    const lines = text.split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const row = parseAsnCsvLine(line);
      if (row && builder.add(family, row)) rows++;
    }
    // Yield to pending I/O callbacks between chunks (the stream alone may resolve synchronously).
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const row = parseAsnCsvLine(rest);
  if (row && builder.add(family, row)) rows++;
  return rows;
}
