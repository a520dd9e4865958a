import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyTokens, usageLogEntries } from '@proxy/db';
import { viaProxy, type TProxyVia } from '@proxy/gateway/testing';
import { buyOk, createUser, request, type TTestUser } from '@proxy/server/testing';
import { startApiWithGateway, until } from '../../test/api-with-gateway';

const HOUR = 3_600_000;

// The usage log on the real path: the API's setting, the real gateway, real clients; the log's totals are the metered usage.
describe('the per-connection usage log through the gateway', () => {
  let t: Awaited<ReturnType<typeof startApiWithGateway>>;
  let ann: TTestUser;
  let ben: TTestUser;
  let echo: string;

  beforeAll(async () => {
    t = await startApiWithGateway();
    ann = await createUser(t.app, t.mailer, 'ann');
    ben = await createUser(t.app, t.mailer, 'ben');
    echo = `http://127.0.0.1:${t.apiPort}/api/proxy/echo`;
  });
  afterAll(async () => {
    await t?.close();
  });

  const buy = async (user: TTestUser, network: 'HTTP' | 'SOCKS5') =>
    (
      await buyOk(t.app, user.token, '/token/static/ip', {
        category: 'isp',
        country_id: 'us',
        quantity: 1,
        days: 1,
        network,
      })
    ).tokens[0];
  const through = async (via: TProxyVia, creds: { username: string; password: string }) => {
    const answer = await viaProxy({ proxyPort: t.gateway.port, ...creds, url: echo, via });
    expect(answer.status).toBe(200);
    return answer;
  };
  const used = async (id: number) =>
    (await t.db.db.select({ used: proxyTokens.trafficUsedBytes }).from(proxyTokens).where(eq(proxyTokens.id, id)))[0]
      .used;
  const logOf = async (id: number, query: string, user = ann) =>
    (await request(t.app, 'GET', `/token/usage-log/${id}?${query}`, { token: user.token })).json();

  it("is off by default, and the setting is validated in the caller's language", async () => {
    const res = await request(t.app, 'GET', '/user/usage-log/settings', { token: ann.token });
    expect(res.json().data).toEqual({ enabled: false, retention_days: 7, domain_usage_enabled: true });
    for (const [lang, text] of [
      ['en', 'Retention must be a whole number of days from 1 to 30'],
      ['zh', '保留天数为 1-30 的整数'],
    ]) {
      const bad = await request(t.app, 'PUT', '/user/usage-log/settings', {
        token: ann.token,
        lang,
        body: { enabled: true, retention_days: 31 },
      });
      expect(bad.statusCode).toBe(400);
      expect(JSON.stringify(bad.json().data.issues)).toContain(text);
    }
    expect((await request(t.app, 'GET', '/user/usage-log/settings', { token: ann.token })).json().data.enabled).toBe(
      false,
    );
  });

  it('totals equal the metered usage for HTTP forward, CONNECT and SOCKS5, in the console, the CSV and the customer API', async () => {
    const httpToken = await buy(ann, 'HTTP');
    const socksToken = await buy(ann, 'SOCKS5');
    const bensToken = await buy(ben, 'HTTP');
    const on = await request(t.app, 'PUT', '/user/usage-log/settings', {
      token: ann.token,
      body: { enabled: true, retention_days: 2 },
    });
    expect(on.json().data).toEqual({ enabled: true, retention_days: 2, domain_usage_enabled: true });

    await through('http', httpToken);
    await through('connect', httpToken);
    await through('http', httpToken);
    await through('socks5', socksToken);
    await through('socks5', socksToken);
    await through('http', bensToken);

    const now = Date.now();
    const from = new Date(Math.floor(now / HOUR) * HOUR - HOUR).toISOString();
    const to = new Date(Math.floor(now / HOUR) * HOUR + 2 * HOUR).toISOString();
    const window = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
    const metered = async (id: number) =>
      (
        await request(t.app, 'GET', `/token/session/traffic?token_id=${id}&granularity=hour&${window}`, {
          token: ann.token,
        })
      ).json().data.total_bytes as number;

    for (const [token, connections, protocols] of [
      [httpToken, 3, ['connect', 'http', 'http']],
      [socksToken, 2, ['socks5', 'socks5']],
    ] as const) {
      // Both are written in batches: wait until the log has every connection and the meter every byte.
      await until(async () => (await logOf(token.token_id, window)).data.total === connections);
      await until(async () => (await used(token.token_id)) === (await logOf(token.token_id, window)).data.totals.bytes);
      const log = (await logOf(token.token_id, `${window}&page_size=200`)).data;
      expect(log.enabled).toBe(true);
      expect(log.records.map((r: { protocol: string }) => r.protocol).sort()).toEqual(protocols);
      for (const r of log.records) {
        expect(r).toMatchObject({
          token_id: token.token_id,
          target_host: '127.0.0.1',
          target_port: t.apiPort,
          outcome: 'closed',
          reason: null,
        });
        expect(r.bytes_up).toBeGreaterThan(0);
        expect(r.bytes_down).toBeGreaterThan(0);
      }
      const sum = log.records.reduce(
        (s: number, r: { bytes_up: number; bytes_down: number }) => s + r.bytes_up + r.bytes_down,
        0,
      );
      expect(log.totals.bytes).toBe(sum);
      expect(log.totals.bytes).toBe(await metered(token.token_id));

      // The CSV holds the same connections.
      const csv = await request(t.app, 'GET', `/token/usage-log/${token.token_id}/export?${window}`, {
        token: ann.token,
      });
      expect(csv.headers['content-type']).toContain('text/csv');
      const [header, ...lines] = csv.body.trim().split('\r\n');
      const cols = header.split(',');
      expect(lines).toHaveLength(connections);
      const csvBytes = lines.reduce((s, line) => {
        const cells = line.split(',');
        return s + Number(cells[cols.indexOf('bytes_up')]) + Number(cells[cols.indexOf('bytes_down')]);
      }, 0);
      expect(csvBytes).toBe(log.totals.bytes);

      // The customer API with the personal key.
      const key = (await request(t.app, 'GET', '/user/info', { token: ann.token })).json().data.token as string;
      const v1 = (
        await request(t.app, 'GET', `/v1/proxies/${token.token_id}/connections?${window}`, {
          headers: { 'x-api-key': key },
        })
      ).json();
      expect(v1.code).toBe(0);
      expect(v1.data.totals).toEqual(log.totals);
    }

    // Ben did not opt in: his proxy carried traffic, and nothing of it is logged.
    await until(async () => (await used(bensToken.token_id)) > 0);
    expect(await t.db.db.select().from(usageLogEntries).where(eq(usageLogEntries.userId, ben.userId))).toEqual([]);
    expect((await logOf(bensToken.token_id, window, ben)).data).toMatchObject({ total: 0, enabled: false });
    // Another user's proxy is not found.
    expect((await logOf(bensToken.token_id, window)).code).not.toBe(0);
  });

  it('stops logging at once when turned off', async () => {
    const token = await buy(ann, 'HTTP');
    const off = await request(t.app, 'PUT', '/user/usage-log/settings', {
      token: ann.token,
      body: { enabled: false, retention_days: 2 },
    });
    expect(off.json().data.enabled).toBe(false);
    await through('http', token);
    const marker = await buy(ben, 'HTTP');
    await request(t.app, 'PUT', '/user/usage-log/settings', {
      token: ben.token,
      body: { enabled: true, retention_days: 1 },
    });
    // Ben's later connection is written: Ann's, earlier, would have been too.
    await through('http', marker);
    await until(
      async () =>
        (await t.db.db.select().from(usageLogEntries).where(eq(usageLogEntries.tokenId, marker.token_id))).length === 1,
    );
    expect(await t.db.db.select().from(usageLogEntries).where(eq(usageLogEntries.tokenId, token.token_id))).toEqual([]);
  });
});
