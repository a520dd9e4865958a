import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyTokens } from '@proxy/db';
import { viaProxy, type TProxyVia } from '@proxy/gateway/testing';
import {
  bumpGatewayVersion,
  buyOk,
  createAdmin,
  createUser,
  readGatewayVersion,
  request,
  type TTestUser,
} from '@proxy/server/testing';
import { startApiWithGateway } from '../../test/api-with-gateway';

// What the API has answered is true at the gateway on the next connection:
// bought, reset, enabled, renewed or whitelisted works at once; taken away is
// refused at once when the gateway runs in the API's process, and as soon as
// a separate gateway has applied the change (it records the version it has
// applied; tests wait on that, never on a clock).
describe.each(['embedded', 'separate'] as const)('a proxy through the %s gateway, right after the answer', (mode) => {
  let t: Awaited<ReturnType<typeof startApiWithGateway>>;
  let ann: TTestUser;
  let echo: string;

  beforeAll(async () => {
    t = await startApiWithGateway({}, { mode });
    ann = await createUser(t.app, t.mailer, 'ann');
    echo = `http://127.0.0.1:${t.apiPort}/api/proxy/echo`;
  });
  afterAll(async () => {
    await t?.close();
  });

  const through = (via: TProxyVia, creds: { username: string; password: string }) =>
    viaProxy({ proxyPort: t.gateway.port, ...creds, url: echo, via });

  // Taking access away: embedded, the answer waited for the gateway; separate, wait until it has applied the database's version.
  async function untilApplied(): Promise<void> {
    const wanted = await readGatewayVersion(t.db.db);
    if (mode === 'embedded') expect(t.gateway.store.appliedVersion()).toBeGreaterThanOrEqual(wanted);
    else await expect.poll(() => t.gateway.store.appliedVersion()).toBeGreaterThanOrEqual(wanted);
  }

  async function buy(network: 'HTTP' | 'SOCKS5') {
    return (
      await buyOk(t.app, ann.token, '/token/static/ip', {
        category: 'isp',
        country_id: 'us',
        quantity: 1,
        days: 1,
        network,
      })
    ).tokens[0];
  }

  it('answers 200 on HTTP forward, CONNECT and SOCKS5 on the first connection after the purchase', async () => {
    const http = await buy('HTTP');
    expect((await through('http', http)).status).toBe(200);
    const other = await buy('HTTP');
    expect((await through('connect', other)).status).toBe(200);
    const socks = await buy('SOCKS5');
    const answer = await through('socks5', socks);
    expect(answer.socksReply).toBe(0);
    expect(answer.status).toBe(200);
  });

  it('accepts a reset password at once and refuses the old one', async () => {
    const token = await buy('HTTP');
    expect((await through('http', token)).status).toBe(200);
    const reset = await request(t.app, 'PUT', `/token/reset/${token.token_id}`, { token: ann.token });
    expect(reset.json().code, reset.body).toBe(0);
    expect((await through('http', { username: token.username, password: reset.json().data.password })).status).toBe(
      200,
    );
    await untilApplied();
    expect((await through('http', token)).reason).toBe('bad-credentials');
  });

  it('refuses a disabled proxy, and accepts it again at once when enabled', async () => {
    const token = await buy('HTTP');
    const off = await request(t.app, 'PUT', `/token/${token.token_id}`, {
      token: ann.token,
      body: { status: 'disabled' },
    });
    expect(off.json().code, off.body).toBe(0);
    await untilApplied();
    expect((await through('http', token)).reason).toBe('token-disabled');
    expect((await through('connect', token)).reason).toBe('token-disabled');
    const on = await request(t.app, 'PUT', `/token/${token.token_id}`, {
      token: ann.token,
      body: { status: 'enabled' },
    });
    expect(on.json().code, on.body).toBe(0);
    expect((await through('http', token)).status).toBe(200);
  });

  it('accepts a renewed proxy at once after its expiry', async () => {
    const token = await buy('HTTP');
    await t.db.db
      .update(proxyTokens)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(proxyTokens.id, token.token_id));
    await bumpGatewayVersion(t.db.db);
    await t.gateway.store.refresh();
    expect((await through('http', token)).reason).toBe('token-expired');
    const renew = await request(t.app, 'POST', '/token/ip/renew', {
      token: ann.token,
      body: { token_ids: [token.token_id], days: 1, payway: 'balance' },
    });
    expect(renew.json().data?.success, renew.body).toBe(1);
    expect((await through('http', token)).status).toBe(200);
  });

  it('refuses an address left off a new whitelist, and accepts it at once when added', async () => {
    const bob = await createUser(t.app, t.mailer, `bob${mode}`);
    const token = (
      await buyOk(t.app, bob.token, '/token/static/ip', {
        category: 'isp',
        country_id: 'us',
        quantity: 1,
        days: 1,
        network: 'HTTP',
      })
    ).tokens[0];
    const form = (ip: string) => ({
      payload: new URLSearchParams({ ip }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${bob.token}` },
    });
    const other = await t.app.inject({ method: 'POST', url: '/api/user/add/ip/whitelist', ...form('10.9.9.9') });
    expect(other.json().code, other.body).toBe(0);
    await untilApplied();
    expect((await through('http', token)).reason).toBe('source-refused');
    const own = await t.app.inject({ method: 'POST', url: '/api/user/add/ip/whitelist', ...form('127.0.0.1') });
    expect(own.json().code, own.body).toBe(0);
    expect((await through('http', token)).status).toBe(200);
  });
});

// An operator disabling an account stops its proxies at the gateway at once; enabling it again brings them back.
describe('a disabled account through the embedded gateway', () => {
  it("refuses the account's proxies on the first connection after the operator's answer, and accepts them again when enabled", async () => {
    const t = await startApiWithGateway();
    try {
      const operator = await createAdmin(t.app, t.deps, t.mailer, 'oper');
      const dan = await createUser(t.app, t.mailer, 'dan');
      const token = (
        await buyOk(t.app, dan.token, '/token/static/ip', {
          category: 'isp',
          country_id: 'us',
          quantity: 1,
          days: 1,
          network: 'HTTP',
        })
      ).tokens[0];
      const echo = `http://127.0.0.1:${t.apiPort}/api/proxy/echo`;
      expect((await viaProxy({ proxyPort: t.gateway.port, ...token, url: echo, via: 'http' })).status).toBe(200);
      const off = await request(t.app, 'PUT', `/admin/users/${dan.userId}/status`, {
        token: operator.token,
        body: { status: 'disabled' },
      });
      expect(off.json().code, off.body).toBe(0);
      expect((await viaProxy({ proxyPort: t.gateway.port, ...token, url: echo, via: 'http' })).reason).toBe(
        'token-disabled',
      );
      expect((await viaProxy({ proxyPort: t.gateway.port, ...token, url: echo, via: 'connect' })).reason).toBe(
        'token-disabled',
      );
      const on = await request(t.app, 'PUT', `/admin/users/${dan.userId}/status`, {
        token: operator.token,
        body: { status: 'active' },
      });
      expect(on.json().code, on.body).toBe(0);
      expect((await viaProxy({ proxyPort: t.gateway.port, ...token, url: echo, via: 'http' })).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

// On the API's own listener only the proxy test's echo GET passes, on every protocol.
describe('the API listener through the gateway', () => {
  let t: Awaited<ReturnType<typeof startApiWithGateway>>;
  let http: { username: string; password: string };
  let socks: { username: string; password: string };

  beforeAll(async () => {
    t = await startApiWithGateway();
    const ann = await createUser(t.app, t.mailer, 'ann');
    const base = { category: 'isp', country_id: 'us', quantity: 1, days: 1 };
    http = (await buyOk(t.app, ann.token, '/token/static/ip', { ...base, network: 'HTTP' })).tokens[0];
    socks = (await buyOk(t.app, ann.token, '/token/static/ip', { ...base, network: 'SOCKS5' })).tokens[0];
  });
  afterAll(async () => {
    await t?.close();
  });

  const api = (path: string) => `http://127.0.0.1:${t.apiPort}${path}`;

  it.each(['http', 'connect', 'socks5'] as const)(
    'over %s: the echo GET answers, /api/health and the console are refused',
    async (via) => {
      const creds = via === 'socks5' ? socks : http;
      const ok = await viaProxy({ proxyPort: t.gateway.port, ...creds, url: api('/api/proxy/echo'), via });
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.body).data.ip).toBe('127.0.0.1');
      for (const path of ['/api/health', '/api/user/info', '/', '/api/proxy/echo/../health']) {
        const refused = await viaProxy({ proxyPort: t.gateway.port, ...creds, url: api(path), via });
        expect(refused.status, `${via} ${path}`).toBe(403);
        expect(refused.body).toContain('This destination is not allowed');
      }
      const post = await viaProxy({
        proxyPort: t.gateway.port,
        ...creds,
        url: api('/api/proxy/echo'),
        via,
        method: 'POST',
      });
      expect(post.status).toBe(403);
    },
  );

  it('refuses another name of the API host (loopback, not the configured echo; other spellings are in the SSRF battery)', async () => {
    for (const via of ['http', 'connect'] as const) {
      const answer = await viaProxy({
        proxyPort: t.gateway.port,
        ...http,
        url: `http://localhost:${t.apiPort}/api/proxy/echo`,
        via,
      });
      expect(answer.reason, via).toBe('target-refused');
    }
  });
});
