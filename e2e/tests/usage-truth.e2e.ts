import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startFakePool, type TFakePool } from '@proxy/db/testing';
import { callApi, operatorToken, registerUser, sharedServer, type TAppServer } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { signIn } from '../support/console';

const run = promisify(execFile);

// Issue acceptance (usage the customer can trust): a customer's dynamic traffic proxy carried by a local fake pool
// (Mexico only) sends traffic with a sticky session through the real gateway; the console then shows the target's
// domain among the top domains (dashboard and the proxy's detail) and the session with the minutes it kept its exit.
let server: TAppServer;
let browser: Browser;
let pool: TFakePool;
let origin: http.Server;
let originUrl: string;
const TEMPLATE = 'customer-{user}-cc-{country}[-sessid-{session}-sesstime-{minutes}]';

beforeAll(async () => {
  server = sharedServer();
  pool = await startFakePool({
    protocol: 'http-connect',
    template: TEMPLATE,
    user: 'acme',
    password: 'truth-pool-secret',
    areas: [{ country: 'MX' }],
  });
  origin = http.createServer((_req, res) => res.end(Buffer.alloc(64 * 1024, 1)));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}/`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await pool?.close();
  origin?.close();
});

describe('usage the customer can trust', () => {
  it('shows the top domains and a sticky session held for its minutes after traffic through the real gateway', async () => {
    const ops = await operatorToken(server);
    const created = await callApi(server.url, '/admin/pools', ops, {
      method: 'POST',
      body: {
        name: `Mexico pool ${Date.now().toString(36)}`,
        kind: 'residential',
        protocol: 'http-connect',
        endpoints: [{ host: '127.0.0.1', port: pool.port }],
        username: 'acme',
        password: 'truth-pool-secret',
        username_template: TEMPLATE,
        area_case: 'upper',
        cost_per_gb_fen: 2000,
        // The fake pool names each tunnel's exit in this header; it keeps an idle session 10 minutes.
        exit_ip_header: 'X-Exit-IP',
        session_idle_minutes: 10,
      },
    });
    expect(created.code, created.msg).toBe(0);
    const poolId = created.data.id as number;
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    try {
      expect(
        (
          await callApi(server.url, `/admin/pools/${poolId}/coverage`, ops, {
            method: 'POST',
            body: { mode: 'list', csv: 'mx' },
          })
        ).code,
      ).toBe(0);
      expect((await callApi(server.url, `/admin/pools/${poolId}/resume`, ops, { method: 'POST', body: {} })).code).toBe(
        0,
      );

      // The customer buys 0.1 GB of dynamic residential traffic in Mexico (only the pool serves it).
      const account = await registerUser(server, 'truthbuyer');
      const bought = await callApi(server.url, '/token/variable/traffic', account.token, {
        method: 'POST',
        body: { category: 'isp', network: 'HTTP', quantity: 1, traffic_gb: 0.1, country_id: 'mx' },
      });
      expect(bought.code, bought.msg).toBe(0);
      const list = await callApi(server.url, '/token/list/variable/traffic', account.token);
      const proxy = (list.data.records as { token_id: number; username: string; password: string }[])[0];

      // Two requests of one sticky session (the endpoint generator's grammar), with curl through the gateway.
      for (let i = 0; i < 2; i++) {
        const { stdout } = await run('/usr/bin/curl', [
          '-s',
          '-o',
          '/dev/null',
          '-w',
          '%{http_code} %{size_download}',
          '-x',
          `http://${proxy.username}-session-e2etruth-sesstime-10:${proxy.password}@127.0.0.1:${server.gatewayPort}`,
          originUrl,
        ]);
        expect(stdout).toBe(`200 ${64 * 1024}`);
      }
      expect(pool.tunnels.filter((t) => t.session !== '').length).toBe(2);

      // The gateway's batches: the domain (an address is its own) and the session.
      await expect
        .poll(async () => {
          const usage = await callApi(server.url, `/token/session/domains?token_id=${proxy.token_id}`, account.token);
          return (usage.data?.domains as { domain: string }[] | undefined)?.map((d) => d.domain) ?? [];
        })
        .toEqual(['127.0.0.1']);

      await signIn(page, server.url, account);
      await page.goto(`${server.url}/`);
      const card = page.getByTestId('top-domains-card');
      await expect.poll(() => card.innerText()).toContain('127.0.0.1');

      await page.goto(`${server.url}/proxy/isp/variable`);
      await page.getByRole('button', { name: 'Details' }).first().click();
      const domains = page.getByTestId('proxy-domains');
      await expect.poll(() => domains.innerText()).toContain('127.0.0.1');
      // The session: asked 10 minutes, held (it kept the pool's exit for both requests).
      const holds = await callApi(server.url, `/token/session/holds?token_id=${proxy.token_id}`, account.token);
      expect(holds.code, holds.msg).toBe(0);
      expect(holds.data.summary).toMatchObject({ sessions: 1, held: 1, held_share: 1 });
      expect((holds.data.records as unknown[])[0]).toMatchObject({
        session: 'e2etruth',
        asked_minutes: 10,
        end_reason: null,
      });
      const sessions = page.getByTestId('sticky-sessions');
      await expect.poll(() => sessions.innerText()).toContain('100 % of 1 sessions held their full time');
      const item = sessions.getByTestId('sticky-session');
      expect(await item.innerText()).toContain('e2etruth');
      expect(await item.innerText()).toMatch(/Kept [\d.]+ of 10 min/);
      expect(await item.innerText()).toContain('Held');
      await sessions.scrollIntoViewIfNeeded();
      await page.screenshot({ path: '/tmp/e2e-usage-truth-drawer.png' }).catch(() => undefined);
    } catch (error) {
      await page.screenshot({ path: '/tmp/e2e-usage-truth-failure.png', fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      await context.close();
      await callApi(server.url, `/admin/pools/${poolId}/pause`, ops, { method: 'POST', body: {} });
      await callApi(server.url, `/admin/pools/${poolId}`, ops, { method: 'DELETE' });
    }
  });
});
