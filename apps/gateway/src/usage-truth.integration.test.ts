// Bytes not charged (docs/gateway.md, "Bytes not charged"): a dynamic traffic proxy through a real fake pool on
// loopback, the real gateway on a real database. Each way a connection can fail on the pool's side before the
// target answers is tried, and what the customer is charged, what is metered as not charged, and what the pool
// carried are compared exactly.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import {
  carrierUsage,
  createSecretBox,
  domainUsage,
  POOL_PASSWORD_PURPOSE,
  pools,
  proxyTokens,
  stickySessions,
  tokenUsage,
  usageLogEntries,
  usageLogSettings,
  users,
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
  listen,
  startOrigin,
  until,
} from '../test/fixtures';
import { openTunnel } from '../test/live-connections';
import { viaProxy } from '../test/proxy-clients';
import { UNANSWERED_MAX_BYTES } from './connection-registry';
import { rotationWindow } from './rotation';

const box = createSecretBox(Buffer.alloc(32, 7));
const PASSWORD = 'pool-pass';
const OXY = 'customer-{user}-cc-{country}[-sessid-{session}-sesstime-{minutes}]';

let handle: TDbHandle;
let gateway: TGateway;
let origin: Awaited<ReturnType<typeof startOrigin>>;
let fake: TFakePool;
let poolId: number;
// Two pools serving de: the first (priority 1) carries while it answers, the second takes over.
let deFirst: TFakePool;
let deSecond: TFakePool;
let deFirstId: number;
let deSecondId: number;
let clock = Date.now();
let userId: number;
// A TCP server that accepts and never answers (a slow target), and a port nothing listens on.
let silent: net.Server;
let silentPort: number;
const errors: string[] = [];

let tokenSeq = 0;
async function trafficToken(owner = userId, country = 'us'): Promise<{ id: number; username: string }> {
  tokenSeq += 1;
  const username = `truth${tokenSeq}`;
  const id = await insertToken(handle.db, {
    userId: owner,
    username,
    product: 'dynamic',
    billing: 'traffic',
    network: 'HTTP',
    country,
    trafficLimitBytes: 1024 ** 3,
    expiresAt: new Date(Date.now() + 30 * 86_400_000),
  });
  await bump(handle.db);
  await until(() => gateway.store.authorizer.findRefusal(id, '127.0.0.1') === null);
  return { id, username };
}

/** What the database holds for a token: charged and uncharged bytes, the used counter, its pool's share, its log. */
async function figuresOf(tokenId: number) {
  const [usage] = await handle.db
    .select({
      bytes: sql<string>`coalesce(sum(${tokenUsage.bytes}), 0)`,
      uncharged: sql<string>`coalesce(sum(${tokenUsage.unchargedBytes}), 0)`,
    })
    .from(tokenUsage)
    .where(eq(tokenUsage.tokenId, tokenId));
  const [token] = await handle.db
    .select({ used: proxyTokens.trafficUsedBytes })
    .from(proxyTokens)
    .where(eq(proxyTokens.id, tokenId));
  const [carried] = await handle.db
    .select({
      bytes: sql<string>`coalesce(sum(${carrierUsage.bytes}), 0)`,
      uncharged: sql<string>`coalesce(sum(${carrierUsage.unchargedBytes}), 0)`,
    })
    .from(carrierUsage)
    .where(eq(carrierUsage.tokenId, tokenId));
  const log = await handle.db
    .select({
      outcome: usageLogEntries.outcome,
      reason: usageLogEntries.reason,
      up: usageLogEntries.bytesUp,
      uncharged: usageLogEntries.unchargedBytes,
    })
    .from(usageLogEntries)
    .where(eq(usageLogEntries.tokenId, tokenId))
    .orderBy(usageLogEntries.endedAt);
  const domains = await handle.db
    .select({ domain: domainUsage.domain, bytes: domainUsage.bytes, connections: domainUsage.connections })
    .from(domainUsage)
    .where(eq(domainUsage.tokenId, tokenId));
  return {
    domains,
    charged: Number(usage.bytes),
    uncharged: Number(usage.uncharged),
    used: token.used,
    poolCharged: Number(carried.bytes),
    poolUncharged: Number(carried.uncharged),
    log,
  };
}

/** A CONNECT through the gateway whose dial fails at the pool: the refusal's reason. */
async function refusedReason(username: string, port: number): Promise<string | undefined> {
  const res = await viaProxy({
    proxyPort: gateway.port,
    username,
    password: 'secret',
    url: `http://127.0.0.1:${port}/`,
    via: 'connect',
  });
  expect(res.status).toBe(502);
  return res.reason;
}

beforeAll(async () => {
  handle = await createTestDatabase();
  origin = await startOrigin();
  silent = net.createServer((socket) => socket.on('error', () => socket.destroy()));
  silentPort = await listen(silent);
  fake = await startFakePool({
    protocol: 'http-connect',
    template: OXY,
    user: 'acme',
    password: PASSWORD,
    areas: [{ country: 'US' }],
    exitAddresses: ['127.0.6.1', '127.0.6.2'],
    now: () => clock,
  });
  deFirst = await startFakePool({
    protocol: 'http-connect',
    template: OXY,
    user: 'acme',
    password: PASSWORD,
    areas: [{ country: 'DE' }],
    exitAddresses: ['127.0.7.1'],
  });
  deSecond = await startFakePool({
    protocol: 'http-connect',
    template: OXY,
    user: 'acme',
    password: PASSWORD,
    areas: [{ country: 'DE' }],
    exitAddresses: ['127.0.7.2'],
  });
  userId = await insertUser(handle.db);
  await handle.db.insert(usageLogSettings).values({ userId, enabled: true, retentionDays: 3 });
  const [row] = await handle.db
    .insert(pools)
    .values({
      name: 'truth',
      kind: 'residential',
      protocol: 'http-connect',
      endpoints: [{ host: fake.host, port: fake.port }],
      username: 'acme',
      password: box.seal(PASSWORD, POOL_PASSWORD_PURPOSE),
      usernameTemplate: OXY,
      areaCase: 'upper',
      status: 'enabled',
      coverageMode: 'list',
      coverage: [{ country: 'us', state: '', city: '' }],
      exitIpHeader: 'X-Exit-IP',
      sessionIdleMinutes: 5,
    })
    .returning({ id: pools.id });
  poolId = row.id;
  const dePool = async (name: string, f: TFakePool, priority: number) => {
    const [de] = await handle.db
      .insert(pools)
      .values({
        name,
        kind: 'residential',
        protocol: 'http-connect',
        endpoints: [{ host: f.host, port: f.port }],
        username: 'acme',
        password: box.seal(PASSWORD, POOL_PASSWORD_PURPOSE),
        usernameTemplate: OXY,
        areaCase: 'upper',
        status: 'enabled',
        priority,
        coverageMode: 'list',
        coverage: [{ country: 'de', state: '', city: '' }],
      })
      .returning({ id: pools.id });
    return de.id;
  };
  deFirstId = await dePool('de-first', deFirst, 1);
  deSecondId = await dePool('de-second', deSecond, 10);
  gateway = await startGateway({
    db: handle.db,
    host: '127.0.0.1',
    port: 0,
    policy: { allowPrivateTargets: true, echoUrls: [] },
    secretBox: box,
    now: () => clock,
    pollIntervalMs: 100,
    flushIntervalMs: 100,
    sampleIntervalMs: 50,
    leaseBytes: 64 * 1024,
    connectTimeoutMs: 400,
    // Failures here must not open the pool's circuit for the next case.
    poolBreakerFailures: 1000,
    poolBreakerOpenMs: 1,
    onError: (error) => errors.push(String((error as Error)?.stack ?? error)),
  });
});

afterAll(async () => {
  await gateway?.close();
  origin?.close();
  silent?.close();
  await fake?.close();
  await deFirst?.close();
  await deSecond?.close();
  await handle?.close();
});

describe('bytes not charged: lost on the pool side before the target answered', () => {
  it('a tunnel the pool drops before any answer: its bytes are metered on the pool as not charged, the allowance untouched', async () => {
    const { id, username } = await trafficToken();
    fake.drop();
    try {
      const t = await openTunnel({ proxyPort: gateway.port, username, password: 'secret', port: origin.port });
      expect(t.head).toMatch(/^HTTP\/1\.1 200/);
      const request = `GET /bytes/5000 HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(900)}\r\n\r\n`;
      t.socket.write(request);
      await t.closed;
      expect(t.received()).toBe(0);
      const sent = Buffer.byteLength(request);
      await until(async () => (await figuresOf(id)).uncharged === sent && (await figuresOf(id)).log.length === 1);
      const f = await figuresOf(id);
      expect(f).toMatchObject({ charged: 0, uncharged: sent, used: 0, poolCharged: 0, poolUncharged: sent });
      expect(f.log).toEqual([{ outcome: 'closed', reason: null, up: sent, uncharged: sent }]);
      expect(fake.stats().dropped).toBeGreaterThan(0);
    } finally {
      fake.recover();
    }
    // Answered, the same proxy is charged as always, to the byte.
    const res = await viaProxy({
      proxyPort: gateway.port,
      username,
      password: 'secret',
      url: `http://127.0.0.1:${origin.port}/bytes/3000`,
      via: 'connect',
    });
    expect(res.status).toBe(200);
    await until(async () => (await figuresOf(id)).charged > 3000);
    const after = await figuresOf(id);
    expect(after.used).toBe(after.charged);
    expect(after.poolCharged).toBe(after.charged);
    expect(after.uncharged).toBe(after.poolUncharged);
    // Usage by domain: the target's domain (an address is its own) carries charged plus uncharged bytes exactly.
    await until(async () => (await figuresOf(id)).domains[0]?.connections === 2);
    expect((await figuresOf(id)).domains).toEqual([
      { domain: '127.0.0.1', bytes: after.charged + after.uncharged, connections: 2 },
    ]);
  });

  it('records no usage by domain for an account that turned it off', async () => {
    const other = await insertUser(handle.db);
    await handle.db.update(users).set({ domainUsageEnabled: false }).where(eq(users.id, other));
    const id = await insertToken(handle.db, {
      userId: other,
      username: 'truthoff',
      product: 'dynamic',
      billing: 'traffic',
      network: 'HTTP',
      country: 'us',
      trafficLimitBytes: 1024 ** 3,
      expiresAt: new Date(Date.now() + 30 * 86_400_000),
    });
    await bump(handle.db);
    await until(() => gateway.store.authorizer.findRefusal(id, '127.0.0.1') === null);
    const res = await viaProxy({
      proxyPort: gateway.port,
      username: 'truthoff',
      password: 'secret',
      url: `http://127.0.0.1:${origin.port}/bytes/2000`,
      via: 'connect',
    });
    expect(res.status).toBe(200);
    await until(async () => (await figuresOf(id)).charged > 2000);
    expect((await figuresOf(id)).domains).toEqual([]);
  });

  it("the pool's refusal and a pool that does not answer in time: what was exchanged with it is not charged", async () => {
    for (const fail of ['refuse', 'stall'] as const) {
      const { id, username } = await trafficToken();
      const before = fake.stats().socketBytes;
      if (fail === 'refuse') fake.fail();
      else fake.stall();
      try {
        expect(await refusedReason(username, origin.port)).toBe('pool-down');
      } finally {
        fake.recover();
      }
      // What the pool's sockets read and wrote (the gateway's CONNECT requests, its refusals): the pool may bill it.
      await until(() => fake.stats().socketBytes > before);
      const exchanged = fake.stats().socketBytes - before;
      // The usage log is its own batch: both are awaited.
      await until(async () => {
        const now = await figuresOf(id);
        return now.poolUncharged === exchanged && now.log.length === 1;
      });
      const f = await figuresOf(id);
      expect(f).toMatchObject({ charged: 0, uncharged: exchanged, used: 0, poolCharged: 0 });
      expect(f.log).toEqual([{ outcome: 'refused', reason: 'pool-down', up: exchanged, uncharged: exchanged }]);
    }
  });

  it('a pool that cannot be reached: nothing exchanged, nothing charged', async () => {
    const closed = net.createServer();
    const port = await listen(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await handle.db
      .update(pools)
      .set({ endpoints: [{ host: '127.0.0.1', port }] })
      .where(eq(pools.id, poolId));
    await bump(handle.db);
    try {
      const { id, username } = await trafficToken();
      expect(await refusedReason(username, origin.port)).toBe('pool-down');
      await until(async () => (await figuresOf(id)).log.length === 1);
      const f = await figuresOf(id);
      expect(f).toMatchObject({ charged: 0, uncharged: 0, used: 0, poolCharged: 0, poolUncharged: 0 });
    } finally {
      await handle.db
        .update(pools)
        .set({ endpoints: [{ host: fake.host, port: fake.port }] })
        .where(eq(pools.id, poolId));
      await bump(handle.db);
    }
  });

  it('a client that resets a tunnel to a slow target is charged; past the bound, unanswered bytes are charged as they pass', async () => {
    const { id, username } = await trafficToken();
    const upBefore = fake.stats().bytesUp;
    const t = await openTunnel({ proxyPort: gateway.port, username, password: 'secret', port: silentPort });
    expect(t.head).toMatch(/^HTTP\/1\.1 200/);
    t.socket.write('x'.repeat(500));
    await until(() => fake.stats().bytesUp >= upBefore + 500);
    // A reset: the client is gone (a FIN would only half-close: the target may still answer).
    t.socket.resetAndDestroy();
    await until(async () => (await figuresOf(id)).charged === 500);
    expect(await figuresOf(id)).toMatchObject({ charged: 500, uncharged: 0, used: 500 });

    // More than UNANSWERED_MAX_BYTES sent with no answer: charged while the tunnel is still open.
    const big = await openTunnel({ proxyPort: gateway.port, username, password: 'secret', port: silentPort });
    const size = UNANSWERED_MAX_BYTES + 1000;
    big.socket.write('y'.repeat(size));
    await until(async () => (await figuresOf(id)).charged === 500 + size);
    big.socket.resetAndDestroy();
    await big.closed;
    expect(errors).toEqual([]);
  });
});

describe('the session hold report: how long each sticky session kept its exit, and why it ended early', () => {
  const sessionsOf = async (tokenId: number) =>
    handle.db
      .select({
        session: stickySessions.session,
        askedMinutes: stickySessions.askedMinutes,
        carrier: stickySessions.carrier,
        exitIp: stickySessions.exitIp,
        endReason: stickySessions.endReason,
        changedAt: stickySessions.changedAt,
        connections: stickySessions.connections,
      })
      .from(stickySessions)
      .where(eq(stickySessions.tokenId, tokenId));
  const get = (username: string, session: string, minutes = 30) =>
    viaProxy({
      proxyPort: gateway.port,
      username: `${username}-session-${session}-sesstime-${minutes}`,
      password: 'secret',
      url: `http://127.0.0.1:${origin.port}/`,
      via: 'connect',
    });
  // Moves the clock to the start of the session's window, so that minutes can pass within it.
  const atWindowStart = (tokenId: number, session: string, minutes = 30) => {
    const w = rotationWindow({ tokenId, session, sesstimeMinutes: minutes, now: clock });
    clock = w.endsAt - w.lengthMs + 1000;
  };

  it('a session that kept its exit: asked minutes, the pool, the exit address the pool reported, its connections', async () => {
    const { id, username } = await trafficToken(await insertUser(handle.db));
    atWindowStart(id, 'held1');
    for (let i = 0; i < 3; i++) expect((await get(username, 'held1')).status).toBe(200);
    await until(async () => (await sessionsOf(id))[0]?.connections === 3);
    expect(await sessionsOf(id)).toEqual([
      {
        session: 'held1',
        askedMinutes: 30,
        carrier: `pool:${poolId}`,
        exitIp: expect.stringMatching(/^127\.0\.6\.[12]$/),
        endReason: null,
        changedAt: null,
        connections: 3,
      },
    ]);
  });

  it('the pool changed the exit of a live session: exit-changed, at that moment', async () => {
    const { id, username } = await trafficToken(await insertUser(handle.db));
    atWindowStart(id, 'moved1');
    expect((await get(username, 'moved1')).status).toBe(200);
    fake.forgetSessions();
    clock += 60_000;
    const changedAt = clock;
    expect((await get(username, 'moved1')).status).toBe(200);
    await until(async () => (await sessionsOf(id))[0]?.endReason === 'exit-changed');
    expect((await sessionsOf(id))[0].changedAt?.getTime()).toBe(changedAt);
  });

  it("idle past the pool's session limit: idle, from the end of the limit", async () => {
    const { id, username } = await trafficToken(await insertUser(handle.db));
    atWindowStart(id, 'idle1');
    expect((await get(username, 'idle1')).status).toBe(200);
    const lastUse = clock;
    // The pool keeps an idle session 5 minutes; 6 pass.
    clock += 6 * 60_000;
    expect((await get(username, 'idle1')).status).toBe(200);
    await until(async () => (await sessionsOf(id))[0]?.endReason === 'idle');
    expect((await sessionsOf(id))[0].changedAt?.getTime()).toBe(lastUse + 5 * 60_000);
  });

  it('its pool failed and failover moved it: failover; a session that only ever used one pool held', async () => {
    const { id, username } = await trafficToken(await insertUser(handle.db), 'de');
    atWindowStart(id, 'fo1');
    expect((await get(username, 'fo1')).status).toBe(200);
    deFirst.fail();
    try {
      clock += 30_000;
      expect((await get(username, 'fo1')).status).toBe(200);
    } finally {
      deFirst.recover();
    }
    await until(async () => (await sessionsOf(id))[0]?.endReason === 'failover');
    expect((await sessionsOf(id))[0]).toMatchObject({ carrier: `pool:${deFirstId}`, connections: 2 });
    expect(deSecondId).toBeGreaterThan(deFirstId);
  });

  it('the proxy stopped while the session carried traffic: proxy-stopped', async () => {
    const { id, username } = await trafficToken(await insertUser(handle.db));
    atWindowStart(id, 'stop1');
    const t = await openTunnel({
      proxyPort: gateway.port,
      username: `${username}-session-stop1-sesstime-30`,
      password: 'secret',
      port: origin.port,
    });
    expect(t.head).toMatch(/^HTTP\/1\.1 200/);
    await handle.db.update(proxyTokens).set({ status: 'disabled' }).where(eq(proxyTokens.id, id));
    await bump(handle.db);
    await t.closed;
    await until(async () => (await sessionsOf(id))[0]?.endReason === 'proxy-stopped');
  });
});

describe("exits not shared between an account's live sticky sessions", () => {
  const carrierOf = async (tokenId: number, session: string) => {
    await until(async () => {
      const rows = await handle.db
        .select({ carrier: stickySessions.carrier })
        .from(stickySessions)
        .where(and(eq(stickySessions.tokenId, tokenId), eq(stickySessions.session, session)));
      return rows.length === 1;
    });
    const [row] = await handle.db
      .select({ carrier: stickySessions.carrier })
      .from(stickySessions)
      .where(and(eq(stickySessions.tokenId, tokenId), eq(stickySessions.session, session)));
    return row.carrier;
  };
  const get = (username: string, session: string) =>
    viaProxy({
      proxyPort: gateway.port,
      username: `${username}-session-${session}-sesstime-30`,
      password: 'secret',
      url: `http://127.0.0.1:${origin.port}/`,
      via: 'connect',
    });

  it('inventory exits: each live session of an account gets its own; none left, a clear refusal; another account shares', async () => {
    const exits = [
      await insertExit(handle.db, { country: 'fr', city: 'paris' }),
      await insertExit(handle.db, { country: 'fr', city: 'lyon' }),
    ];
    await bump(handle.db);
    const owner = await insertUser(handle.db);
    const a = await trafficToken(owner, 'fr');
    const b = await trafficToken(owner, 'fr');
    expect((await get(a.username, 'one')).status).toBe(200);
    expect((await get(b.username, 'two')).status).toBe(200);
    const first = await carrierOf(a.id, 'one');
    const second = await carrierOf(b.id, 'two');
    expect(new Set([first, second])).toEqual(new Set(exits.map((id) => `exit:${id}`)));
    // The same session again keeps its exit.
    expect((await get(a.username, 'one')).status).toBe(200);
    // A third session of the account: both exits are held.
    const third = await get(a.username, 'three');
    expect([third.status, third.reason]).toEqual([503, 'exit-in-use']);
    // Another account's session is not held back by them.
    const stranger = await trafficToken(await insertUser(handle.db), 'fr');
    expect((await get(stranger.username, 'one')).status).toBe(200);
    // Once the sessions' windows are over, their exits are free again.
    clock += 31 * 60_000;
    expect((await get(a.username, 'three')).status).toBe(200);
  });

  it('a pool that reports its exit address: a session given an address another session holds moves on, else is refused', async () => {
    const owner = await insertUser(handle.db);
    const a = await trafficToken(owner);
    fake.forgetSessions();
    // The pool hands its two addresses out in turn: the first two sessions get one each, the third the first's again.
    expect((await get(a.username, 'p1')).status).toBe(200);
    expect((await get(a.username, 'p2')).status).toBe(200);
    const third = await get(a.username, 'p3');
    expect([third.status, third.reason]).toEqual([503, 'exit-in-use']);
    expect((await get(a.username, 'p1')).status).toBe(200);
  });
});
