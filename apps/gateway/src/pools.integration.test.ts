// The gateway routing dynamic traffic proxies through upstream pools: real fake pools (HTTP CONNECT and SOCKS5, two
// grammars and spellings) on loopback, the real gateway on a real database, loopback origins only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import {
  carrierUsage,
  createSecretBox,
  poolHealth,
  POOL_PASSWORD_PURPOSE,
  pools,
  tokenUsage,
  usageLogEntries,
  usageLogSettings,
  type TDbHandle,
} from '@proxy/db';
import { startFakePool, type TFakePool } from '@proxy/db/testing';
import { startGateway, type TGateway } from './index';
import {
  bump,
  createTestDatabase,
  insertExit,
  insertToken,
  insertUser,
  startEcho,
  startOrigin,
  until,
  usedBytesOf,
} from '../test/fixtures';
import { viaProxy, type TProxyVia } from '../test/proxy-clients';
import { openTunnel } from '../test/live-connections';
import { rotationWindow } from './rotation';

const box = createSecretBox(Buffer.alloc(32, 9));
const PASSWORD = 'pool-Secret:42@x';
const OXY = 'customer-{user}-cc-{country}[-st-{state}][-city-{city}][-sessid-{session}-sesstime-{minutes}]';
const DECO = 'user-{user}-country-{country}[-session-{session:8}-sessionduration-{minutes}]';

let handle: TDbHandle;
let gateway: TGateway;
let clock = Date.now();
let origin: Awaited<ReturnType<typeof startOrigin>>;
let userId: number;
const errors: string[] = [];
// A (HTTP CONNECT, upper case): us, de. B (SOCKS5, lower case, gb spelled uk): us, gb, jp, nl, it.
// Each case uses its own proxy and country (or leaves the pools as it found them): the cases may run in any order.
// C (HTTP CONNECT, priority 1): jp served, fr refused as an area. D (SOCKS5, priority 1, max_connections 1): nl.
// E: the wrong password (its provider refuses it): se.
const fake: Record<'a' | 'b' | 'c' | 'd' | 'e', TFakePool> = {} as never;
const poolId: Record<'a' | 'b' | 'c' | 'd' | 'e', number> = {} as never;

async function insertPool(values: Partial<typeof pools.$inferInsert> & { name: string; fake: TFakePool }) {
  const { fake: f, ...rest } = values;
  const [row] = await handle.db
    .insert(pools)
    .values({
      kind: 'residential',
      protocol: 'http-connect',
      endpoints: [{ host: f.host, port: f.port }],
      username: 'acme',
      password: box.seal(PASSWORD, POOL_PASSWORD_PURPOSE),
      usernameTemplate: OXY,
      areaCase: 'upper',
      status: 'enabled',
      ...rest,
    })
    .returning({ id: pools.id });
  return row.id;
}

let tokenSeq = 0;
async function trafficToken(
  country: string,
  network: 'HTTP' | 'SOCKS5' = 'HTTP',
): Promise<{ id: number; username: string }> {
  tokenSeq += 1;
  const username = `upool${tokenSeq}`;
  const id = await insertToken(handle.db, {
    userId,
    username,
    product: 'dynamic',
    billing: 'traffic',
    network,
    country,
    trafficLimitBytes: 1024 ** 3,
    expiresAt: new Date(clock + 90 * 86_400_000),
  });
  await bump(handle.db);
  await until(() => gateway.store.authorizer.findRefusal(id, '127.0.0.1') === null);
  return { id, username };
}

/** One request through the gateway: its status, refusal reason and the exit address the origin saw. */
async function through(username: string, via: TProxyVia = 'connect', port = gateway.port) {
  const res = await viaProxy({
    proxyPort: port,
    username,
    password: 'secret',
    url: `http://127.0.0.1:${origin.port}/`,
    via,
  });
  return { ...res, exit: /seen-from=([\d.]+)/.exec(res.body)?.[1] };
}

beforeAll(async () => {
  handle = await createTestDatabase();
  origin = await startOrigin();
  const now = () => clock;
  fake.a = await startFakePool({
    protocol: 'http-connect',
    template: OXY,
    user: 'acme',
    password: PASSWORD,
    areas: [{ country: 'US' }, { country: 'DE' }],
    exitAddresses: ['127.0.1.1', '127.0.1.2', '127.0.1.3'],
    now,
  });
  fake.b = await startFakePool({
    protocol: 'socks5',
    template: DECO,
    user: 'sp1',
    password: PASSWORD,
    areas: [{ country: 'us' }, { country: 'uk' }, { country: 'jp' }, { country: 'nl' }, { country: 'it' }],
    exitAddresses: ['127.0.2.1', '127.0.2.2', '127.0.2.3'],
    now,
  });
  fake.c = await startFakePool({
    protocol: 'http-connect',
    template: OXY,
    user: 'acme',
    password: PASSWORD,
    areas: [{ country: 'JP' }],
    exitAddresses: ['127.0.3.1'],
    now,
  });
  fake.d = await startFakePool({
    protocol: 'socks5',
    template: DECO,
    user: 'sp1',
    password: PASSWORD,
    areas: [{ country: 'nl' }],
    exitAddresses: ['127.0.4.1'],
    now,
  });
  fake.e = await startFakePool({
    protocol: 'http-connect',
    template: OXY,
    user: 'acme',
    password: 'the-provider-wants-another',
    areas: [{ country: 'SE' }],
    exitAddresses: ['127.0.5.1'],
    now,
  });
  userId = await insertUser(handle.db);
  await handle.db.insert(usageLogSettings).values({ userId, enabled: true, retentionDays: 3 });
  const list = (...countries: string[]) => countries.map((country) => ({ country, state: '', city: '' }));
  poolId.a = await insertPool({ name: 'A', fake: fake.a, coverageMode: 'list', coverage: list('us', 'de') });
  poolId.b = await insertPool({
    name: 'B',
    fake: fake.b,
    protocol: 'socks5',
    username: 'sp1',
    usernameTemplate: DECO,
    areaCase: 'lower',
    areaMapping: [{ country: 'gb', state: '', city: '', spelling: 'uk' }],
    coverageMode: 'list',
    coverage: list('us', 'gb', 'jp', 'nl', 'it'),
  });
  poolId.c = await insertPool({
    name: 'C',
    fake: fake.c,
    priority: 1,
    coverageMode: 'list',
    coverage: list('jp', 'fr'),
  });
  poolId.d = await insertPool({
    name: 'D',
    fake: fake.d,
    protocol: 'socks5',
    username: 'sp1',
    usernameTemplate: DECO,
    areaCase: 'lower',
    priority: 1,
    maxConnections: 1,
    coverageMode: 'list',
    coverage: list('nl'),
  });
  poolId.e = await insertPool({ name: 'E', fake: fake.e, coverageMode: 'list', coverage: list('se') });
  // A paused pool is not used.
  await insertPool({ name: 'paused', fake: fake.a, status: 'paused', coverageMode: 'list', coverage: list('pt') });
  gateway = await startGateway({
    db: handle.db,
    host: '127.0.0.1',
    port: 0,
    policy: { allowPrivateTargets: true, echoUrls: [] },
    now,
    secretBox: box,
    pollIntervalMs: 100,
    flushIntervalMs: 200,
    sampleIntervalMs: 100,
    leaseBytes: 64 * 1024,
    // Heartbeats (and pool health reports) every 500 ms.
    leaseExpiryMs: 3000,
    poolBreakerFailures: 3,
    poolBreakerOpenMs: 30_000,
    onError: (error) => errors.push(String((error as Error)?.stack ?? error)),
  });
});

afterAll(async () => {
  await gateway?.close();
  origin?.close();
  await Promise.all(Object.values(fake).map((f) => f?.close()));
  await handle?.close();
});

describe('dynamic traffic proxies through upstream pools', () => {
  it('loads enabled pools only, and refuses an area no exit or pool serves as area-not-served', async () => {
    expect(gateway.store.stats().pools).toBe(5);
    const { username } = await trafficToken('pt');
    const res = await through(username);
    expect(res.status).toBe(502);
    expect(res.reason).toBe('area-not-served');
    // An IP-billed dynamic proxy without an allowance (bought while fair use is off), of an area with pools but no
    // exit, stays on exits: none here.
    const ipBilled = await insertToken(handle.db, { userId, username: 'uipbilled', product: 'dynamic', country: 'de' });
    await bump(handle.db);
    await until(() => gateway.store.authorizer.findRefusal(ipBilled, '127.0.0.1') === null);
    expect((await through('uipbilled')).reason).toBe('no-exit');
  });

  it('takes an IP-billed dynamic proxy with a fair-use allowance through a pool, metered and cut at its allowance', async () => {
    const echo = await startEcho();
    try {
      // Germany: served by pool A only (no exit). Without an allowance the IP-billed proxy stays on exits (the case above).
      const limit = 256 * 1024;
      const id = await insertToken(handle.db, {
        userId,
        username: 'ufairuse',
        product: 'dynamic',
        billing: 'ip',
        country: 'de',
        trafficLimitBytes: limit,
        expiresAt: new Date(clock + 86_400_000),
      });
      await bump(handle.db);
      await until(() => gateway.store.authorizer.findRefusal(id, '127.0.0.1') === null);
      const tunnelsBefore = fake.a.tunnels.length;
      const first = await through('ufairuse');
      expect(first.status).toBe(200);
      expect(first.exit).toMatch(/^127\.0\.1\./);
      expect(fake.a.tunnels.length).toBe(tunnelsBefore + 1);
      // Metered like a traffic proxy: a live tunnel through the pool is cut when the allowance runs out.
      const t = await openTunnel({
        proxyPort: gateway.port,
        username: 'ufairuse',
        password: 'secret',
        port: echo.port,
      });
      expect(t.head).toMatch(/200/);
      const chunk = Buffer.alloc(16 * 1024, 2);
      const writer = setInterval(() => {
        if (!t.socket.destroyed) t.socket.write(chunk);
      }, 5);
      await t.closed;
      clearInterval(writer);
      await gateway.store.flush();
      const used = await usedBytesOf(handle.db, id);
      expect(used).toBeGreaterThanOrEqual(limit);
      expect(used).toBeLessThan(limit + 4 * 1024 * 1024);
      // Every byte was carried by the pool.
      const carried = await handle.db
        .select({ kind: carrierUsage.carrierKind, carrierId: carrierUsage.carrierId, bytes: carrierUsage.bytes })
        .from(carrierUsage)
        .where(eq(carrierUsage.tokenId, id));
      expect(carried.filter((c) => c.bytes > 0).map((c) => [c.kind, c.carrierId])).toEqual([['pool', poolId.a]]);
      expect(carried.reduce((sum, c) => sum + c.bytes, 0)).toBe(used);
      expect((await through('ufairuse')).reason).toBe('token-exhausted');
    } finally {
      echo.close();
    }
  });

  it("keeps a sticky session's exit at the pool for its minutes (username from the template and spelling), then the pool moves it", async () => {
    const { id, username } = await trafficToken('gb', 'SOCKS5');
    const sticky = `${username}-session-abc-sesstime-5`;
    const first = await through(sticky, 'socks5');
    expect(first.status).toBe(200);
    expect(first.exit).toMatch(/^127\.0\.2\./);
    const sent = fake.b.tunnels.at(-1)!;
    // The provider's spelling (gb -> uk), an 8-character session id of the token and session, and the minutes.
    expect(sent.username).toMatch(/^user-sp1-country-uk-session-[a-z0-9]{8}-sessionduration-5$/);
    const started = clock;
    while (clock + 60_000 < started + 5 * 60_000) {
      clock += 60_000;
      expect((await through(sticky, 'socks5')).exit).toBe(first.exit);
    }
    expect(new Set(fake.b.tunnels.slice(-5).map((t) => t.username)).size).toBe(1);
    clock = started + 5 * 60_000 + 1000;
    const after = await through(sticky, 'socks5');
    expect(after.exit).toMatch(/^127\.0\.2\./);
    expect(after.exit).not.toBe(first.exit);
    expect(fake.b.tunnels.at(-1)!.username).toBe(sent.username);
    // Another session of the same token is another session at the pool.
    await through(`${username}-session-other`, 'socks5');
    expect(fake.b.tunnels.at(-1)!.username).not.toBe(sent.username);
    expect(id).toBeGreaterThan(0);
  });

  it('without a session rotates the exit at the pool once per rotation window (a new pool session each window)', async () => {
    const { id, username } = await trafficToken('de');
    const window = rotationWindow({ tokenId: id, now: clock });
    const first = await through(username, 'http');
    expect(first.status).toBe(200);
    expect(first.exit).toMatch(/^127\.0\.1\./);
    const sent = fake.a.tunnels.at(-1)!.username;
    expect(sent).toMatch(
      new RegExp(`^customer-acme-cc-DE-sessid-[a-z0-9]{12}-sesstime-${Math.ceil(window.lengthMs / 60_000)}$`),
    );
    clock = window.endsAt - 1000;
    expect((await through(username)).exit).toBe(first.exit);
    clock = window.endsAt + 1000;
    const second = await through(username);
    expect(second.exit).toMatch(/^127\.0\.1\./);
    expect(second.exit).not.toBe(first.exit);
    expect(fake.a.tunnels.at(-1)!.username).not.toBe(sent);
  });

  it('two gateways on one database choose the same pool and the same pool session for a session', async () => {
    const { username } = await trafficToken('us');
    const second = await startGateway({
      db: handle.db,
      host: '127.0.0.1',
      port: 0,
      policy: { allowPrivateTargets: true, echoUrls: [] },
      now: () => clock,
      secretBox: box,
    });
    try {
      const chosen = new Set<string>();
      // Sessions until both pools have been chosen (each session picks one by the hash: 8 could all pick one).
      for (let s = 1; s <= 40 && chosen.size < 2; s++) {
        const sticky = `${username}-session-two${s}-sesstime-10`;
        const one = await through(sticky, 'connect');
        const other = await through(sticky, 'connect', second.port);
        expect(one.status).toBe(200);
        expect(other.exit).toBe(one.exit);
        chosen.add(one.exit!.split('.').slice(0, 3).join('.'));
      }
      // Both pools of the area carry sessions (weighted rendezvous over A and B).
      expect(chosen).toEqual(new Set(['127.0.1', '127.0.2']));
    } finally {
      await second.close();
    }
  });

  it('fails over to the next candidate before the first byte, within the connection, and records the change', async () => {
    const { id, username } = await trafficToken('jp');
    const sticky = `${username}-session-fo-sesstime-10`;
    // C (priority 1) carries while it serves.
    expect((await through(sticky)).exit).toBe('127.0.3.1');
    fake.c.fail();
    const before = fake.c.stats().otherRefusals;
    const res = await through(sticky);
    expect(res.status).toBe(200);
    expect(res.exit).toMatch(/^127\.0\.2\./);
    expect(fake.c.stats().otherRefusals).toBe(before + 1);
    await until(async () => {
      const rows = await handle.db.select().from(usageLogEntries).where(eq(usageLogEntries.tokenId, id));
      return rows.length >= 2;
    });
    const rows = await handle.db
      .select({ carrier: usageLogEntries.carrier, exitChanged: usageLogEntries.exitChanged })
      .from(usageLogEntries)
      .where(eq(usageLogEntries.tokenId, id))
      .orderBy(usageLogEntries.endedAt);
    expect(rows).toEqual([
      { carrier: `pool:${poolId.c}`, exitChanged: false },
      { carrier: `pool:${poolId.b}`, exitChanged: true },
    ]);
    fake.c.recover();
    // C carries again (its run of failures ends).
    expect((await through(sticky)).exit).toBe('127.0.3.1');
  });

  it('never retries once bytes flow: a tunnel whose pool drops it closes, and no other pool is dialled', async () => {
    const { username } = await trafficToken('nl');
    // D (priority 1, one connection at most) carries the first tunnel.
    const t = await openTunnel({ proxyPort: gateway.port, username, password: 'secret', port: origin.port });
    expect(t.head).toMatch(/^HTTP\/1\.1 200/);
    t.socket.write(`GET / HTTP/1.1\r\nHost: x\r\n\r\n`);
    await until(() => t.received() > 0);
    const bTunnels = fake.b.stats().tunnels;
    // While it is open, D is full here: another connection goes to B.
    expect((await through(username)).exit).toMatch(/^127\.0\.2\./);
    expect(gateway.store.pools.openCount(poolId.d)).toBe(1);
    // The pool drops the tunnel mid-way: the client's connection ends; nothing is dialled again for it.
    const tunnelsBefore = fake.b.stats().tunnels;
    await fake.d.close();
    await t.closed;
    expect(fake.b.stats().tunnels).toBe(tunnelsBefore);
    expect(tunnelsBefore).toBe(bTunnels + 1);
    await until(() => gateway.store.pools.openCount(poolId.d) === 0);
  });

  it('opens a pool circuit after consecutive failures, skips it, and closes it after a successful half-open trial', async () => {
    const { id, username } = await trafficToken('jp');
    fake.c.fail();
    const dials = () => fake.c.stats().connections;
    const start = dials();
    for (let i = 0; i < 3; i++) expect((await through(username)).exit).toMatch(/^127\.0\.2\./);
    expect(dials()).toBe(start + 3);
    // Open: skipped without a dial, the next candidate carries; a sticky session moves, and its row says so.
    for (let i = 0; i < 2; i++) expect((await through(`${username}-session-skip${i}`)).exit).toMatch(/^127\.0\.2\./);
    expect(dials()).toBe(start + 3);
    await until(
      async () => (await handle.db.select().from(usageLogEntries).where(eq(usageLogEntries.tokenId, id))).length === 5,
    );
    const moved = await handle.db
      .select({ carrier: usageLogEntries.carrier, exitChanged: usageLogEntries.exitChanged })
      .from(usageLogEntries)
      .where(and(eq(usageLogEntries.tokenId, id), eq(usageLogEntries.exitChanged, true)));
    expect(moved).toEqual([
      { carrier: `pool:${poolId.b}`, exitChanged: true },
      { carrier: `pool:${poolId.b}`, exitChanged: true },
    ]);
    await gateway.store.reportPoolHealth();
    const [open] = await handle.db.select().from(poolHealth).where(eq(poolHealth.poolId, poolId.c));
    expect(open.circuitOpenUntil).not.toBeNull();
    expect(open.refusals.refused).toBeGreaterThanOrEqual(3);
    // Half-open after its time: one trial, which fails and opens it again at once.
    clock += 31_000;
    expect((await through(username)).exit).toMatch(/^127\.0\.2\./);
    expect(dials()).toBe(start + 4);
    expect((await through(username)).exit).toMatch(/^127\.0\.2\./);
    expect(dials()).toBe(start + 4);
    // Recovered: the next trial succeeds and closes the circuit.
    fake.c.recover();
    clock += 31_000;
    expect((await through(username)).exit).toBe('127.0.3.1');
    expect((await through(username)).exit).toBe('127.0.3.1');
    expect(dials()).toBe(start + 6);
  });

  it('opens the circuit of a country a pool refuses, not of the pool, and says the area is not served', async () => {
    const socks = await trafficToken('fr', 'SOCKS5');
    const { username } = await trafficToken('fr');
    const refusals = () => fake.c.stats().areaRefusals;
    const start = refusals();
    expect((await through(socks.username, 'socks5')).socksReply).toBe(0x02);
    for (let i = 0; i < 2; i++) expect((await through(username, 'connect')).reason).toBe('area-not-served');
    // Open for the country: refused as not served without a dial.
    expect((await through(username, 'http')).reason).toBe('area-not-served');
    expect(refusals()).toBe(start + 3);
    await gateway.store.reportPoolHealth();
    const [row] = await handle.db.select().from(poolHealth).where(eq(poolHealth.poolId, poolId.c));
    expect(row.openAreas).toEqual(['fr']);
    expect(row.circuitOpenUntil).toBeNull();
    // The pool still carries its other countries.
    const jp = await trafficToken('jp');
    expect((await through(jp.username)).exit).toBe('127.0.3.1');
  });

  it('attributes every metered byte to the pool that carried it: per pool as the pools counted, summing to the usage', async () => {
    const { id, username } = await trafficToken('us');
    const seenBy = () => ({
      a: fake.a.stats().bytesUp + fake.a.stats().bytesDown,
      b: fake.b.stats().bytesUp + fake.b.stats().bytesDown,
    });
    const before = seenBy();
    for (let s = 1; s <= 6; s++) {
      const res = await viaProxy({
        proxyPort: gateway.port,
        username: `${username}-session-attr${s}`,
        password: 'secret',
        url: `http://127.0.0.1:${origin.port}/bytes/${s * 10_000}`,
        via: 'connect',
      });
      expect(res.status).toBe(200);
    }
    const carried = async () =>
      handle.db
        .select({ kind: carrierUsage.carrierKind, carrierId: carrierUsage.carrierId, bytes: carrierUsage.bytes })
        .from(carrierUsage)
        .where(eq(carrierUsage.tokenId, id));
    const expected = () => {
      const now = seenBy();
      return { a: now.a - before.a, b: now.b - before.b };
    };
    const connectionsOf = async () => {
      const [row] = await handle.db
        .select({ n: sql<number>`coalesce(sum(${carrierUsage.connections}), 0)::int` })
        .from(carrierUsage)
        .where(and(eq(carrierUsage.tokenId, id), eq(carrierUsage.country, 'us')));
      return Number(row.n);
    };
    await until(async () => {
      const rows = await carried();
      const used = await usedBytesOf(handle.db, id);
      const want = expected();
      const isSummed = rows.reduce((n, r) => n + r.bytes, 0) === used && used === want.a + want.b && used > 0;
      return isSummed && (await connectionsOf()) === 6;
    });
    const rows = await carried();
    const want = expected();
    const byPool = (pool: number) => rows.filter((r) => r.kind === 'pool' && r.carrierId === pool);
    expect(byPool(poolId.a).reduce((n, r) => n + r.bytes, 0)).toBe(want.a);
    expect(byPool(poolId.b).reduce((n, r) => n + r.bytes, 0)).toBe(want.b);
    expect(want.a).toBeGreaterThan(0);
    expect(want.b).toBeGreaterThan(0);
    const [usage] = await handle.db
      .select({ bytes: sql<number>`sum(${tokenUsage.bytes})::bigint` })
      .from(tokenUsage)
      .where(eq(tokenUsage.tokenId, id));
    expect(Number(usage.bytes)).toBe(want.a + want.b);
  });

  it('attributes bytes of an exit to the exit, beside a pool of the same area', async () => {
    // Italy: the exit and B, both of priority 10: sessions share them.
    const exitId = await insertExit(handle.db, { kind: 'residential', egress: 'direct', country: 'it' });
    const { id, username } = await trafficToken('it');
    // Sessions until both have carried some (the choice hashes the clock's window too, so how many it takes varies;
    // 40 sessions all on one of two is about 1 in 10^7).
    const italyTunnels = () => fake.b.tunnels.filter((t) => t.country === 'it').length;
    const before = italyTunnels();
    let sessions = 0;
    while (sessions < 40) {
      sessions += 1;
      expect((await through(`${username}-session-ex${sessions}`)).status).toBe(200);
      const byPool = italyTunnels() - before;
      if (byPool > 0 && byPool < sessions) break;
    }
    await until(async () => {
      const rows = await handle.db.select().from(carrierUsage).where(eq(carrierUsage.tokenId, id));
      const used = await usedBytesOf(handle.db, id);
      const connections = rows.reduce((n, r) => n + r.connections, 0);
      return connections === sessions && rows.reduce((n, r) => n + r.bytes, 0) === used;
    });
    const rows = await handle.db.select().from(carrierUsage).where(eq(carrierUsage.tokenId, id));
    expect(rows.some((r) => r.carrierKind === 'exit' && r.carrierId === exitId && r.bytes > 0)).toBe(true);
    expect(rows.some((r) => r.carrierKind === 'pool' && r.bytes > 0)).toBe(true);
  });

  it('never shows the pool password: not to the customer, not in the errors, the usage log or the health rows', async () => {
    const { id, username } = await trafficToken('se');
    const res = await through(username, 'http');
    expect(res.reason).toBe('pool-down');
    expect(res.body).not.toContain(PASSWORD);
    expect(fake.e.stats().badCredentials).toBeGreaterThan(0);
    await gateway.store.reportPoolHealth();
    const [row] = await handle.db.select().from(poolHealth).where(eq(poolHealth.poolId, poolId.e));
    expect(row.refusals['bad-credentials']).toBeGreaterThan(0);
    await until(
      async () => (await handle.db.select().from(usageLogEntries).where(eq(usageLogEntries.tokenId, id))).length > 0,
    );
    const logged = JSON.stringify(await handle.db.select().from(usageLogEntries));
    const health = JSON.stringify(await handle.db.select().from(poolHealth));
    for (const text of [logged, health, errors.join('\n'), res.body]) expect(text).not.toContain(PASSWORD);
  });

  it('leaves out a pool whose password it cannot open (another key), naming the pool, never the password', async () => {
    const seen: string[] = [];
    const other = await startGateway({
      db: handle.db,
      host: '127.0.0.1',
      port: 0,
      policy: { allowPrivateTargets: true, echoUrls: [] },
      secretBox: createSecretBox(Buffer.alloc(32, 10)),
      onError: (error) => seen.push(String(error)),
    });
    try {
      expect(other.store.stats().pools).toBe(0);
      expect(seen.join('\n')).toContain(`pool ${poolId.a} is not used: its password is sealed under another`);
      expect(seen.join('\n')).not.toContain(PASSWORD);
    } finally {
      await other.close();
    }
  });

  it("reports each pool's figures to pool_health on the heartbeat, and removes them with the instance", async () => {
    const { username } = await trafficToken('de');
    expect((await through(username)).exit).toMatch(/^127\.0\.1\./);
    await until(async () => {
      const rows = await handle.db.select().from(poolHealth).where(eq(poolHealth.poolId, poolId.a));
      return rows.length === 1 && rows[0].attempts > 0 && rows[0].reportedAt.getTime() > Date.now() - 60_000;
    });
    const [a] = await handle.db.select().from(poolHealth).where(eq(poolHealth.poolId, poolId.a));
    expect(a.successes).toBeGreaterThan(0);
    expect(a.connectMsTotal).toBeGreaterThanOrEqual(0);
    const ids = (await handle.db.select({ poolId: poolHealth.poolId }).from(poolHealth)).map((r) => r.poolId);
    expect(ids.sort((x, y) => x - y)).toEqual(Object.values(poolId).sort((x, y) => x - y));
    const other = await startGateway({
      db: handle.db,
      host: '127.0.0.1',
      port: 0,
      policy: { allowPrivateTargets: true, echoUrls: [] },
      now: () => clock,
      secretBox: box,
    });
    await other.store.reportPoolHealth();
    const count = async () => (await handle.db.select().from(poolHealth)).length;
    expect(await count()).toBe(10);
    await other.close();
    expect(await count()).toBe(5);
  });
});
