import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitNodes, proxyTokens } from '@proxy/db';
import { createMemoryMailer, createTestApp, type TTestApp } from '../../../test/helpers';
import { readGatewayVersion } from '../gateway/gateway-state.repository';
import { buyOk, createAdmin, createUser, creditFen, request, type TTestUser } from '../proxies/proxies-test-kit';
import { startDeadUpstream, startLocalEcho, startLocalUpstream, type TLocalUpstream } from './inventory-probe-test-kit';
import { openExitPassword } from './inventory-secrets';
import { importInventory } from './inventory.service';

// Operators' calls on exit nodes: list, edit, retire (with moving pinned proxies), probe now, stock.
describe('inventory nodes by operators', () => {
  const mailer = createMemoryMailer();
  let t: TTestApp;
  let oper: TTestUser;
  let ann: TTestUser;
  let live: TLocalUpstream;
  let dead: TLocalUpstream;
  let echo: Awaited<ReturnType<typeof startLocalEcho>>;
  const id: Record<string, number> = {};
  let tokenId: number;

  beforeAll(async () => {
    live = await startLocalUpstream({ localAddress: '127.0.0.2', username: 'u', password: 'p' });
    dead = await startDeadUpstream();
    // The echo answers a public address for the live upstream's outgoing address.
    echo = await startLocalEcho({ '127.0.0.2': '8.8.8.8' });
    t = await createTestApp({ mailer, config: { INVENTORY_PROBE_URL: echo.url, INVENTORY_PROBE_TIMEOUT_MS: '5000' } });
    oper = await createAdmin(t.app, t.deps, mailer, 'oper');
    ann = await createUser(t.app, mailer, 'ann');
    const csv = [
      `127.0.0.1:${live.port}:u:p,de,be,Berlin`,
      `127.0.0.1:${dead.port},de,be,Berlin`,
      '10.77.0.3:3128:x:y,de,be,Berlin',
      '10.77.0.4:3128,fr,idf,Paris',
    ].join('\n');
    expect(await importInventory(t.deps, csv, 'residential')).toMatchObject({ imported: 4 });
    for (const row of await t.db.db.select().from(exitNodes)) {
      const name =
        row.port === live.port
          ? 'live'
          : row.port === dead.port
            ? 'dead'
            : row.host === '10.77.0.3'
              ? 'spare'
              : 'paris';
      id[name] = row.id;
    }
    await creditFen(t.deps, ann.userId, 100_000);
    // A static IP in Berlin takes the first free upstream there: the live one.
    const bought = await buyOk(t.app, ann.token, '/token/static/ip', {
      category: 'isp',
      network: 'HTTP',
      country_id: 'de',
      state_id: 'be',
      quantity: 1,
      days: 1,
    });
    tokenId = bought.tokens[0].token_id;
  });
  afterAll(async () => {
    await t?.close();
    await live?.close();
    await dead?.close();
    await echo?.close();
  });

  const call = (
    method: 'GET' | 'PUT' | 'POST',
    path: string,
    body?: object,
    options: { token?: string; lang?: string } = {},
  ) => request(t.app, method, path, { token: options.token ?? oper.token, body, lang: options.lang ?? 'en' });
  const auditCount = async (route: string) =>
    (await call('GET', `/admin/audit/list?route=${route}`)).json().data.total as number;
  const nodeRow = async (nodeId: number) => (await t.db.db.select().from(exitNodes).where(eq(exitNodes.id, nodeId)))[0];

  it('lists nodes with their holder and pinned live proxies, never a password, and filters them', async () => {
    const all = await call('GET', '/admin/inventory/nodes?page=1&page_size=50');
    expect(all.statusCode).toBe(200);
    expect(all.json().data.total).toBe(4);
    const held = (await call('GET', '/admin/inventory/nodes?assignment=held')).json().data;
    expect(held.records).toEqual([
      expect.objectContaining({
        id: id.live,
        host: '127.0.0.1',
        port: live.port,
        username: 'u',
        has_password: true,
        holder_token_id: tokenId,
        pinned_tokens: 1,
        health: 'unknown',
      }),
    ]);
    expect(JSON.stringify(all.json().data)).not.toContain('"password"');
    expect(
      (await call('GET', '/admin/inventory/nodes?country=FR')).json().data.records.map((n: { id: number }) => n.id),
    ).toEqual([id.paris]);
    expect(
      (await call('GET', '/admin/inventory/nodes?keyword=10.77.0.3'))
        .json()
        .data.records.map((n: { id: number }) => n.id),
    ).toEqual([id.spare]);
    expect(
      (await call('GET', '/admin/inventory/nodes?assignment=free&kind=residential&status=active')).json().data.total,
    ).toBe(3);
    expect((await call('GET', '/admin/inventory/nodes?kind=datacenter')).json().data.total).toBe(0);

    const bad = await call('GET', '/admin/inventory/nodes?health=sick');
    expect([bad.statusCode, bad.json().data.issues[0].path]).toEqual([400, 'health']);
    expect(bad.json().msg).toBe('health: Invalid value');
    expect((await call('GET', '/admin/inventory/nodes', undefined, { token: ann.token })).statusCode).toBe(403);
    // Reads change nothing: no audit entries.
    expect(await auditCount('adminInventoryNodes')).toBe(0);
  });

  it('probes a node now: the live one is up with its exit IP and latency, the dead one down (gateways reload)', async () => {
    const up = await call('POST', `/admin/inventory/nodes/${id.live}/probe`);
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().data).toMatchObject({
      id: id.live,
      health: 'up',
      exit_ip: '8.8.8.8',
      probe_failures: 0,
      probe_error: null,
    });
    expect(up.json().data.latency_ms).toBeGreaterThanOrEqual(0);
    expect(up.json().data.checked_at).toEqual(expect.any(String));

    const version = await readGatewayVersion(t.db.db);
    const down = await call('POST', `/admin/inventory/nodes/${id.dead}/probe`);
    // INVENTORY_PROBE_FAILURES (2) attempts in one probe: marked down at once.
    expect(down.json().data).toMatchObject({
      health: 'down',
      exit_ip: null,
      probe_failures: 2,
      probe_error: expect.any(String),
    });
    expect(await readGatewayVersion(t.db.db)).toBeGreaterThan(version);
    expect(
      (await call('GET', '/admin/inventory/nodes?health=down')).json().data.records.map((n: { id: number }) => n.id),
    ).toEqual([id.dead]);

    expect((await call('POST', '/admin/inventory/nodes/999999/probe')).statusCode).toBe(404);
    expect((await call('POST', '/admin/inventory/nodes/abc/probe')).statusCode).toBe(400);
    expect(
      (await call('POST', `/admin/inventory/nodes/${id.live}/probe`, undefined, { token: ann.token })).statusCode,
    ).toBe(403);
    expect(await auditCount('adminInventoryNodeProbe')).toBeGreaterThanOrEqual(2);
  });

  it('refuses to retire a node a live proxy is pinned to (zh and en), then moves the proxy to a free node of the area', async () => {
    const refused = await call('POST', `/admin/inventory/nodes/${id.live}/retire`, {});
    expect([refused.statusCode, refused.json().code]).toEqual([409, 3101]);
    expect(refused.json().msg).toContain('1 live proxies pinned');
    const zh = await call('POST', `/admin/inventory/nodes/${id.live}/retire`, {}, { lang: 'zh' });
    expect(zh.json().msg).toContain('仍有 1 个有效代理绑定');
    expect((await nodeRow(id.live)).status).toBe('active');

    // Another area, a held node, itself, or nonsense: refused, nothing moves.
    for (const target of [id.paris, id.live]) {
      const wrong = await call('POST', `/admin/inventory/nodes/${id.live}/retire`, { move_to: target });
      expect([wrong.statusCode, wrong.json().code]).toEqual([409, 3102]);
    }
    const nonsense = await call('POST', `/admin/inventory/nodes/${id.live}/retire`, { move_to: 'x' });
    expect([nonsense.statusCode, nonsense.json().data.issues[0].path]).toEqual([400, 'move_to']);
    expect((await nodeRow(id.live)).holderTokenId).toBe(tokenId);

    const version = await readGatewayVersion(t.db.db);
    const moved = await call('POST', `/admin/inventory/nodes/${id.live}/retire`, { move_to: id.spare });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({
      moved_tokens: 1,
      moved_to: id.spare,
      node: { id: id.live, status: 'disabled', holder_token_id: null, pinned_tokens: 0 },
    });
    const [token] = await t.db.db.select().from(proxyTokens).where(eq(proxyTokens.id, tokenId));
    expect(token.exitNodeId).toBe(id.spare);
    expect((await nodeRow(id.spare)).holderTokenId).toBe(tokenId);
    expect(await readGatewayVersion(t.db.db)).toBeGreaterThan(version);

    // A node nobody is pinned to retires at once.
    expect((await call('POST', `/admin/inventory/nodes/${id.paris}/retire`, {})).json().data).toMatchObject({
      moved_tokens: 0,
      node: { status: 'disabled' },
    });
    expect((await call('POST', `/admin/inventory/nodes/${id.paris}/retire`, {}, { token: ann.token })).statusCode).toBe(
      403,
    );
    expect(await auditCount('adminInventoryNodeRetire')).toBeGreaterThanOrEqual(6);
  });

  it('edits a node: area, endpoint and status; bad input is a 400 naming the field and changes nothing', async () => {
    const base = {
      country: 'de',
      state: 'Berlin',
      city: '',
      host: '127.0.0.1',
      port: dead.port,
      username: null,
      status: 'active',
    };
    for (const [patch, path] of [
      [{ port: 70000 }, 'port'],
      [{ country: 'zz' }, 'country'],
      [{ host: 'a b' }, 'host'],
      [{ state: '', city: 'Berlin' }, 'city'],
      [{ status: 'retired' }, 'status'],
      [{ cost_per_day_fen: -1 }, 'cost_per_day_fen'],
      [{ cost_per_day_fen: 1.5 }, 'cost_per_day_fen'],
    ] as const) {
      const bad = await call('PUT', `/admin/inventory/nodes/${id.dead}`, { ...base, ...patch });
      expect([bad.statusCode, bad.json().data.issues?.[0]?.path], bad.body).toEqual([400, path]);
    }
    expect((await nodeRow(id.dead)).state).toBe('be');

    // A new endpoint forgets what the probe found about the old one.
    const edited = await call('PUT', `/admin/inventory/nodes/${id.dead}`, {
      ...base,
      host: '10.77.0.9',
      port: 8080,
      username: 'new',
      password: 's3cret',
      city: 'Mitte',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({
      host: '10.77.0.9',
      port: 8080,
      username: 'new',
      has_password: true,
      state: 'berlin',
      state_name: 'Berlin',
      city: 'mitte',
      health: 'unknown',
      probe_failures: 0,
    });
    // Stored sealed, never as typed.
    const sealed = (await nodeRow(id.dead)).password!;
    expect(sealed).toMatch(/^enc:v1:/);
    expect(openExitPassword(t.deps, sealed)).toBe('s3cret');
    // Leaving the password out keeps it.
    await call('PUT', `/admin/inventory/nodes/${id.dead}`, {
      ...base,
      host: '10.77.0.9',
      port: 8080,
      username: 'new',
      city: 'Mitte',
    });
    expect((await nodeRow(id.dead)).password).toBe(sealed);
    // The exit's cost per day (the economics): set, answered, and kept when left out.
    const costed = await call('PUT', `/admin/inventory/nodes/${id.dead}`, {
      ...base,
      host: '10.77.0.9',
      port: 8080,
      username: 'new',
      city: 'Mitte',
      cost_per_day_fen: 350,
    });
    expect(costed.json().data.cost_per_day_fen, costed.body).toBe(350);
    await call('PUT', `/admin/inventory/nodes/${id.dead}`, {
      ...base,
      host: '10.77.0.9',
      port: 8080,
      username: 'new',
      city: 'Mitte',
    });
    expect((await nodeRow(id.dead)).costPerDayFen).toBe(350);

    // The endpoint and area of another node: refused.
    const twin = await call('PUT', `/admin/inventory/nodes/${id.dead}`, {
      ...base,
      host: '10.77.0.3',
      port: 3128,
      username: 'x',
      state: 'be',
      city: 'Berlin',
    });
    expect([twin.statusCode, twin.json().code]).toEqual([409, 3104]);
    // Disabling the node a live proxy now uses: refused like a retirement.
    const spare = await call('PUT', `/admin/inventory/nodes/${id.spare}`, {
      ...base,
      host: '10.77.0.3',
      port: 3128,
      username: 'x',
      state: 'be',
      city: 'Berlin',
      status: 'disabled',
    });
    expect([spare.statusCode, spare.json().code]).toEqual([409, 3101]);
    expect((await nodeRow(id.spare)).status).toBe('active');

    expect((await call('PUT', '/admin/inventory/nodes/999999', base)).statusCode).toBe(404);
    expect((await call('PUT', `/admin/inventory/nodes/${id.dead}`, base, { token: ann.token })).statusCode).toBe(403);
    expect(await auditCount('adminInventoryNodeUpdate')).toBeGreaterThanOrEqual(9);
  });

  it('counts stock per area and kind with the query the area lists use', async () => {
    const stock = await call('GET', '/admin/inventory/stock?kind=residential');
    expect(stock.statusCode).toBe(200);
    const berlin = stock
      .json()
      .data.find((r: { country: string; state: string }) => r.country === 'de' && r.state === 'be');
    expect(berlin).toMatchObject({ kind: 'residential', active: 1, disabled: 1, held: 1, static_available: 0 });
    const countries = (await request(t.app, 'GET', '/token/list/area/countries', { token: ann.token })).json().data;
    const de = stock.json().data.filter((r: { country: string }) => r.country === 'de');
    expect(countries.find((c: { id: string }) => c.id === 'de').available).toBe(
      de.reduce((s: number, r: { static_available: number }) => s + r.static_available, 0),
    );
    const bad = await call('GET', '/admin/inventory/stock?kind=mobile');
    expect([bad.statusCode, bad.json().data.issues[0].path]).toEqual([400, 'kind']);
    expect((await call('GET', '/admin/inventory/stock', undefined, { token: ann.token })).statusCode).toBe(403);
    expect(await auditCount('adminInventoryStock')).toBe(0);
  });
});
