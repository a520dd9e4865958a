import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { FAKE_POOL_TEXTS, startFakePool, type TFakePool } from '@proxy/db/testing';
import { operatorAccount, sharedServer, type TAppServer } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { signIn } from '../support/console';

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
