import http from 'node:http';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertEvents, notifications, proxyTokens } from '@proxy/db';
import { createAlertJobs } from '@proxy/server/features/alerts/alerts.jobs';
import { buyOk, createUser, request, type TTestUser } from '@proxy/server/testing';
import { startApiWithGateway, until } from '../../test/api-with-gateway';

const LIMIT = 107_374_182; // 0.1 GB

// The traffic alerts on the real path: bytes carried by the real gateway, metered in its batches,
// then the API's alert job; each threshold fires once, when the metered usage has crossed it.
describe('traffic alerts as the gateway meters usage', () => {
  let t: Awaited<ReturnType<typeof startApiWithGateway>>;
  let origin: http.Server;
  let originPort: number;
  let amy: TTestUser;

  beforeAll(async () => {
    t = await startApiWithGateway({}, { allowPrivateTargets: true });
    // A local origin answering as many bytes as asked (`/?bytes=N`).
    origin = http.createServer((req, res) => {
      const bytes = Number(new URL(req.url ?? '/', 'http://origin').searchParams.get('bytes'));
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes) });
      const chunk = Buffer.alloc(64 * 1024, 97);
      let left = bytes;
      const pump = () => {
        while (left > 0) {
          const part = chunk.subarray(0, Math.min(chunk.length, left));
          left -= part.length;
          if (!res.write(part)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    originPort = (origin.address() as { port: number }).port;
    amy = await createUser(t.app, t.mailer, 'amy');
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => origin?.close(resolve));
  });

  /** Downloads `bytes` from the origin through the proxy; resolves with what arrived when the answer ends or is cut. */
  const download = (creds: { username: string; password: string }, bytes: number) =>
    new Promise<number>((resolve) => {
      const req = http.request({
        host: '127.0.0.1',
        port: t.gateway.port,
        path: `http://127.0.0.1:${originPort}/?bytes=${bytes}`,
        headers: {
          host: `127.0.0.1:${originPort}`,
          'proxy-authorization': `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`,
        },
        agent: false,
      });
      let received = 0;
      req.on('response', (res) => {
        res.on('data', (chunk: Buffer) => (received += chunk.length));
        res.on('error', () => {});
        res.on('close', () => resolve(received));
      });
      req.on('error', () => resolve(received));
      req.end();
    });
  const used = async (id: number) =>
    (await t.db.db.select({ used: proxyTokens.trafficUsedBytes }).from(proxyTokens).where(eq(proxyTokens.id, id)))[0]
      .used;
  const runAlerts = async () => {
    for (const job of createAlertJobs(t.deps)) await job.runOnce();
  };
  const fired = async (tokenId: number) =>
    (
      await t.db.db
        .select()
        .from(alertEvents)
        .where(and(eq(alertEvents.subjectId, tokenId), eq(alertEvents.kind, 'usage_threshold')))
        .orderBy(alertEvents.id)
    ).map((e) => e.period);

  it('fires 50, 80 and 100 % once each as metered usage crosses them, with a console notification for each', async () => {
    const saved = await request(t.app, 'PUT', '/user/alerts/settings', {
      token: amy.token,
      body: {
        ...(await request(t.app, 'GET', '/user/alerts/settings', { token: amy.token })).json().data,
        usage_thresholds: [50, 80, 100],
      },
    });
    expect(saved.json().code, saved.body).toBe(0);
    const token = (
      await buyOk(t.app, amy.token, '/token/variable/traffic', {
        network: 'HTTP',
        country_id: 'us',
        quantity: 1,
        traffic_gb: 0.1,
      })
    ).tokens[0];

    // Below 50 %: nothing.
    expect(await download(token, Math.floor(LIMIT * 0.3))).toBe(Math.floor(LIMIT * 0.3));
    await until(async () => (await used(token.token_id)) >= LIMIT * 0.3);
    await runAlerts();
    expect(await fired(token.token_id)).toEqual([]);

    // Past 50 %, then past 80 %: one alert each, and a second pass writes nothing more.
    await download(token, Math.floor(LIMIT * 0.25));
    await until(async () => (await used(token.token_id)) >= LIMIT * 0.55);
    await runAlerts();
    await runAlerts();
    expect(await fired(token.token_id)).toEqual([`${LIMIT}:50`]);
    await download(token, Math.floor(LIMIT * 0.3));
    await until(async () => (await used(token.token_id)) >= LIMIT * 0.85);
    await runAlerts();
    expect(await fired(token.token_id)).toEqual([`${LIMIT}:50`, `${LIMIT}:80`]);

    // Past the allowance (the gateway stops the proxy there): 100 % fires once.
    await download(token, Math.floor(LIMIT * 0.2));
    await until(async () => (await used(token.token_id)) >= LIMIT);
    await runAlerts();
    await runAlerts();
    expect(await fired(token.token_id)).toEqual([`${LIMIT}:50`, `${LIMIT}:80`, `${LIMIT}:100`]);
    const notes = await t.db.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, amy.userId), eq(notifications.kind, 'usage_threshold')));
    expect(notes).toHaveLength(3);
  });
});
