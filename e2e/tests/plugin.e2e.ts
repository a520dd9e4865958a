import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { registerUser, startAppServer, type TAppServer } from '../support/app-server';
import { CHROMIUM_PATH, launchBrowser, newPage } from '../support/browser';
import { signIn } from '../support/console';

// Issue acceptance (browser plugin): the extension the server serves, loaded
// unpacked in Chromium, takes an HTTP proxy from the console's "Plugin
// setting" and answers the gateway's 407, so a page of a second local origin
// arrives through our gateway (which meters its bytes). A SOCKS5 proxy shows
// the refusal; without the extension the console shows the timeout.
let server: TAppServer;
let target: http.Server;
let targetUrl: string;
const targetHits: string[] = [];
let extensionDir: string;

beforeAll(async () => {
  // Loopback targets allowed: the second origin is on this machine.
  server = await startAppServer({ GATEWAY_ALLOW_PRIVATE_TARGETS: 'true' });
  // The second origin: another loopback address than the console's 127.0.0.1.
  target = http.createServer((req, res) => {
    targetHits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><body><h1>second origin</h1></body></html>');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.2', resolve));
  targetUrl = `http://127.0.0.2:${(target.address() as AddressInfo).port}`;

  // The package as a user downloads it, unzipped.
  const res = await fetch(`${server.url}/api/plugin/download`);
  expect(res.headers.get('content-type')).toBe('application/zip');
  extensionDir = mkdtempSync(path.join(tmpdir(), 'proxy-plugin-'));
  for (const [name, bytes] of Object.entries(unzipSync(new Uint8Array(await res.arrayBuffer())))) {
    mkdirSync(path.dirname(path.join(extensionDir, name)), { recursive: true });
    writeFileSync(path.join(extensionDir, name), bytes);
  }
});

afterAll(async () => {
  await new Promise((resolve) => target?.close(resolve));
  await server?.stop();
});

/** Chromium with the unpacked extension (a persistent context: extensions need one). */
async function launchWithExtension(): Promise<{ context: BrowserContext; worker: Worker }> {
  const context = await chromium.launchPersistentContext(mkdtempSync(path.join(tmpdir(), 'proxy-plugin-profile-')), {
    executablePath: CHROMIUM_PATH,
    headless: true,
    locale: 'en-US',
    viewport: { width: 1400, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
    ],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  return { context, worker };
}

type TStorage = { chrome: { storage: { local: { set(items: object): Promise<void> } } } };
type TProxyApi = {
  chrome: {
    proxy: {
      settings: {
        get(
          details: object,
        ): Promise<{ levelOfControl: string; value: { rules?: { singleProxy?: object; bypassList?: string[] } } }>;
      };
    };
  };
};

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/e2e-${name}.png` }).catch(() => undefined);
}

/** Buys through the API (a proxy of the given protocol, one day by IP); answers its id. */
async function buy(token: string, network: 'HTTP' | 'SOCKS5'): Promise<number> {
  const res = await fetch(`${server.url}/api/token/static/ip`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, lang: 'en' },
    body: JSON.stringify({ network, country_id: 'us', quantity: 1, days: 1 }),
  });
  const body = await res.json();
  if (body.code !== 0) throw new Error(`buy: ${JSON.stringify(body)}`);
  return body.data.tokens[0].token_id as number;
}

type TListed = { token_id: number; username: string; network: string; usage: { used_bytes: number } };

/** The user's static residential proxies, newest first, as the API lists them. */
async function proxiesOf(token: string): Promise<TListed[]> {
  const res = await fetch(`${server.url}/api/token/list/isp/static?page=1&page_size=50`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return (await res.json()).data.records as TListed[];
}

async function usedBytes(token: string, id: number): Promise<number> {
  return (await proxiesOf(token)).find((r) => r.token_id === id)?.usage.used_bytes ?? -1;
}

/** Opens "More" on the proxy's row and presses "Plugin setting". */
async function pressPluginSetting(page: Page, username: string) {
  await page.getByRole('button', { name: `More actions for ${username}` }).click();
  await page.locator('.ant-dropdown:visible').getByText('Plugin setting', { exact: true }).click();
}

const setupState = (page: Page) => page.getByTestId('plugin-setup-state').getAttribute('data-state');

describe('the browser plugin in Chromium', () => {
  it('takes an HTTP proxy from the console and carries a page of another origin through the gateway', async () => {
    const account = await registerUser(server, 'plugin');
    const { context, worker } = await launchWithExtension();
    const page = await context.newPage();
    try {
      // The id is the one the server announces (the fixed key), so the console can reach it.
      const info = (await (await fetch(`${server.url}/api/plugin/info`)).json()).data;
      expect(new URL(worker.url()).host).toBe(info.extension_id);
      // Test-only: Chromium never proxies loopback unless told; the console's origin stays bypassed.
      await worker.evaluate(() =>
        (globalThis as unknown as TStorage).chrome.storage.local.set({ devProxyLoopback: true }),
      );

      await signIn(page, server.url, account);
      await page.goto(`${server.url}/proxy/isp/static`);
      // Buy an HTTP proxy in the console: by IP, the first area, one day.
      await page
        .getByRole('button', { name: /Buy proxies/ })
        .first()
        .click();
      const drawer = page.getByRole('dialog').filter({ hasText: 'Buy proxies' });
      await drawer.locator('.ant-radio-button-wrapper', { hasText: 'By IP' }).click();
      await drawer.getByLabel('Country / region').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
      await drawer.getByLabel('Duration').fill('1');
      await drawer.getByRole('button', { name: /Pay ¥2\.00 and buy/ }).click();
      await expect.poll(() => page.locator('body').innerText()).toMatch(/Your proxies are ready \(1\)/);
      await page.getByRole('button', { name: 'Done' }).click();
      await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(1);
      const [bought] = await proxiesOf(account.token);
      await pressPluginSetting(page, bought.username);
      await expect.poll(() => setupState(page)).toBe('success');
      expect(await page.getByTestId('plugin-setup-state').innerText()).toContain('Configured');
      await page.keyboard.press('Escape');
      // The browser's proxy setting is the plugin's: the gateway, loopback not bypassed (test-only), the console's origin bypassed.
      const proxySetting = await worker.evaluate(() =>
        (globalThis as unknown as TProxyApi).chrome.proxy.settings.get({}),
      );
      expect(proxySetting.levelOfControl).toBe('controlled_by_this_extension');
      expect(proxySetting.value.rules?.singleProxy).toMatchObject({ host: '127.0.0.1', port: server.gatewayPort });
      expect(proxySetting.value.rules?.bypassList).toEqual(['<-loopback>', server.url]);

      // A page of the second origin arrives through the gateway: the target sees it, the proxy's usage grows.
      expect(await usedBytes(account.token, bought.token_id)).toBe(0);
      const other = await context.newPage();
      await other.goto(`${targetUrl}/through-the-plugin`);
      expect(await other.locator('h1').innerText()).toBe('second origin');
      expect(targetHits).toContain('/through-the-plugin');
      await expect.poll(() => usedBytes(account.token, bought.token_id)).toBeGreaterThan(0);

      // The popup shows the proxy, in the browser's language.
      await other.goto(`chrome-extension://${info.extension_id}/popup.html`);
      await expect.poll(() => other.locator('body').innerText()).toContain(`127.0.0.1:${server.gatewayPort}`);
      expect(await other.locator('#enabled').isChecked()).toBe(true);
      await shoot(other, 'plugin-popup');

      // The console still talks to its API directly, and /tools/plugin sees the plugin.
      await page.goto(`${server.url}/tools/plugin`);
      await expect.poll(() => page.getByTestId('plugin-status').getAttribute('data-status')).toBe('installed');
      expect(await page.getByTestId('plugin-status').innerText()).toContain(`Installed, version ${info.version}`);
      await shoot(page, 'plugin-page');

      // SOCKS5: refused with the reason, nothing sent.
      const socksId = await buy(account.token, 'SOCKS5');
      await page.goto(`${server.url}/proxy/isp/static`);
      const socksUser = (await proxiesOf(account.token)).find((r) => r.token_id === socksId)!.username;
      await page.getByRole('button', { name: `More actions for ${socksUser}` }).waitFor();
      await pressPluginSetting(page, socksUser);
      await expect.poll(() => setupState(page)).toBe('error');
      expect(await page.getByTestId('plugin-setup-state').innerText()).toContain('does not support SOCKS5');
    } catch (error) {
      await shoot(page, 'plugin-failure');
      throw error;
    } finally {
      await context.close();
    }
  });

  it('shows the timeout when the plugin is not installed', async () => {
    const account = await registerUser(server, 'noplugin');
    await buy(account.token, 'HTTP');
    const browser = await launchBrowser();
    const { page } = await newPage(browser, { locale: 'en-US' });
    try {
      await signIn(page, server.url, account);
      await page.goto(`${server.url}/proxy/isp/static`);
      const [proxy] = await proxiesOf(account.token);
      await pressPluginSetting(page, proxy.username);
      await expect.poll(() => setupState(page)).toBe('configuring');
      // The console waits the stated time (5 seconds), then says the plugin is not installed.
      await expect.poll(() => setupState(page), { timeout: 60_000 }).toBe('timeout');
      const text = await page.getByTestId('plugin-setup-state').innerText();
      expect(text).toContain('Plugin not installed or timed out');
      expect(text).toContain('within 5 seconds');
      await page.getByRole('link', { name: 'How to install the plugin' }).click();
      await page.waitForURL(`${server.url}/tools/plugin`);
      await expect
        .poll(() => page.getByTestId('plugin-status').getAttribute('data-status'), { timeout: 60_000 })
        .toBe('missing');
    } catch (error) {
      await shoot(page, 'plugin-timeout-failure');
      throw error;
    } finally {
      await browser.close();
    }
  });
});
