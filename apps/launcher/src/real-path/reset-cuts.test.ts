import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoOnce, openTunnel, startEcho, startEndlessOrigin, streamViaProxy, viaProxy } from '@proxy/gateway/testing';
import { buyOk, createUser, readGatewayVersion, request, type TTestUser } from '@proxy/server/testing';
import { startApiWithGateway } from '../../test/api-with-gateway';

// PUT /api/token/reset/{id} ends what the old password opened, as a disable does. No clock: after the reset, a
// witness (another proxy of the same account) is disabled; the sweep that cuts the witness has the reset too.
describe.each(['embedded', 'separate'] as const)('a password reset through the %s gateway', (mode) => {
  let t: Awaited<ReturnType<typeof startApiWithGateway>>;
  let ann: TTestUser;
  let echo: Awaited<ReturnType<typeof startEcho>>;
  let origin: Awaited<ReturnType<typeof startEndlessOrigin>>;

  beforeAll(async () => {
    echo = await startEcho();
    origin = await startEndlessOrigin();
    t = await startApiWithGateway({}, { mode, allowPrivateTargets: true });
    ann = await createUser(t.app, t.mailer, 'ann');
  });
  afterAll(async () => {
    await t?.close();
    origin?.close();
    echo?.close();
  });

  const buy = async () =>
    (
      await buyOk(t.app, ann.token, '/token/variable/traffic', {
        network: 'HTTP',
        country_id: 'us',
        quantity: 1,
        traffic_gb: 0.1,
      })
    ).tokens[0] as { token_id: number; username: string; password: string };

  async function untilApplied(): Promise<void> {
    const wanted = await readGatewayVersion(t.db.db);
    await expect.poll(() => t.gateway.store.appliedVersion()).toBeGreaterThanOrEqual(wanted);
  }

  it('cuts the CONNECT tunnel and the stream opened before it; the new password works', async () => {
    const token = await buy();
    const witness = await buy();
    const proxyPort = t.gateway.port;
    const tunnel = await openTunnel({ proxyPort, ...token, port: echo.port });
    expect(tunnel.head).toMatch(/^HTTP\/1\.1 200/);
    const stream = await streamViaProxy({ proxyPort, ...token, url: `http://127.0.0.1:${origin.port}/endless` });
    expect(stream.status).toBe(200);
    const witnessTunnel = await openTunnel({ proxyPort, ...witness, port: echo.port });
    expect(witnessTunnel.head).toMatch(/^HTTP\/1\.1 200/);
    expect(await echoOnce(tunnel)).toBe('echoed');
    expect(await stream.next(origin.push)).toBe('data');

    const reset = await request(t.app, 'PUT', `/token/reset/${token.token_id}`, { token: ann.token });
    expect(reset.json().code, reset.body).toBe(0);
    const password = reset.json().data.password as string;
    await untilApplied();
    const off = await request(t.app, 'PUT', `/token/${witness.token_id}`, {
      token: ann.token,
      body: { status: 'disabled' },
    });
    expect(off.json().code, off.body).toBe(0);
    await witnessTunnel.closed;
    expect(await echoOnce(tunnel), 'the tunnel opened with the old password').toBe('closed');
    expect(await stream.next(origin.push), 'the stream opened with the old password').toBe('closed');

    const old = await viaProxy({ proxyPort, ...token, url: `http://127.0.0.1:${origin.port}/`, via: 'http' });
    expect(old.reason).toBe('bad-credentials');
    const fresh = await openTunnel({ proxyPort, username: token.username, password, port: echo.port });
    expect(fresh.head).toMatch(/^HTTP\/1\.1 200/);
    expect(await echoOnce(fresh)).toBe('echoed');
    fresh.socket.destroy();
  });
});
