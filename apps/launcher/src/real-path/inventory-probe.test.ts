import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitNodes } from '@proxy/db';
import { buyOk, createUser, creditFen, importInventory, request, type TTestUser } from '@proxy/server/testing';
import { createInventoryProbeJob } from '@proxy/server/features/inventory/inventory-probe.job';
import {
  startDeadUpstream,
  startLocalEcho,
  startLocalUpstream,
  type TLocalUpstream,
} from '@proxy/server/features/inventory/inventory-probe-test-kit';
import { getThroughHttpProxy, startApiWithGateway } from '../../test/api-with-gateway';

// The inventory probe on the real path: three local upstream proxies in one
// area (two alive, leaving from 127.0.0.2 and 127.0.0.3; one dead, closing
// every connection it accepts, and counting them), a local IP echo that
// answers 8.8.8.8 for traffic from 127.0.0.2 (a loopback address has no
// country; a public one has), the API and the embedded gateway.
describe('inventory probe through local upstreams', () => {
  let t: Awaited<ReturnType<typeof startApiWithGateway>>;
  let user: TTestUser;
  let echo: Awaited<ReturnType<typeof startLocalEcho>>;
  let pinned: TLocalUpstream;
  let dead: TLocalUpstream;
  let spare: TLocalUpstream;
  const id: Record<'pinned' | 'dead' | 'spare', number> = { pinned: 0, dead: 0, spare: 0 };
  let staticId: number;
  let dynamic: { username: string; password: string };

  beforeAll(async () => {
    echo = await startLocalEcho({ '127.0.0.2': '8.8.8.8', '127.0.0.3': '9.9.9.9' });
    pinned = await startLocalUpstream({ localAddress: '127.0.0.2', username: 'a', password: 'pa' });
    dead = await startDeadUpstream();
    spare = await startLocalUpstream({ localAddress: '127.0.0.3', username: 'c', password: 'pc' });
    // The probe's URL defaults to the proxy test's echo: here the local one, which the gateway lets through.
    t = await startApiWithGateway(
      { TOKEN_TEST_ECHO_URL: echo.url, DIRECT_EXIT_COUNTRY: 'jp', INVENTORY_PROBE_TIMEOUT_MS: '5000' },
      { echoUrls: [echo.url] },
    );
    const csv = [
      `127.0.0.1:${pinned.port}:a:pa,us`,
      `127.0.0.1:${dead.port}:b:pb,us`,
      `127.0.0.1:${spare.port}:c:pc,us`,
    ].join('\n');
    expect(await importInventory(t.deps, csv, 'residential')).toMatchObject({ imported: 3 });
    for (const row of await t.db.db.select().from(exitNodes).where(eq(exitNodes.country, 'us'))) {
      id[row.port === pinned.port ? 'pinned' : row.port === dead.port ? 'dead' : 'spare'] = row.id;
    }
    user = await createUser(t.app, t.mailer, 'probe');
    await creditFen(t.deps, user.userId, 100_000);
    // The static IP takes the first free upstream (the one leaving from 127.0.0.2); the dynamic token rotates among the other two.
    staticId = (
      await buyOk(t.app, user.token, '/token/static/ip', {
        category: 'isp',
        network: 'HTTP',
        country_id: 'us',
        quantity: 1,
        days: 1,
      })
    ).tokens[0].token_id;
    dynamic = (
      await buyOk(t.app, user.token, '/token/variable/traffic', {
        network: 'HTTP',
        country_id: 'us',
        quantity: 1,
        traffic_gb: 0.1,
      })
    ).tokens[0];
  });
  afterAll(async () => {
    await t?.close();
    for (const server of [pinned, dead, spare, echo]) await server?.close();
  });

  const node = async (nodeId: number) => (await t.db.db.select().from(exitNodes).where(eq(exitNodes.id, nodeId)))[0];

  it('marks the dead upstream down in one pass, the live ones up with the exit IP the echo saw; the next dynamic connections avoid the dead one', async () => {
    const probe = createInventoryProbeJob(t.deps);
    // One pass of the periodic job: what one probe interval does.
    expect(await probe.runOnce()).toBe(3);
    expect(await node(id.dead)).toMatchObject({ health: 'down', exitIp: null, probeFailures: 2 });
    expect(await node(id.pinned)).toMatchObject({ health: 'up', exitIp: '8.8.8.8', probeFailures: 0 });
    expect(await node(id.spare)).toMatchObject({ health: 'up', exitIp: '9.9.9.9' });
    expect((await node(id.spare)).latencyMs).toBeGreaterThanOrEqual(0);

    // The pass bumped the gateway version; apply it here now rather than wait for the poll.
    await t.gateway.store.refresh();
    const deadDials = dead.connections();
    // Sessions spread a dynamic token over its area's exits (rendezvous hashing): with the dead one
    // still a candidate, twelve sessions would all miss it by chance once in 4096 runs.
    for (let session = 1; session <= 12; session += 1) {
      const url = `http://${dynamic.username}-session-s${session}:${dynamic.password}@127.0.0.1:${t.gateway.port}`;
      const echoed = await getThroughHttpProxy(url, `http://127.0.0.1:${t.apiPort}/api/proxy/echo`);
      expect(echoed.status, echoed.body).toBe(200);
      expect(JSON.parse(echoed.body).data.ip).toBe('127.0.0.3');
    }
    expect(dead.connections()).toBe(deadDials);
  });

  it('a second pass changes nothing for the gateways: no version bump while health and exit IPs stay', async () => {
    const { readGatewayVersion } = await import('@proxy/server/testing');
    const version = await readGatewayVersion(t.db.db);
    await createInventoryProbeJob(t.deps).runOnce();
    expect(await readGatewayVersion(t.db.db)).toBe(version);
  });

  it("the proxy test of the static IP on the probed exit reports the exit's IP and country", async () => {
    expect((await node(id.pinned)).holderTokenId).toBe(staticId);
    const test = (await request(t.app, 'GET', `/token/test/${staticId}`, { token: user.token, lang: 'en' })).json()
      .data;
    expect(test).toMatchObject({ ok: true, exit_ip: '8.8.8.8', country: { code: 'US' } });
    expect(test.exit_ip).toBe((await node(id.pinned)).exitIp);
  });

  it('a static IP bought after the pass is never the dead exit, and its SOCKS5 proxy test goes through the exit too', async () => {
    const socks = (
      await buyOk(t.app, user.token, '/token/static/ip', {
        category: 'isp',
        network: 'SOCKS5',
        country_id: 'us',
        quantity: 1,
        days: 1,
      })
    ).tokens[0];
    expect((await node(id.spare)).holderTokenId).toBe(socks.token_id);
    expect((await node(id.dead)).holderTokenId).toBeNull();
    const test = (
      await request(t.app, 'GET', `/token/test/${socks.token_id}`, { token: user.token, lang: 'en' })
    ).json().data;
    // The echo answers 9.9.9.9 only to connections from the spare upstream's address: the test went through it.
    expect(test).toMatchObject({ ok: true, exit_ip: '9.9.9.9' });
  });
});
