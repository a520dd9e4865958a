// Past ~400 lines: the gateway's real-path cases share one database copy, API and gateway started once
// (each test file starts its own).
import net from 'node:net';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { proxyTokens, tokenUsage, type TDbHandle } from '@proxy/db';
import { startGateway, type TGateway } from './index';
import {
  bump,
  createTestDatabase,
  describeOnPostgres,
  fetchViaProxy,
  insertExit,
  insertIpEntry,
  insertToken,
  insertUser,
  listen,
  startEcho,
  startOrigin,
  startUpstreamHttpProxy,
  until,
  usedBytesOf,
} from '../test/fixtures';
import { buildConnectRequest, buildUserPass } from './socks5';
import { ROTATION_MAX_MS, ROTATION_MIN_MS, rotationWindow } from './rotation';
import { viaProxy } from '../test/proxy-clients';
import { echoOnce, openTunnel, startEndlessOrigin, streamViaProxy } from '../test/live-connections';

// The real gateway against a real database, local origins and local upstream proxies.
let handle: TDbHandle;
let gateway: TGateway;
let clock = Date.now();
let origin: Awaited<ReturnType<typeof startOrigin>>;
let echo: Awaited<ReturnType<typeof startEcho>>;
let userId: number;

const usedBytes = (tokenId: number) => usedBytesOf(handle.db, tokenId);

beforeAll(async () => {
  handle = await createTestDatabase();
  origin = await startOrigin();
  echo = await startEcho();
  userId = await insertUser(handle.db);
  await insertExit(handle.db, { kind: 'residential', egress: 'direct', country: 'us' });
  gateway = await startGateway({
    db: handle.db,
    host: '127.0.0.1',
    port: 0,
    policy: { allowPrivateTargets: true, echoUrls: [] },
    now: () => clock,
    pollIntervalMs: 100,
    flushIntervalMs: 200,
    sampleIntervalMs: 100,
    leaseBytes: 64 * 1024,
  });
});

afterAll(async () => {
  await gateway?.close();
  origin.close();
  echo.close();
  await handle?.close();
});

describe('gateway with the database', () => {
  it('carries HTTP forward and CONNECT traffic for a valid static token, and writes the exact usage', async () => {
    const exitId = await insertExit(handle.db, { kind: 'residential', egress: 'direct', country: 'de' });
    const tokenId = await insertToken(handle.db, { userId, username: 'ustatic1', exitNodeId: exitId, country: 'de' });
    await bump(handle.db);
    await until(() => gateway.store.stats().tokens >= 1);
    const plain = await fetchViaProxy({
      proxyPort: gateway.port,
      username: 'ustatic1',
      password: 'secret',
      url: `http://127.0.0.1:${origin.port}/hello`,
    });
    expect(plain.status).toBe(200);
    expect(plain.body).toContain('seen-from=127.0.0.1');

    const t = await openTunnel({ proxyPort: gateway.port, username: 'ustatic1', password: 'secret', port: echo.port });
    expect(t.head).toMatch(/^HTTP\/1\.1 200/);
    const payload = Buffer.alloc(200_000, 1);
    t.socket.write(payload);
    await until(() => t.received() >= payload.length);
    t.socket.destroy();
    await t.closed;
    await until(async () => (await usedBytes(tokenId)) >= payload.length * 2);
    const used = await usedBytes(tokenId);
    // Forward request: its whole request and response; tunnel: exactly the payload both ways.
    expect(used - payload.length * 2).toBeGreaterThan(100);
    expect(used - payload.length * 2).toBeLessThan(1000);
    const buckets = await handle.db.select().from(tokenUsage).where(eq(tokenUsage.tokenId, tokenId));
    expect(buckets.reduce((s, b) => s + b.bytes, 0)).toBe(used);
  });

  it('refuses with distinct reasons: wrong password, disabled, expired, wrong protocol', async () => {
    await insertToken(handle.db, { userId, username: 'udisabled', status: 'disabled' });
    await insertToken(handle.db, { userId, username: 'uexpired', expiresAt: new Date(clock - 1000) });
    await insertToken(handle.db, { userId, username: 'usocks', network: 'SOCKS5', product: 'dynamic' });
    await bump(handle.db);
    await until(() => gateway.store.stats().tokens >= 4);
    const url = `http://127.0.0.1:${origin.port}/`;
    const reason = async (username: string, password = 'secret') =>
      (await fetchViaProxy({ proxyPort: gateway.port, username, password, url })).headers['x-proxy-reason'];
    expect(await reason('ustatic1', 'wrong')).toBe('bad-credentials');
    expect(await reason('nobody')).toBe('bad-credentials');
    expect(await reason('udisabled')).toBe('token-disabled');
    expect(await reason('uexpired')).toBe('token-expired');
    expect(await reason('usocks')).toBe('wrong-protocol');
  });

  // The spec's 5 seconds are the version row's poll (1 s, when a change notification is lost) and one pass:
  // the test waits for the cut and checks that the gateway's own sync brought it, not a clock.
  it('applies a disable at its next sync (within 5 seconds): new requests refused and live tunnels cut', async () => {
    const exitId = await insertExit(handle.db, { kind: 'residential', egress: 'direct', country: 'fr' });
    const tokenId = await insertToken(handle.db, { userId, username: 'ulive', exitNodeId: exitId, country: 'fr' });
    await bump(handle.db);
    await until(() => gateway.store.authorizer.findRefusal(tokenId, '127.0.0.1') === null);
    const t = await openTunnel({ proxyPort: gateway.port, username: 'ulive', password: 'secret', port: echo.port });
    expect(t.head).toMatch(/200/);
    const versionBefore = gateway.store.appliedVersion();
    await handle.db.update(proxyTokens).set({ status: 'disabled' }).where(eq(proxyTokens.id, tokenId));
    await bump(handle.db);
    await t.closed;
    // The sync cuts the tunnels of the rows it applies, then records the version it reached.
    await expect.poll(() => gateway.store.appliedVersion()).toBeGreaterThan(versionBefore);
    const after = await fetchViaProxy({
      proxyPort: gateway.port,
      username: 'ulive',
      password: 'secret',
      url: `http://127.0.0.1:${origin.port}/`,
    });
    expect(after.headers['x-proxy-reason']).toBe('token-disabled');
  });

  it('applies a password reset within 5 seconds', async () => {
    const tokenId = await insertToken(handle.db, { userId, username: 'ureset', product: 'dynamic' });
    await bump(handle.db);
    await until(() => gateway.store.authorizer.findRefusal(tokenId, '127.0.0.1') === null);
    const ok = await fetchViaProxy({
      proxyPort: gateway.port,
      username: 'ureset',
      password: 'secret',
      url: `http://127.0.0.1:${origin.port}/`,
    });
    expect(ok.status).toBe(200);
    await handle.db.update(proxyTokens).set({ password: 'fresh' }).where(eq(proxyTokens.id, tokenId));
    await bump(handle.db);
    await until(
      async () =>
        (
          await fetchViaProxy({
            proxyPort: gateway.port,
            username: 'ureset',
            password: 'secret',
            url: `http://127.0.0.1:${origin.port}/`,
          })
        ).status === 407,
    );
    const fresh = await fetchViaProxy({
      proxyPort: gateway.port,
      username: 'ureset',
      password: 'fresh',
      url: `http://127.0.0.1:${origin.port}/`,
    });
    expect(fresh.status).toBe(200);
  });

  // A reset ends what the old password opened, like a disable. No clock: a witness, a proxy disabled in the same
  // change, is cut by the same pass of the sweep that must cut the reset one's connections (both rows arrive in one
  // sync); once the witness is closed, the old tunnel and stream get a last chance to carry one more exchange.
  it('cuts a tunnel and a stream opened with the old password at the sync that applies a reset; the new one works', async () => {
    const tokenId = await insertToken(handle.db, { userId, username: 'urecut', product: 'dynamic' });
    const witnessId = await insertToken(handle.db, { userId, username: 'uwitness', product: 'dynamic' });
    await bump(handle.db);
    await until(() =>
      [tokenId, witnessId].every((id) => gateway.store.authorizer.findRefusal(id, '127.0.0.1') === null),
    );
    const stream = await startEndlessOrigin();
    const tunnel = await openTunnel({
      proxyPort: gateway.port,
      username: 'urecut',
      password: 'secret',
      port: echo.port,
    });
    expect(tunnel.head).toMatch(/^HTTP\/1\.1 200/);
    const download = await streamViaProxy({
      proxyPort: gateway.port,
      username: 'urecut',
      password: 'secret',
      url: `http://127.0.0.1:${stream.port}/endless`,
    });
    expect(download.status).toBe(200);
    const witness = await openTunnel({
      proxyPort: gateway.port,
      username: 'uwitness',
      password: 'secret',
      port: echo.port,
    });
    expect(witness.head).toMatch(/^HTTP\/1\.1 200/);
    expect(await echoOnce(tunnel)).toBe('echoed');
    expect(await download.next(stream.push)).toBe('data');

    const versionBefore = gateway.store.appliedVersion();
    await handle.db.transaction(async (tx) => {
      await tx.update(proxyTokens).set({ password: 'fresh' }).where(eq(proxyTokens.id, tokenId));
      await tx.update(proxyTokens).set({ status: 'disabled' }).where(eq(proxyTokens.id, witnessId));
      await tx.execute(sql`UPDATE gateway_state SET version = version + 1 WHERE id = 1`);
    });
    await witness.closed;
    expect(gateway.store.appliedVersion()).toBeGreaterThan(versionBefore);
    expect(await echoOnce(tunnel), 'the tunnel opened with the old password').toBe('closed');
    expect(await download.next(stream.push), 'the stream opened with the old password').toBe('closed');

    const url = `http://127.0.0.1:${origin.port}/`;
    const old = await fetchViaProxy({ proxyPort: gateway.port, username: 'urecut', password: 'secret', url });
    expect(old.headers['x-proxy-reason']).toBe('bad-credentials');
    const fresh = await fetchViaProxy({ proxyPort: gateway.port, username: 'urecut', password: 'fresh', url });
    expect(fresh.status).toBe(200);
    const freshTunnel = await openTunnel({
      proxyPort: gateway.port,
      username: 'urecut',
      password: 'fresh',
      port: echo.port,
    });
    expect(await echoOnce(freshTunnel)).toBe('echoed');
    freshTunnel.socket.destroy();
    stream.close();
  });

  it("enforces the owner's IP lists: blacklist refuses, a whitelist without the source refuses", async () => {
    const other = await insertUser(handle.db);
    await insertToken(handle.db, { userId: other, username: 'ulists', product: 'dynamic' });
    await insertIpEntry(handle.db, other, 'whitelist', '10.9.9.9');
    await bump(handle.db);
    const url = `http://127.0.0.1:${origin.port}/`;
    // A request in flight when the sync applies a list that refuses its source is cut (no answer): not yet.
    const answer = () =>
      fetchViaProxy({ proxyPort: gateway.port, username: 'ulists', password: 'secret', url }).catch((error: Error) => {
        if (/socket hang up|ECONNRESET/.test(error.message))
          return { status: 0, headers: {} as Record<string, string> };
        throw error;
      });
    await until(async () => (await answer()).headers['x-proxy-reason'] === 'source-refused');
    await handle.db.execute(sql`DELETE FROM ip_list_entries WHERE user_id = ${other}`);
    await bump(handle.db);
    await until(async () => (await answer()).status === 200);
    await insertIpEntry(handle.db, other, 'whitelist', '127.0.0.1');
    await insertIpEntry(handle.db, other, 'blacklist', '127.0.0.1');
    await bump(handle.db);
    // In both lists: refused.
    await until(async () => (await answer()).headers['x-proxy-reason'] === 'source-refused');
  });

  it('refuses an expired token once the clock passes its expiry, without any database change', async () => {
    const tokenId = await insertToken(handle.db, {
      userId,
      username: 'uclock',
      product: 'dynamic',
      expiresAt: new Date(clock + 60_000),
    });
    await bump(handle.db);
    await until(() => gateway.store.authorizer.findRefusal(tokenId, '127.0.0.1') === null);
    clock += 61_000;
    expect(gateway.store.authorizer.findRefusal(tokenId, '127.0.0.1')).toBe('token-expired');
  });

  it('cuts a live connection when the traffic allowance runs out and refuses new ones', async () => {
    const limit = 256 * 1024;
    const tokenId = await insertToken(handle.db, {
      userId,
      username: 'utraffic',
      product: 'dynamic',
      billing: 'traffic',
      trafficLimitBytes: limit,
      expiresAt: new Date(clock + 86_400_000),
    });
    await bump(handle.db);
    await until(() => gateway.store.authorizer.findRefusal(tokenId, '127.0.0.1') === null);
    const t = await openTunnel({ proxyPort: gateway.port, username: 'utraffic', password: 'secret', port: echo.port });
    expect(t.head).toMatch(/200/);
    const chunk = Buffer.alloc(16 * 1024, 2);
    const writer = setInterval(() => {
      if (!t.socket.destroyed) t.socket.write(chunk);
    }, 5);
    await t.closed;
    clearInterval(writer);
    await gateway.store.flush();
    const used = await usedBytes(tokenId);
    expect(used).toBeGreaterThanOrEqual(limit);
    // Overshoot is bounded by what flows in a sampling interval, not by the run time.
    expect(used).toBeLessThan(limit + 4 * 1024 * 1024);
    const again = await fetchViaProxy({
      proxyPort: gateway.port,
      username: 'utraffic',
      password: 'secret',
      url: `http://127.0.0.1:${origin.port}/`,
    });
    expect(again.headers['x-proxy-reason']).toBe('token-exhausted');
  });

  it('chains through upstream HTTP and SOCKS5 proxies with special-character credentials', async () => {
    const upstream = await startUpstreamHttpProxy({
      localAddress: '127.0.0.2',
      username: 'up user',
      password: 'p@ss:w/rd%',
    });
    const nodeId = await insertExit(handle.db, {
      egress: 'http',
      host: '127.0.0.1',
      port: upstream.port,
      username: 'up user',
      password: 'p@ss:w/rd%',
      country: 'jp',
    });
    await insertToken(handle.db, { userId, username: 'uchain', exitNodeId: nodeId, country: 'jp' });
    await bump(handle.db);
    await until(
      async () =>
        (
          await fetchViaProxy({
            proxyPort: gateway.port,
            username: 'uchain',
            password: 'secret',
            url: `http://127.0.0.1:${origin.port}/`,
          })
        ).status === 200,
    );
    const viaTunnel = await fetchViaProxy({
      proxyPort: gateway.port,
      username: 'uchain',
      password: 'secret',
      url: `http://127.0.0.1:${origin.port}/`,
      tunnel: true,
    });
    expect(viaTunnel.body).toContain('seen-from=127.0.0.2');
    upstream.close();

    // A SOCKS5 upstream: another gateway engine speaking SOCKS5 with its own credentials.
    const { createGatewayServer } = await import('./gateway-server');
    const socksUpstream = createGatewayServer({
      authorizer: {
        authorize: ({ username, password }) =>
          username === 's:user' && password === 'p w@d'
            ? { tokenId: 1, exits: [{ id: 0, kind: 'direct' }], maxConnections: 10 }
            : 'bad-credentials',
        findRefusal: () => null,
      },
      meter: { record() {} },
      policy: { allowPrivateTargets: true, echoUrls: [] },
    });
    const socksPort = await listen(socksUpstream.server);
    const socksNode = await insertExit(handle.db, {
      egress: 'socks5',
      host: '127.0.0.1',
      port: socksPort,
      username: 's:user',
      password: 'p w@d',
      country: 'kr',
    });
    const socksToken = await insertToken(handle.db, {
      userId,
      username: 'usockschain',
      exitNodeId: socksNode,
      country: 'kr',
      network: 'SOCKS5',
    });
    await bump(handle.db);
    // A sync puts tokens in the copy as they are read and the exits once all is read: wait for the whole
    // version (the token and its new exit), not the token alone.
    await gateway.store.refresh();
    expect(gateway.store.authorizer.findRefusal(socksToken, '127.0.0.1')).toBeNull();
    const s = net.connect(gateway.port, '127.0.0.1');
    let got = Buffer.alloc(0);
    s.on('data', (d) => (got = Buffer.concat([got, d])));
    s.write(Buffer.from([5, 1, 2]));
    await until(() => got.length >= 2);
    s.write(buildUserPass('usockschain', 'secret'));
    await until(() => got.length >= 4);
    s.write(buildConnectRequest('127.0.0.1', echo.port));
    await until(() => got.length >= 14);
    expect(got[5]).toBe(0);
    s.write('ping');
    await until(() => got.length >= 18);
    expect(got.subarray(14).toString()).toBe('ping');
    s.destroy();
    await socksUpstream.close();
  });

  it('rotates a dynamic token between two upstreams at clock-anchored 3-5 minute windows and holds a sticky session to its window', async () => {
    const a = await startUpstreamHttpProxy({ localAddress: '127.0.0.3', username: 'a', password: 'a' });
    const b = await startUpstreamHttpProxy({ localAddress: '127.0.0.4', username: 'b', password: 'b' });
    await insertExit(handle.db, {
      egress: 'http',
      host: '127.0.0.1',
      port: a.port,
      username: 'a',
      password: 'a',
      country: 'gb',
      city: 'london',
    });
    await insertExit(handle.db, {
      egress: 'http',
      host: '127.0.0.1',
      port: b.port,
      username: 'b',
      password: 'b',
      country: 'gb',
      city: 'london',
    });
    const tokenId = await insertToken(handle.db, {
      userId,
      username: 'urotate',
      product: 'dynamic',
      country: 'gb',
      expiresAt: new Date(clock + 86_400_000),
    });
    await bump(handle.db);
    const seen = async (username: string) =>
      /seen-from=([\d.]+)/.exec(
        (
          await fetchViaProxy({
            proxyPort: gateway.port,
            username,
            password: 'secret',
            url: `http://127.0.0.1:${origin.port}/`,
            tunnel: true,
          })
        ).body,
      )?.[1];
    await until(async () => (await seen('urotate')) !== undefined);
    const window = rotationWindow({ tokenId, now: clock });
    expect(window.lengthMs).toBeGreaterThanOrEqual(ROTATION_MIN_MS);
    expect(window.lengthMs).toBeLessThanOrEqual(ROTATION_MAX_MS);
    const first = await seen('urotate');
    expect(['127.0.0.3', '127.0.0.4']).toContain(first);
    // The exit holds to the end of the window, then changes; and again at the end of the next.
    clock = window.endsAt - 1000;
    expect(await seen('urotate')).toBe(first);
    clock = window.endsAt + 1000;
    const second = await seen('urotate');
    expect(second).not.toBe(first);
    clock = window.endsAt + window.lengthMs - 1000;
    expect(await seen('urotate')).toBe(second);
    clock = window.endsAt + window.lengthMs + 1000;
    expect(await seen('urotate')).toBe(first);
    // A sticky session of 30 minutes holds, checked each minute, to the end of its 30-minute window, then changes.
    const sticky = 'urotate-country-gb-city-london-session-s1-sesstime-30';
    const stickyWindow = rotationWindow({ tokenId, session: 's1', sesstimeMinutes: 30, now: clock });
    expect(stickyWindow.lengthMs).toBe(30 * 60_000);
    const held = await seen(sticky);
    while (clock + 60_000 < stickyWindow.endsAt) {
      clock += 60_000;
      expect(await seen(sticky)).toBe(held);
    }
    clock = stickyWindow.endsAt + 1000;
    expect(await seen(sticky)).not.toBe(held);
    a.close();
    b.close();
  });

  it('skips a failing upstream: a dynamic token falls back to the next exit of its area', async () => {
    const alive = await startUpstreamHttpProxy({ localAddress: '127.0.0.5', username: 'ok', password: 'ok' });
    const deadServer = net.createServer();
    const deadPort = await listen(deadServer);
    await new Promise((r) => deadServer.close(r));
    await insertExit(handle.db, {
      egress: 'http',
      host: '127.0.0.1',
      port: deadPort,
      username: 'x',
      password: 'x',
      country: 'nl',
    });
    await insertExit(handle.db, {
      egress: 'http',
      host: '127.0.0.1',
      port: alive.port,
      username: 'ok',
      password: 'ok',
      country: 'nl',
    });
    const tokenId = await insertToken(handle.db, {
      userId,
      username: 'ufailover',
      product: 'dynamic',
      country: 'nl',
      expiresAt: new Date(clock + 86_400_000),
    });
    await bump(handle.db);
    await until(() => gateway.store.authorizer.findRefusal(tokenId, '127.0.0.1') === null);
    // Whichever exit rotation picks, every request gets through: the dead one is tried, marked, and skipped.
    for (let i = 0; i < 6; i++) {
      clock += 6 * 60_000;
      const res = await fetchViaProxy({
        proxyPort: gateway.port,
        username: 'ufailover',
        password: 'secret',
        url: `http://127.0.0.1:${origin.port}/`,
        tunnel: true,
      });
      expect(res.body).toContain('seen-from=127.0.0.5');
    }
    alive.close();
  });

  it('returns to its baseline of open files after 1,000 connections with resets and half-closes', async () => {
    const fdCount = () => readdirSync('/proc/self/fd').length;
    const tokenId = await insertToken(handle.db, {
      userId,
      username: 'ufiles',
      product: 'dynamic',
      expiresAt: new Date(clock + 86_400_000),
    });
    await bump(handle.db);
    // Settled before counting: the copy has the token (its sync done), earlier tests' connections are closed,
    // and their usage is written.
    await gateway.store.refresh();
    expect(gateway.store.authorizer.findRefusal(tokenId, '127.0.0.1')).toBeNull();
    await until(() => gateway.connectionCount() === 0);
    await gateway.store.flush();
    const baseline = fdCount();
    const auth = `Proxy-Authorization: Basic ${Buffer.from('ufiles:secret').toString('base64')}\r\n`;
    for (let batch = 0; batch < 20; batch++) {
      await Promise.all(
        Array.from(
          { length: 50 },
          (_, i) =>
            new Promise<void>((resolve) => {
              const s = net.connect(gateway.port, '127.0.0.1');
              s.on('error', () => {});
              s.on('close', () => resolve());
              s.write(`CONNECT 127.0.0.1:${echo.port} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`);
              s.once('data', () => {
                if (i % 3 === 0) s.resetAndDestroy();
                else if (i % 3 === 1) s.end('half-close');
                else {
                  s.write('x');
                  s.destroy();
                }
              });
            }),
        ),
      );
    }
    await until(() => gateway.connectionCount() === 0);
    await until(() => fdCount() <= baseline + 2);
  });
});

describe('credentials the copy does not know', () => {
  it('costs a bounded number of lookups for a flood of 1,000 unknown usernames, all refused', async () => {
    const before = gateway.store.stats().lookups;
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        viaProxy({
          proxyPort: gateway.port,
          username: `nobody${i}`,
          password: 'x',
          url: `http://127.0.0.1:${origin.port}/`,
          via: 'http',
        }),
      ),
    );
    const elapsed = performance.now() - started;
    expect(answers.filter((a) => a.status === 407 && a.reason === 'bad-credentials')).toHaveLength(1000);
    const lookups = gateway.store.stats().lookups - before;
    expect(lookups).toBeGreaterThan(0);
    // One query at a time, rounds at least 10 ms apart, at most 500 names each: never one query per name.
    expect(lookups).toBeLessThanOrEqual(Math.ceil(elapsed / 10) + 2);
    expect(lookups).toBeLessThan(1000);
  });
});

describe('names PostgreSQL text cannot hold', () => {
  // One request through HTTP forward with raw bytes as the username; answers the status and X-Proxy-Reason.
  function rawForward(username: Buffer, password: string): Promise<{ status: number; reason: string | undefined }> {
    const auth = Buffer.concat([username, Buffer.from(`:${password}`)]).toString('base64');
    return new Promise((resolve, reject) => {
      const socket = net.connect(gateway.port, '127.0.0.1');
      let got = Buffer.alloc(0);
      socket.on('error', reject);
      socket.on('data', (d) => {
        got = Buffer.concat([got, d]);
        const end = got.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = got.toString('latin1', 0, end);
        socket.destroy();
        resolve({
          status: Number(head.split(' ')[1]),
          reason: /^x-proxy-reason: (.*)$/im.exec(head)?.[1],
        });
      });
      socket.write(
        `GET http://127.0.0.1:${origin.port}/ HTTP/1.1\r\nHost: 127.0.0.1\r\nProxy-Authorization: Basic ${auth}\r\nConnection: close\r\n\r\n`,
      );
    });
  }

  it('refuses a flood of NUL and invalid UTF-8 names without failing the look-up of brand-new proxies asked among them', async () => {
    // Bought a moment ago: not in the copy (no version bump), so each is found by a look-up, amid the flood.
    const fresh = ['unulfresh1', 'unulfresh2', 'unulfresh3', 'unulfresh4', 'unulfresh5'];
    for (const username of fresh) await insertToken(handle.db, { userId, username, product: 'dynamic' });
    const bad = (i: number) =>
      i % 2 === 0
        ? Buffer.from(`nul${i}\0x`)
        : Buffer.concat([Buffer.from(`bad${i}`), Buffer.from([0xc3, 0x28, 0xff])]);
    const lookupsBefore = gateway.store.stats().lookups;
    const flood: Promise<{ status: number; reason: string | undefined }>[] = [];
    const good: Promise<{ status: number; reason: string | undefined }>[] = [];
    for (let i = 0; i < 300; i++) {
      flood.push(rawForward(bad(i), 'x'));
      if (i % 60 === 30) good.push(rawForward(Buffer.from(fresh[good.length]), 'secret'));
    }
    const refused = await Promise.all(flood);
    expect(refused.filter((a) => a.status === 407 && a.reason === 'bad-credentials')).toHaveLength(300);
    expect((await Promise.all(good)).map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    // The flood's names were refused without a look: a query at most for each brand-new name.
    expect(gateway.store.stats().lookups - lookupsBefore).toBeLessThanOrEqual(fresh.length);
  });
});

describe('two gateways, no shared state', () => {
  it('put one sticky session on one exit, and move it to the same next exit at the same window', async () => {
    const upstreams = await Promise.all(
      ['127.0.0.11', '127.0.0.12', '127.0.0.13', '127.0.0.14'].map((localAddress) =>
        startUpstreamHttpProxy({ localAddress, username: 'u', password: 'p' }),
      ),
    );
    for (const u of upstreams)
      await insertExit(handle.db, {
        egress: 'http',
        host: '127.0.0.1',
        port: u.port,
        username: 'u',
        password: 'p',
        country: 'se',
      });
    // One account per session: an account's live sessions never share an exit (exit-claims.ts), which would move
    // a session off its rendezvous choice whenever another of them holds it.
    const tokens: number[] = [];
    for (let i = 1; i <= 3; i++)
      tokens.push(
        await insertToken(handle.db, {
          userId: await insertUser(handle.db),
          username: `utwogw${i}`,
          product: 'dynamic',
          country: 'se',
          expiresAt: new Date(clock + 86_400_000),
        }),
      );
    await bump(handle.db);
    const second = await startGateway({
      db: handle.db,
      host: '127.0.0.1',
      port: 0,
      policy: { allowPrivateTargets: true, echoUrls: [] },
      now: () => clock,
    });
    try {
      await gateway.store.refresh();
      const seen = async (port: number, username: string) =>
        /seen-from=([\d.]+)/.exec(
          (
            await viaProxy({
              proxyPort: port,
              username,
              password: 'secret',
              url: `http://127.0.0.1:${origin.port}/`,
              via: 'connect',
            })
          ).body,
        )?.[1];
      for (const [i, session] of ['s1', 's2', 's3'].entries()) {
        const tokenId = tokens[i];
        const username = `utwogw${i + 1}-session-${session}-sesstime-5`;
        const window = rotationWindow({ tokenId, session, sesstimeMinutes: 5, now: clock });
        const exit = await seen(gateway.port, username);
        expect(exit).toMatch(/^127\.0\.0\.1[1-4]$/);
        for (let i = 0; i < 3; i++) expect(await seen(second.port, username)).toBe(exit);
        const saved = clock;
        clock = window.endsAt + 1000;
        const next = await seen(second.port, username);
        expect(next).not.toBe(exit);
        expect(await seen(gateway.port, username)).toBe(next);
        clock = saved;
      }
    } finally {
      await second.close();
      for (const u of upstreams) u.close();
    }
  });
});

describeOnPostgres('two gateways on one PostgreSQL', () => {
  it('share the traffic allowance through leases: the total stays within the limit plus one lease each', async () => {
    const second = await startGateway({
      db: handle.db,
      host: '127.0.0.1',
      port: 0,
      policy: { allowPrivateTargets: true, echoUrls: [] },
      now: () => clock,
      pollIntervalMs: 100,
      flushIntervalMs: 200,
      sampleIntervalMs: 50,
      leaseBytes: 64 * 1024,
    });
    try {
      const limit = 512 * 1024;
      const tokenId = await insertToken(handle.db, {
        userId,
        username: 'ushared',
        product: 'dynamic',
        billing: 'traffic',
        trafficLimitBytes: limit,
        expiresAt: new Date(clock + 86_400_000),
      });
      await bump(handle.db);
      await until(
        () =>
          gateway.store.authorizer.findRefusal(tokenId, '127.0.0.1') === null &&
          second.store.authorizer.findRefusal(tokenId, '127.0.0.1') === null,
      );
      const pump = async (port: number) => {
        const s = net.connect(port, '127.0.0.1');
        s.on('error', () => {});
        const closed = new Promise<void>((r) => s.on('close', () => r()));
        s.write(
          `CONNECT 127.0.0.1:${echo.port} HTTP/1.1\r\nHost: x\r\nProxy-Authorization: Basic ${Buffer.from('ushared:secret').toString('base64')}\r\n\r\n`,
        );
        const timer = setInterval(() => s.writable && s.write(Buffer.alloc(8 * 1024, 5)), 5);
        await closed;
        clearInterval(timer);
      };
      await Promise.all([pump(gateway.port), pump(second.port)]);
      await gateway.store.flush();
      await second.store.flush();
      const used = await usedBytes(tokenId);
      expect(used).toBeGreaterThanOrEqual(limit * 0.9);
      expect(used).toBeLessThan(limit + 2 * 2 * 1024 * 1024);
    } finally {
      await second.close();
    }
  });
});
