import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { FAKE_POOL_TEXTS, startFakePool, type TFakePool } from '@proxy/db/testing';
import {
  callApi,
  operatorAccount,
  operatorToken,
  registerUser,
  sharedServer,
  type TAppServer,
} from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { signIn } from '../support/console';

const run = promisify(execFile);

// Issue acceptance (upstream pools, the operator's side): the operator adds a pool pointing at a local fake pool
// (HTTP CONNECT on 127.0.0.1, usernames of an Oxylabs-like grammar, serving the US only), checks it for the US
// with a sticky session and sees the exit IP the API's echo saw and its country, then checks Germany and sees
// the provider's refusal in its own words. The fake's exits leave from 127.0.1.x, so the echo sees which one
// carried the check.
let server: TAppServer;
let browser: Browser;
let pool: TFakePool;

const POOL_USER = 'acme';
const POOL_PASSWORD = 'pool-secret-e2e';
const TEMPLATE = 'customer-{user}-cc-{country}[-sessid-{session}-sesstime-{minutes}]';

beforeAll(async () => {
  server = sharedServer();
  pool = await startFakePool({
    protocol: 'http-connect',
    template: TEMPLATE,
    user: POOL_USER,
    password: POOL_PASSWORD,
    areas: [{ country: 'US' }],
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await pool?.close();
});

/** Serious and critical WCAG 2 A/AA violations axe finds on the page as it is, one line each ('' for none). */
async function axeFindings(page: Page): Promise<string> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)
    .join('\n');
}

/** Whether the page scrolls sideways (a table scrolls inside itself, a drawer fits the screen). */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) > window.innerWidth);

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/e2e-${name}.png`, fullPage: true }).catch(() => undefined);
}

describe('upstream pools in the operator console', () => {
  it('adds a pool pointing at a local fake pool, checks it, and sees the exit IP and country, or the refusal', async () => {
    const name = `Fake pool ${Date.now().toString(36)}`;
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    try {
      await signIn(page, server.url, operatorAccount(server));
      await page.goto(`${server.url}/admin/overview`);
      await page.getByTestId('admin-sidebar').getByText('Upstream pools').click();
      await page.waitForURL((url) => url.pathname === '/admin/pools');

      // Add the pool.
      await page.getByTestId('pool-add').click();
      const drawer = page.getByRole('dialog').filter({ hasText: 'Add a pool' });
      await drawer.getByLabel('Name', { exact: true }).fill(name);
      await drawer.getByLabel('Host of endpoint 1').fill('127.0.0.1');
      await drawer.getByLabel('Port of endpoint 1').fill(String(pool.port));
      await drawer.getByLabel('Account name ({user})').fill(POOL_USER);
      await drawer.getByLabel('Password', { exact: true }).fill(POOL_PASSWORD);
      await drawer.getByLabel('Username template').fill(TEMPLATE);
      await drawer.getByLabel('How the provider spells our area slugs').click();
      await page.locator('.ant-select-dropdown:visible').getByText('Upper case (US, CALIFORNIA)').click();
      // The preview renders the username as the provider will read it.
      await expect
        .poll(() => drawer.getByTestId('template-preview-username').innerText())
        .toBe('customer-acme-cc-US-sessid-k3x9q2m1a0bz-sesstime-10');
      await drawer.getByTestId('pool-save').click();
      await drawer.waitFor({ state: 'hidden' });
      const row = page.locator('tr.ant-table-row', { hasText: name });
      await expect.poll(() => row.innerText()).toContain(`127.0.0.1:${pool.port}`);
      expect(await row.innerText()).toContain('Paused');
      expect(await row.innerText()).toContain('Never checked');
      expect(await axeFindings(page)).toBe('');

      // Check the US with a sticky session: the exit the API's echo saw, and the country the provider reports.
      await page.getByRole('button', { name: `Check pool ${name}` }).click();
      const check = page.getByRole('dialog').filter({ hasText: `Check pool ${name}` });
      await check.getByLabel('Country (ISO code)').fill('us');
      await check.getByLabel('Session label (optional)').fill('e2e1');
      await check.getByTestId('check-run').click();
      await expect.poll(() => check.getByTestId('check-exit-ip').count()).toBe(1);
      const exitIp = await check.getByTestId('check-exit-ip').innerText();
      expect(exitIp).toMatch(/^127\.0\.1\.\d+$/);
      expect(await check.getByTestId('check-exit-country').innerText()).toBe('US (as the provider reports)');
      expect(await check.getByTestId('check-latency').innerText()).toMatch(/^\d+ ms \(connect \d+ ms\)$/);
      expect(await check.getByTestId('check-username').innerText()).toMatch(
        /^customer-acme-cc-US-sessid-[a-z0-9]{12}-sesstime-10$/,
      );
      // The fake pool carried exactly that tunnel, for that username, from that exit.
      expect(pool.tunnels.at(-1)).toMatchObject({ country: 'US', exitIp });
      expect(await axeFindings(page)).toBe('');
      await shoot(page, 'pools-check');

      // Germany is not served: the provider's refusal, in the operator's language and in the provider's own words.
      await check.getByLabel('Country (ISO code)').fill('de');
      await check.getByTestId('check-run').click();
      await expect
        .poll(() =>
          check
            .getByTestId('check-failure')
            .count()
            .then((n) => (n ? check.getByTestId('check-failure').innerText() : '')),
        )
        .toBe('Area not served: the provider has no exit for this area');
      expect(await check.getByTestId('check-provider-said').innerText()).toContain(FAKE_POOL_TEXTS.areaNotServed);
      await check.getByRole('button', { name: 'Close' }).last().click();

      // The list keeps the last check; the password shows nowhere.
      await expect.poll(() => row.innerText()).toContain('Area not served');
      expect(await page.locator('body').innerText()).not.toContain(POOL_PASSWORD);
      await shoot(page, 'pools-list');

      // On a phone: the list scrolls inside itself, and the form takes the whole screen.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await expect.poll(() => row.count()).toBe(1);
      expect(await scrollsSideways(page)).toBe(false);
      await page.getByRole('button', { name: `Edit pool ${name}` }).click();
      const edit = page.getByRole('dialog').filter({ hasText: `Edit pool ${name}` });
      await expect.poll(() => edit.getByLabel('Password', { exact: true }).inputValue()).toBe('');
      expect(await scrollsSideways(page)).toBe(false);
      expect((await edit.boundingBox())!.width).toBeLessThanOrEqual(390);
      expect(await axeFindings(page)).toBe('');
      await shoot(page, 'pools-phone-edit');
    } catch (error) {
      await shoot(page, 'pools-failure');
      throw error;
    } finally {
      await context.close();
    }
  });
});

describe("a customer's traffic through an upstream pool", () => {
  it('buys a dynamic traffic proxy in a country only the pool serves, carries traffic through it, and the operator sees the bytes and the margin', async () => {
    // A second provider, of a Bright Data-like grammar in lower case, serving Brazil only; a loopback origin.
    const brazil = await startFakePool({
      protocol: 'http-connect',
      template: 'brd-customer-{user}-zone-res-country-{country}[-session-{session}]',
      user: 'hl_e2e',
      password: 'br-pool-secret',
      areas: [{ country: 'br' }],
    });
    // 5 MiB: enough that the revenue and the cost round to whole fen.
    const origin = http.createServer((_req, res) => res.end(Buffer.alloc(5 * 1024 * 1024, 7)));
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    const originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}/`;
    const ops = await operatorToken(server);
    const name = `Brazil pool ${Date.now().toString(36)}`;
    let poolId = 0;
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    try {
      // The operator: the pool (25 yuan a GB), its coverage (Brazil only, so no other flow's traffic goes through it),
      // and on.
      const created = await callApi(server.url, '/admin/pools', ops, {
        method: 'POST',
        body: {
          name,
          kind: 'residential',
          protocol: 'http-connect',
          endpoints: [{ host: '127.0.0.1', port: brazil.port }],
          username: 'hl_e2e',
          password: 'br-pool-secret',
          username_template: 'brd-customer-{user}-zone-res-country-{country}[-session-{session}]',
          area_case: 'lower',
          cost_per_gb_fen: 2500,
        },
      });
      expect(created.code, created.msg).toBe(0);
      poolId = created.data.id as number;
      const coverage = await callApi(server.url, `/admin/pools/${poolId}/coverage`, ops, {
        method: 'POST',
        body: { mode: 'list', csv: 'br' },
      });
      expect(coverage.code, coverage.msg).toBe(0);
      expect((await callApi(server.url, `/admin/pools/${poolId}/resume`, ops, { method: 'POST', body: {} })).code).toBe(
        0,
      );

      // The customer buys 0.1 GB of dynamic residential traffic in Brazil, which no exit serves, in the console.
      const account = await registerUser(server, 'poolbuyer');
      await signIn(page, server.url, account);
      await page.goto(`${server.url}/proxy/isp/variable`);
      await page
        .getByRole('button', { name: /Buy proxies/ })
        .first()
        .click();
      const drawer = page.getByRole('dialog').filter({ hasText: 'Buy proxies' });
      await drawer.locator('.ant-radio-button-wrapper', { hasText: 'By traffic' }).click();
      await drawer.getByLabel('Country / region').click();
      await drawer.getByLabel('Country / region').fill('Brazil');
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Brazil' }).first().click();
      await drawer.getByLabel('Traffic per proxy').fill('0.1');
      await drawer.getByRole('button', { name: /and buy/ }).click();
      await expect.poll(() => page.locator('body').innerText()).toMatch(/Your proxies are ready \(1\)/);
      await page.getByRole('button', { name: 'Done' }).click();
      const list = await callApi(server.url, '/token/list/variable/traffic', account.token);
      const proxy = (list.data.records as { token_id: number; username: string; password: string }[])[0];

      // curl through the gateway to the loopback origin: the pool carries it, for Brazil.
      const { stdout } = await run('/usr/bin/curl', [
        '-s',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code} %{size_download}',
        '-x',
        `http://${proxy.username}:${proxy.password}@127.0.0.1:${server.gatewayPort}`,
        originUrl,
      ]);
      expect(stdout).toBe(`200 ${5 * 1024 * 1024}`);
      expect(brazil.tunnels.at(-1)).toMatchObject({ country: 'br' });
      expect(brazil.tunnels.at(-1)!.username).toMatch(/^brd-customer-hl_e2e-zone-res-country-br/);

      // The customer sees the usage in the console (metered by the gateway, written in its next batch).
      let used = 0;
      await expect
        .poll(async () => {
          const again = await callApi(server.url, '/token/list/variable/traffic', account.token);
          used = (again.data.records as { usage: { used_bytes: number } }[])[0].usage.used_bytes;
          return used;
        })
        .toBeGreaterThan(5 * 1024 * 1024);
      await page.reload();
      await page.getByRole('button', { name: 'Choose columns' }).click();
      await page.getByTestId('column-chooser').getByLabel('Traffic used').check();
      await page.keyboard.press('Escape');
      await expect
        .poll(() => page.locator('.ant-table-tbody tr.ant-table-row').first().innerText())
        .toMatch(/\d+(\.\d+)? MB/);

      // The operator: the pool's bytes are exactly the proxy's, with their cost, revenue and a positive margin.
      const report = await callApi(server.url, '/admin/economics?group_by=carrier', ops);
      const row = (
        report.data.rows as {
          carrier_name: string | null;
          bytes: number;
          margin_fen: number;
          cost_fen: number;
          revenue_fen: number;
          is_negative: boolean;
        }[]
      ).find((r) => r.carrier_name === name);
      expect(row, JSON.stringify(report.data.rows)).toBeDefined();
      expect(row!.bytes).toBe(used);
      expect(row!.cost_fen).toBe(Math.round((used * 2500) / 1024 ** 3));
      expect(row!.margin_fen).toBe(row!.revenue_fen - row!.cost_fen);
      // 0.1 GB for 4 yuan: about 20 fen of revenue for 5 MiB; 25 yuan a GB: about 12 fen of cost.
      expect(row!.cost_fen).toBeGreaterThan(0);
      expect(row!.revenue_fen).toBe(Math.round((used * 400) / (0.1 * 1024 ** 3)));
      expect(row!.is_negative).toBe(false);
      const opsPage = await newPage(browser, { locale: 'en-US' });
      try {
        await signIn(opsPage.page, server.url, operatorAccount(server));
        await opsPage.page.goto(`${server.url}/admin/economics`);
        await opsPage.page.getByLabel('Group by').getByText('Pool or exit').click();
        const poolRow = opsPage.page.locator('tr.ant-table-row', { hasText: name });
        await expect.poll(() => poolRow.count()).toBe(1);
        expect(await poolRow.innerText()).toContain(`¥${(row!.margin_fen / 100).toFixed(2)}`);
        await shoot(opsPage.page, 'economics-pool');
        expect(await axeFindings(opsPage.page)).toBe('');
      } finally {
        await opsPage.context.close();
      }
    } catch (error) {
      await shoot(page, 'pool-traffic-failure');
      throw error;
    } finally {
      await context.close();
      if (poolId) {
        await callApi(server.url, `/admin/pools/${poolId}/pause`, ops, { method: 'POST', body: {} });
        await callApi(server.url, `/admin/pools/${poolId}`, ops, { method: 'DELETE' });
      }
      origin.close();
      await brazil.close();
    }
  });
});
