// Usage by domain: the registrable domain of a target (Public Suffix List), and the bounded, exact day rows the
// usage batches merge into (at most DOMAIN_USAGE_KEPT named domains per proxy and day, the rest as other).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { DOMAIN_USAGE_KEPT } from '@proxy/contract';
import { domainUsage, type TDbHandle } from '@proxy/db';
import { registrableDomain } from './domains';
import { writeUsage, type TDomainUsageRow } from './meter.repository';
import { createTestDatabase, insertToken, insertUser } from '../test/fixtures';

describe('registrableDomain', () => {
  it.each([
    ['www.example.co.uk', 'example.co.uk'],
    ['API.Example.COM.', 'example.com'],
    ['a.b.c.example.com', 'example.com'],
    ['someone.github.io', 'someone.github.io'],
    ['deep.someone.github.io', 'someone.github.io'],
    ['localhost', 'localhost'],
    ['co.uk', 'co.uk'],
    ['203.0.113.9', '203.0.113.9'],
    ['[2001:DB8::1]', '2001:db8::1'],
    ['', ''],
  ])('%s -> %s', (host, domain) => {
    expect(registrableDomain(host)).toBe(domain);
  });
});

describe('usage by domain: rows per proxy and day', () => {
  let handle: TDbHandle;
  let userId: number;
  const bucket = new Date(Date.UTC(2026, 10, 28, 10));
  const day = '2026-11-28';

  beforeAll(async () => {
    handle = await createTestDatabase();
    userId = await insertUser(handle.db);
  });
  afterAll(async () => {
    await handle?.close();
  });

  const token = async () =>
    insertToken(handle.db, {
      userId,
      username: `dom${randomUUID().slice(0, 8)}`,
      product: 'dynamic',
      billing: 'traffic',
    });
  const rowsOf = async (tokenId: number) =>
    handle.db
      .select({ domain: domainUsage.domain, bytes: domainUsage.bytes, connections: domainUsage.connections })
      .from(domainUsage)
      .where(and(eq(domainUsage.tokenId, tokenId), eq(domainUsage.day, day)));
  const batch = (tokenId: number, domains: [string, number][]) => ({
    id: randomUUID(),
    bucket,
    rows: [{ tokenId, userId, bytes: domains.reduce((n, [, b]) => n + b, 0) }],
    domains: domains.map(([domain, bytes]): TDomainUsageRow => ({ tokenId, userId, domain, bytes, connections: 1 })),
  });

  it('keeps the largest domains up to the bound, sums the rest as other, and always sums to the bytes', async () => {
    const tokenId = await token();
    // 150 domains in two batches: d1 carries 1 byte ... d150 carries 150.
    const all: [string, number][] = Array.from({ length: 150 }, (_, i) => [`d${i + 1}.example`, i + 1]);
    await writeUsage(handle.db, batch(tokenId, all.slice(0, 75)), randomUUID());
    await writeUsage(handle.db, batch(tokenId, all.slice(75)), randomUUID());
    const rows = await rowsOf(tokenId);
    const named = rows.filter((r) => r.domain !== '');
    expect(named).toHaveLength(DOMAIN_USAGE_KEPT);
    expect(rows.reduce((n, r) => n + r.bytes, 0)).toBe((150 * 151) / 2);
    expect(rows.reduce((n, r) => n + r.connections, 0)).toBe(150);
    // The 100 kept are the 100 largest (d51..d150).
    expect(named.map((r) => r.domain).sort()).toEqual(
      all
        .slice(50)
        .map(([d]) => d)
        .sort(),
    );
    expect(rows.find((r) => r.domain === '')).toEqual({ domain: '', bytes: (50 * 51) / 2, connections: 50 });
  });

  it('a new domain larger than the smallest kept takes its place; a smaller one goes to other', async () => {
    const tokenId = await token();
    const full: [string, number][] = Array.from({ length: DOMAIN_USAGE_KEPT }, (_, i) => [`k${i}.example`, 10 + i]);
    await writeUsage(handle.db, batch(tokenId, full), randomUUID());
    await writeUsage(
      handle.db,
      batch(tokenId, [
        ['late-big.example', 1000],
        ['late-small.example', 5],
      ]),
      randomUUID(),
    );
    const rows = await rowsOf(tokenId);
    const domains = new Set(rows.map((r) => r.domain));
    expect(domains.has('late-big.example')).toBe(true);
    expect(domains.has('k0.example')).toBe(false);
    expect(domains.has('late-small.example')).toBe(false);
    expect(rows.filter((r) => r.domain !== '')).toHaveLength(DOMAIN_USAGE_KEPT);
    expect(rows.find((r) => r.domain === '')).toEqual({ domain: '', bytes: 10 + 5, connections: 2 });
    const [sum] = await handle.db
      .select({ n: sql<string>`sum(${domainUsage.bytes})` })
      .from(domainUsage)
      .where(eq(domainUsage.tokenId, tokenId));
    expect(Number(sum.n)).toBe(full.reduce((n, [, b]) => n + b, 0) + 1005);
  });

  it('batches of several gateways at once merge one after the other: bounded and exact', async () => {
    const tokenId = await token();
    const batches = Array.from({ length: 8 }, (_, g) =>
      batch(
        tokenId,
        Array.from({ length: 30 }, (_, i): [string, number] => [`g${g}-${i}.example`, 1 + g * 30 + i]),
      ),
    );
    await Promise.all(batches.map((b) => writeUsage(handle.db, b, randomUUID())));
    const rows = await rowsOf(tokenId);
    expect(rows.filter((r) => r.domain !== '').length).toBe(DOMAIN_USAGE_KEPT);
    expect(rows.reduce((n, r) => n + r.bytes, 0)).toBe((240 * 241) / 2);
    expect(rows.reduce((n, r) => n + r.connections, 0)).toBe(240);
  });
});
