import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyTokens, tokenUsage } from '@proxy/db';
import { buyOk, createUser, request, type TTestUser } from '@proxy/server/testing';
import { freePort, startApiWithGateway, until } from '../../test/api-with-gateway';

// The real path: the API on a real port, the real gateway, the token's own credentials.
describe('proxy test through the gateway', () => {
  let t: Awaited<ReturnType<typeof startApiWithGateway>>;
  let ann: TTestUser;
  let ben: TTestUser;
  let httpId: number;
  let socksId: number;

  beforeAll(async () => {
    t = await startApiWithGateway();
    ann = await createUser(t.app, t.mailer, 'ann');
    ben = await createUser(t.app, t.mailer, 'ben');
    const base = { category: 'isp', country_id: 'us', quantity: 1, days: 1 };
    httpId = (await buyOk(t.app, ann.token, '/token/static/ip', { ...base, network: 'HTTP' })).tokens[0].token_id;
    socksId = (await buyOk(t.app, ann.token, '/token/static/ip', { ...base, network: 'SOCKS5' })).tokens[0].token_id;
  });
  afterAll(async () => {
    await t?.close();
  });

  async function runTest(id: number, token = ann.token, lang = 'en') {
    const res = await request(t.app, 'GET', `/token/test/${id}`, { token, lang });
    return { status: res.statusCode, body: res.json() };
  }

  async function usage(id: number): Promise<{ used: number; buckets: number }> {
    const [row] = await t.db.db
      .select({ used: proxyTokens.trafficUsedBytes })
      .from(proxyTokens)
      .where(eq(proxyTokens.id, id));
    const [sum] = await t.db.db
      .select({ bytes: sql<string>`coalesce(sum(${tokenUsage.bytes}), 0)` })
      .from(tokenUsage)
      .where(eq(tokenUsage.tokenId, id));
    return { used: row.used, buckets: Number(sum.bytes) };
  }

  it('answers the echo through an HTTP token: ok, latency, exit 127.0.0.1 on the direct exit, in the configured DIRECT_EXIT_COUNTRY (the IP data has no country for loopback)', async () => {
    // The first test right after the purchase works: the gateway looks new credentials up.
    const result = await runTest(httpId);
    expect(result.status).toBe(200);
    expect(result.body.code).toBe(0);
    expect(result.body.data).toMatchObject({
      ok: true,
      exit_ip: '127.0.0.1',
      country: { code: 'US', name_en: 'United States of America' },
      status_code: 200,
    });
    expect(result.body.data.latency_ms).toBeGreaterThanOrEqual(0);
    expect(result.body.data.error).toBeUndefined();
  });

  it('answers the echo through a SOCKS5 token', async () => {
    const result = await runTest(socksId);
    expect(result.body.data).toMatchObject({
      ok: true,
      exit_ip: '127.0.0.1',
      country: { code: 'US' },
      status_code: 200,
    });
  });

  it('meters the test: usage grows, and the hourly buckets sum to traffic_used_bytes', async () => {
    await until(async () => (await usage(httpId)).used > 0);
    const before = await usage(httpId);
    expect((await runTest(httpId)).body.data.ok).toBe(true);
    await until(async () => (await usage(httpId)).used > before.used);
    const after = await usage(httpId);
    expect(after.buckets).toBeGreaterThan(before.buckets);
    expect(after.buckets).toBe(after.used);
    const series = await request(
      t.app,
      'GET',
      `/token/session/traffic?token_id=${httpId}&granularity=hour&from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`,
      { token: ann.token },
    );
    expect(series.json().code, series.body).toBe(0);
    expect(series.json().data.total_bytes).toBe(after.used);
    expect(series.json().data.points.reduce((s: number, p: { bytes: number }) => s + p.bytes, 0)).toBe(after.used);
  });

  it('reports the gateway refusal of a disabled token with its reason in zh and en (HTTP and SOCKS5)', async () => {
    for (const id of [httpId, socksId]) {
      const off = await request(t.app, 'PUT', `/token/${id}`, { token: ann.token, body: { status: 'disabled' } });
      expect(off.json().code, off.body).toBe(0);
      // Embedded, the gateway has applied the change before the API answered.
      const result = await runTest(id);
      expect(result.body.code).toBe(0);
      expect(result.body.data).toMatchObject({
        ok: false,
        exit_ip: null,
        error: { reason: 'token-disabled', message: 'This proxy is disabled', message_zh: '该代理已禁用' },
      });
      const zh = await runTest(id, ann.token, 'zh');
      expect(zh.body.data.error.message).toBe('该代理已禁用');
      if (id === httpId) expect(result.body.data.status_code).toBe(403);
      await request(t.app, 'PUT', `/token/${id}`, { token: ann.token, body: { status: 'enabled' } });
    }
  });

  it("answers not found for another user's token, 401 without a session, 400 for a bad id", async () => {
    expect((await runTest(httpId, ben.token)).status).toBe(404);
    expect((await runTest(httpId, ben.token)).body.code).toBe(404);
    const anon = await request(t.app, 'GET', `/token/test/${httpId}`);
    expect(anon.statusCode).toBe(401);
    const bad = await request(t.app, 'GET', '/token/test/abc', { token: ann.token });
    expect(bad.statusCode).toBe(400);
  });

  it('echo endpoint answers the caller address without a session', async () => {
    const res = await request(t.app, 'GET', '/proxy/echo');
    expect(res.json().code).toBe(0);
    expect(res.json().data.ip).toBe('127.0.0.1');
  });

  it('says the gateway cannot be reached when nothing listens there', async () => {
    const deadPort = await freePort();
    const saved = t.deps.config.tokenTestGateway;
    // The service reads the setting per call; point it at a closed port for this one call.
    t.deps.config.tokenTestGateway = { host: '127.0.0.1', port: deadPort };
    try {
      const result = await runTest(httpId);
      expect(result.body.data).toMatchObject({ ok: false, error: { reason: 'gateway-unreachable' } });
    } finally {
      t.deps.config.tokenTestGateway = saved;
    }
  });
});
