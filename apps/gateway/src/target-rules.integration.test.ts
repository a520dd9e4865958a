import dns from 'node:dns';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { proxyTokens, targetRuleLists, type TDbHandle } from '@proxy/db';
import { startGateway, type TGateway } from './index';
import {
  bump,
  createTestDatabase,
  insertExit,
  insertToken,
  insertUser,
  listen,
  startOrigin,
  startUpstreamHttpProxy,
  until,
} from '../test/fixtures';
import { viaProxy, type TProxyVia } from '../test/proxy-clients';
import { SOCKS_REPLY } from './socks5';

// Target rules on the real gateway: real sockets, a real database, local origins on 127.0.0.1 and ::1.
let handle: TDbHandle;
let gateway: TGateway;
let origin: Awaited<ReturnType<typeof startOrigin>>;
let origin6: { port: number; close(): void };
let localhostOrigin: { port: number; close(): void };
let seq = 0;

const PROTOCOLS: TProxyVia[] = ['http', 'connect', 'socks5'];

// An origin on a given address (the IPv6 loopback, or where "localhost" resolves).
async function startOriginAt(host: string): Promise<{ port: number; close(): void }> {
  const server = http.createServer((_req, res) => res.end(`origin at ${host}`));
  const port = await listen(server, host);
  return { port, close: () => server.close() };
}

// A token of the network the protocol needs (HTTP forward and CONNECT: HTTP; SOCKS5: SOCKS5).
async function tokenPair(owner: number, values: Partial<typeof proxyTokens.$inferInsert> = {}) {
  seq += 1;
  const http = `rule${seq}h`;
  const socks = `rule${seq}s`;
  const httpId = await insertToken(handle.db, { userId: owner, username: http, product: 'dynamic', ...values });
  const socksId = await insertToken(handle.db, {
    userId: owner,
    username: socks,
    product: 'dynamic',
    network: 'SOCKS5',
    ...values,
  });
  return { http, socks, ids: [httpId, socksId] };
}

async function setRules(owner: number, tokenId: number | null, mode: 'deny' | 'allow', rules: string[]): Promise<void> {
  await handle.db.execute(
    tokenId === null
      ? sql`DELETE FROM target_rule_lists WHERE user_id = ${owner} AND token_id IS NULL`
      : sql`DELETE FROM target_rule_lists WHERE token_id = ${tokenId}`,
  );
  await handle.db.insert(targetRuleLists).values({ userId: owner, tokenId, mode, rules, updatedAt: new Date() });
  await bump(handle.db);
  await gateway.store.refresh();
}

// What a client sees for one request: "ok" (the origin answered), or the refusal reason (SOCKS5: the reply code).
async function outcome(pair: { http: string; socks: string }, via: TProxyVia, url: string): Promise<string> {
  const answer = await viaProxy({
    proxyPort: gateway.port,
    username: via === 'socks5' ? pair.socks : pair.http,
    password: 'secret',
    url,
    via,
  });
  if (via === 'socks5')
    return answer.socksReply === 0
      ? answer.status === 200
        ? 'ok'
        : `status ${answer.status}`
      : `socks ${answer.socksReply}`;
  if (answer.status === 200 && !answer.reason) return 'ok';
  return answer.reason ?? `status ${answer.status}`;
}

// The three protocols' outcomes for one URL, as { http, connect, socks5 }.
async function outcomes(pair: { http: string; socks: string }, url: string): Promise<Record<TProxyVia, string>> {
  const result = {} as Record<TProxyVia, string>;
  for (const via of PROTOCOLS) result[via] = await outcome(pair, via, url);
  return result;
}

const BLOCKED = {
  http: 'target-blocked-by-rule',
  connect: 'target-blocked-by-rule',
  socks5: `socks ${SOCKS_REPLY.notAllowed}`,
};
const OK = { http: 'ok', connect: 'ok', socks5: 'ok' };

beforeAll(async () => {
  handle = await createTestDatabase();
  origin = await startOrigin();
  origin6 = await startOriginAt('::1');
  localhostOrigin = await startOriginAt((await dns.promises.lookup('localhost')).address);
  await insertExit(handle.db, { kind: 'residential', egress: 'direct', country: 'us' });
  gateway = await startGateway({
    db: handle.db,
    host: '127.0.0.1',
    port: 0,
    policy: { allowPrivateTargets: true, echoUrls: [] },
    pollIntervalMs: 100,
    flushIntervalMs: 200,
    sampleIntervalMs: 100,
    leaseBytes: 64 * 1024,
  });
});

afterAll(async () => {
  await gateway?.close();
  origin?.close();
  origin6?.close();
  localhostOrigin?.close();
  await handle?.close();
});

describe('target rules at the gateway', () => {
  it('deny list: refuses a denied name and its subdomains before any lookup, on all three protocols', async () => {
    const owner = await insertUser(handle.db);
    const pair = await tokenPair(owner);
    await setRules(owner, null, 'deny', ['blocked.invalid', '*.sub.invalid']);
    expect(await outcomes(pair, `http://blocked.invalid:${origin.port}/`)).toEqual(BLOCKED);
    expect(await outcomes(pair, `http://a.b.BLOCKED.invalid:${origin.port}/`)).toEqual(BLOCKED);
    expect(await outcomes(pair, `http://x.sub.invalid:${origin.port}/`)).toEqual(BLOCKED);
    // "*.sub.invalid" is the subdomains only: the name itself is looked up (and does not exist).
    const parent = await outcomes(pair, `http://sub.invalid:${origin.port}/`);
    expect(parent.http).toBe('upstream-failed');
    expect(parent.connect).toBe('upstream-failed');
    expect(parent.socks5).not.toBe(BLOCKED.socks5);
    // Names not listed pass.
    expect(await outcomes(pair, `http://localhost:${localhostOrigin.port}/`)).toEqual(OK);
  });

  it('deny list: refuses literal IPv4 and IPv6 addresses in denied blocks; others pass', async () => {
    const owner = await insertUser(handle.db);
    const pair = await tokenPair(owner);
    await setRules(owner, null, 'deny', ['127.0.0.0/8', '::1/128']);
    expect(await outcomes(pair, `http://127.0.0.1:${origin.port}/`)).toEqual(BLOCKED);
    expect(await outcomes(pair, `http://[::1]:${origin6.port}/`)).toEqual(BLOCKED);
    await setRules(owner, null, 'deny', ['127.0.0.2/32', '2001:db8::/32']);
    expect(await outcomes(pair, `http://127.0.0.1:${origin.port}/`)).toEqual(OK);
    expect(await outcomes(pair, `http://[::1]:${origin6.port}/`)).toEqual(OK);
  });

  it('refuses a name that resolves into a denied block (checked on the address dialled)', async () => {
    const owner = await insertUser(handle.db);
    const pair = await tokenPair(owner);
    await setRules(owner, null, 'deny', ['127.0.0.0/8', '::1']);
    expect(await outcomes(pair, `http://localhost:${localhostOrigin.port}/`)).toEqual(BLOCKED);
  });

  it('allow list: only listed names and addresses, including names that resolve into an allowed block', async () => {
    const owner = await insertUser(handle.db);
    const pair = await tokenPair(owner);
    await setRules(owner, null, 'allow', ['127.0.0.1']);
    expect(await outcomes(pair, `http://127.0.0.1:${origin.port}/`)).toEqual(OK);
    expect(await outcomes(pair, `http://[::1]:${origin6.port}/`)).toEqual(BLOCKED);
    await setRules(owner, null, 'allow', ['only.invalid']);
    // Names only: any other name is refused before a lookup, any address too.
    expect(await outcomes(pair, `http://other.invalid:${origin.port}/`)).toEqual(BLOCKED);
    expect(await outcomes(pair, `http://127.0.0.1:${origin.port}/`)).toEqual(BLOCKED);
    const resolved = (await dns.promises.lookup('localhost')).address;
    await setRules(owner, null, 'allow', [resolved]);
    expect(await outcomes(pair, `http://localhost:${localhostOrigin.port}/`)).toEqual(OK);
    await setRules(owner, null, 'allow', ['localhost', '2001:db8::/32']);
    expect(await outcomes(pair, `http://localhost:${localhostOrigin.port}/`)).toEqual(OK);
    expect(await outcomes(pair, `http://127.0.0.1:${origin.port}/`)).toEqual(BLOCKED);
  });

  it("a proxy's own list replaces the account's; removing it brings the account's back", async () => {
    const owner = await insertUser(handle.db);
    const own = await tokenPair(owner);
    const other = await tokenPair(owner);
    const url = `http://127.0.0.1:${origin.port}/`;
    await setRules(owner, null, 'deny', ['127.0.0.0/8']);
    for (const id of own.ids) await setRules(owner, id, 'deny', []);
    expect(await outcomes(own, url)).toEqual(OK);
    expect(await outcomes(other, url)).toEqual(BLOCKED);
    for (const id of own.ids) await setRules(owner, id, 'allow', ['example.com']);
    expect(await outcomes(own, url)).toEqual(BLOCKED);
    await handle.db.delete(targetRuleLists).where(eq(targetRuleLists.userId, owner));
    await bump(handle.db);
    await gateway.store.refresh();
    expect(await outcomes(own, url)).toEqual(OK);
    expect(await outcomes(other, url)).toEqual(OK);
  });

  it('meters no traffic for refused attempts', async () => {
    const owner = await insertUser(handle.db);
    const pair = await tokenPair(owner, { billing: 'traffic', trafficLimitBytes: 10 * 1024 * 1024 });
    await setRules(owner, null, 'deny', ['127.0.0.0/8', 'blocked.invalid']);
    for (let i = 0; i < 3; i++) {
      expect(await outcomes(pair, `http://127.0.0.1:${origin.port}/bytes/5000`)).toEqual(BLOCKED);
      expect(await outcomes(pair, `http://blocked.invalid:${origin.port}/`)).toEqual(BLOCKED);
    }
    await gateway.store.flush();
    const used = async () =>
      (
        await handle.db
          .select({ used: proxyTokens.trafficUsedBytes })
          .from(proxyTokens)
          .where(sql`${proxyTokens.id} IN (${pair.ids[0]}, ${pair.ids[1]})`)
      ).map((r) => r.used);
    expect(await used()).toEqual([0, 0]);
    // The same token carrying a request is metered: the check above could fail.
    await setRules(owner, null, 'deny', ['blocked.invalid']);
    expect(await outcome(pair, 'http', `http://127.0.0.1:${origin.port}/bytes/5000`)).toBe('ok');
    await until(async () => {
      await gateway.store.flush();
      return (await used()).some((n) => n >= 5000);
    });
  });

  it('checks names before an upstream exit by resolving them here', async () => {
    const owner = await insertUser(handle.db);
    const upstream = await startUpstreamHttpProxy({ localAddress: '127.0.0.1', username: 'u', password: 'p' });
    try {
      const nodeId = await insertExit(handle.db, {
        egress: 'http',
        host: '127.0.0.1',
        port: upstream.port,
        username: 'u',
        password: 'p',
        country: 'nz',
      });
      seq += 1;
      const username = `rule${seq}up`;
      await insertToken(handle.db, { userId: owner, username, exitNodeId: nodeId, country: 'nz' });
      const pair = { http: username, socks: username };
      await setRules(owner, null, 'deny', ['127.0.0.0/8', '::1']);
      for (const via of ['http', 'connect'] as const) {
        expect(await outcome(pair, via, `http://localhost:${localhostOrigin.port}/`)).toBe('target-blocked-by-rule');
        expect(await outcome(pair, via, `http://127.0.0.1:${origin.port}/`)).toBe('target-blocked-by-rule');
      }
      const before = upstream.connects;
      await setRules(owner, null, 'deny', ['blocked.invalid']);
      expect(await outcome(pair, 'connect', `http://localhost:${localhostOrigin.port}/`)).toBe('ok');
      expect(upstream.connects).toBe(before + 1);
    } finally {
      upstream.close();
    }
  });
});
