import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAsnIndexBuilder, parseAsnCsvLine, readAsnCsvInto } from './asn-index';
import { dateOfDataVersion } from './ip-data';

describe('ASN CSV lines', () => {
  it('reads plain and quoted organisation names', () => {
    expect(parseAsnCsvLine('16777216,16777471,13335,"Cloudflare, Inc."')).toEqual({
      start: '16777216',
      end: '16777471',
      asn: 13335,
      organization: 'Cloudflare, Inc.',
    });
    expect(parseAsnCsvLine('1,2,201907,"LLC ""SPUTNIK"""\r')?.organization).toBe('LLC "SPUTNIK"');
    expect(parseAsnCsvLine('1,2,3,Chinanet')?.organization).toBe('Chinanet');
  });

  it('skips blank and malformed lines instead of guessing', () => {
    expect(parseAsnCsvLine('')).toBeNull();
    expect(parseAsnCsvLine('1.0.0.0,1.0.0.255,13335,Cloudflare')).toBeNull();
    expect(parseAsnCsvLine('1,2,x,Name')).toBeNull();
    expect(parseAsnCsvLine('1,2,3')).toBeNull();
  });
});

describe('ASN index', () => {
  function build(rows: [number | bigint, number | bigint, number, string][], family: 4 | 6 = 4) {
    const builder = createAsnIndexBuilder();
    for (const [start, end, asn, organization] of rows)
      builder.add(family, { start: String(start), end: String(end), asn, organization });
    return builder.build();
  }

  it('finds the row holding an address, inclusive at both ends, and nothing in gaps', () => {
    const index = build([
      [100, 199, 1, 'A'],
      [300, 300, 2, 'B'],
      [400, 4294967295, 3, 'C'],
    ]);
    expect(index.lookup(4, 99n)).toBeNull();
    expect(index.lookup(4, 100n)).toEqual({ asn: 1, organization: 'A' });
    expect(index.lookup(4, 199n)).toEqual({ asn: 1, organization: 'A' });
    expect(index.lookup(4, 200n)).toBeNull();
    expect(index.lookup(4, 300n)).toEqual({ asn: 2, organization: 'B' });
    expect(index.lookup(4, 301n)).toBeNull();
    expect(index.lookup(4, 4294967295n)).toEqual({ asn: 3, organization: 'C' });
    expect(index.lookup(4, 4294967296n)).toBeNull();
    expect(index.lookup(6, 150n)).toBeNull();
  });

  it('sorts rows that come out of order and refuses bounds out of order or out of range', () => {
    const builder = createAsnIndexBuilder();
    expect(builder.add(4, { start: '500', end: '599', asn: 5, organization: 'E' })).toBe(true);
    expect(builder.add(4, { start: '10', end: '19', asn: 1, organization: 'A' })).toBe(true);
    expect(builder.add(4, { start: '30', end: '20', asn: 9, organization: 'bad' })).toBe(false);
    expect(builder.add(4, { start: '0', end: '4294967296', asn: 9, organization: 'bad' })).toBe(false);
    const index = builder.build();
    expect(index.size).toEqual({ 4: 2, 6: 0 });
    expect(index.lookup(4, 15n)?.asn).toBe(1);
    expect(index.lookup(4, 550n)?.asn).toBe(5);
    expect(index.lookup(4, 25n)).toBeNull();
  });

  it('handles 128-bit IPv6 bounds', () => {
    const start = 0x20014860000000000000000000000000n;
    const end = 0x20014860ffffffffffffffffffffffffn;
    const index = build([[start, end, 15169, 'Google LLC']], 6);
    expect(index.lookup(6, 0x20014860486000000000000000008888n)?.asn).toBe(15169);
    expect(index.lookup(6, end + 1n)).toBeNull();
    expect(index.lookup(6, start - 1n)).toBeNull();
  });

  it('streams a file whose lines cross chunk borders and whose last line has no newline', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'asn-'));
    const file = path.join(dir, 'v4.csv');
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i++) lines.push(`${i * 10},${i * 10 + 9},${64512 + (i % 7)},"Org ${i % 7}, Inc."`);
    writeFileSync(file, lines.join('\n'));
    const builder = createAsnIndexBuilder();
    expect(await readAsnCsvInto(builder, 4, file)).toBe(20_000);
    const index = builder.build();
    expect(index.lookup(4, 199_995n)).toEqual({ asn: 64512 + (19_999 % 7), organization: `Org ${19_999 % 7}, Inc.` });
    expect(index.lookup(4, 123_456n)?.asn).toBe(64512 + (12_345 % 7));
  });
});

describe('data version dates', () => {
  it('reads the build date from an ip-location-db version', () => {
    expect(dateOfDataVersion('2.3.2026061719')).toBe('2026-06-17');
    expect(dateOfDataVersion('3.0.0')).toBe('');
  });
});
