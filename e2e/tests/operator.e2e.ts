import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startLocalUpstream, type TLocalUpstream } from '@proxy/server/testing';
import { oneTimeOperatorAccount, registerUser, startAppServer, type TAppServer } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { dismissNotice, signIn } from '../support/console';

// Issue acceptance (operator console): the operator signs in, imports two
// upstreams (local HTTP proxies leaving from 127.0.0.2 and 127.0.0.3), sees
// them healthy with their exit IPs once the periodic probe has run, raises a
// price (the customer's purchase form shows it), adjusts a customer's balance
// by 10 yuan with a reason (the customer sees it in the statement), and
// disables the customer (their session ends). A server of its own: its
// inventory and prices change, and the operator's first sign-in (one-time
// password) is part of the flow: a password of its own first, then the offer
// of two-factor, and no customer trial credit.
let server: TAppServer;
let browser: Browser;
const upstreams: TLocalUpstream[] = [];

beforeAll(async () => {
  upstreams.push(await startLocalUpstream({ localAddress: '127.0.0.2', username: 'alpha', password: 'pa' }));
  upstreams.push(await startLocalUpstream({ localAddress: '127.0.0.3', username: 'beta', password: 'pb' }));
  // The probe runs every second here; its echo is the API's own /api/proxy/echo (the address the upstream leaves from).
  // The operator keeps its one-time password: the flow makes its first sign-in.
  server = await startAppServer(
    { INVENTORY_PROBE_INTERVAL_S: '1', INVENTORY_PROBE_TIMEOUT_MS: '5000' },
    { keepOneTimePassword: true },
  );
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  for (const upstream of upstreams) await upstream.close();
});

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/e2e-${name}.png`, fullPage: true }).catch(() => undefined);
}

// antd's toasts on signed-in pages, the light ones (lib/light-toast) on the sign-in pages, which load no antd.
const toasts = (page: Page) =>
  page
    .locator('.ant-message-notice, .light-toast')
    .allInnerTexts()
    .then((texts) => texts.join('\n'));

describe('the operator console in the browser', () => {
  it('imports two upstreams that turn healthy with their exit IPs, raises a price, adjusts a balance and disables a customer', async () => {
    const oneTime = oneTimeOperatorAccount(server.output());
    const customer = await registerUser(server, 'customer');
    const customerInfo = await (
      await fetch(`${server.url}/api/user/info`, { headers: { authorization: `Bearer ${customer.token}` } })
    ).json();
    const customerId = customerInfo.data.user_id as number;

    const op = await newPage(browser, { locale: 'en-US' });
    const cu = await newPage(browser, { locale: 'en-US' });
    const page = op.page;
    try {
      // First sign-in with the printed one-time password: nothing of the console until a password of its own is set.
      await page.goto(`${server.url}/login`);
      await page.getByLabel('E-mail or username').fill(oneTime.email);
      await page.getByLabel('Password', { exact: true }).fill(oneTime.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      const gate = page.getByTestId('password-change-required');
      await gate.waitFor();
      expect(await page.getByTestId('admin-sidebar').count()).toBe(0);
      await gate.getByLabel('One-time password').fill(oneTime.password);
      await gate.getByLabel('New password', { exact: true }).fill('Operator-own-e2e-1');
      await gate.getByLabel('Confirm new password').fill('Operator-own-e2e-1');
      await gate.getByRole('button', { name: 'Change password' }).click();
      const offer = page.getByTestId('password-changed-offer');
      await offer.waitFor();
      await shoot(page, 'operator-first-sign-in');
      await offer.getByRole('button', { name: 'Later' }).click();
      await dismissNotice(page);
      // An operator account gets no customer trial credit.
      await page.goto(`${server.url}/`);
      await expect.poll(() => page.locator('body').innerText()).toContain('Available balance');
      expect(await page.locator('body').innerText()).not.toContain('¥15.00');
      await signIn(cu.page, server.url, customer);

      // A customer at /admin is refused.
      await cu.page.goto(`${server.url}/admin/inventory`);
      await expect.poll(() => cu.page.locator('body').innerText()).toContain('No permission');

      // Inventory: check, then import two upstreams.
      await page.goto(`${server.url}/admin/inventory`);
      await page.getByRole('tab', { name: 'Import' }).click();
      const csv = upstreams
        .map((u, i) => `127.0.0.1:${u.port}:${i === 0 ? 'alpha:pa' : 'beta:pb'},us,ca,los angeles`)
        .join('\n');
      await page.getByLabel('Upstream proxies (CSV)').fill(csv);
      await page.getByTestId('inventory-check').click();
      await expect
        .poll(() => page.getByTestId('inventory-result').innerText())
        .toContain('All 2 line(s) can be imported');
      await page.getByTestId('inventory-import').click();
      await expect.poll(() => page.getByTestId('inventory-result').innerText()).toContain('Imported 2 exit(s)');

      // The periodic probe marks both up with the address each leaves from.
      await page.getByRole('tab', { name: 'Exits' }).click();
      const rowOf = (u: TLocalUpstream) => page.locator('tr.ant-table-row', { hasText: `127.0.0.1:${u.port}` });
      await expect
        .poll(async () => {
          await page.reload();
          await page.getByRole('tab', { name: 'Exits' }).click();
          return Promise.all(upstreams.map(async (u) => ((await rowOf(u).count()) ? rowOf(u).innerText() : '')));
        })
        .toEqual([expect.stringMatching(/127\.0\.0\.2[\s\S]*Up/), expect.stringMatching(/127\.0\.0\.3[\s\S]*Up/)]);
      await shoot(page, 'operator-inventory');

      // Prices: a static IP day goes from 2 to 3 yuan, from now.
      await page.goto(`${server.url}/admin/prices`);
      await expect.poll(() => page.getByTestId('price-static_ip_day_fen').innerText()).toContain('2.00');
      await page.getByTestId('edit-static_ip_day_fen').click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('New price (yuan)').fill('3');
      await dialog.getByRole('button', { name: 'Save as new version' }).click();
      await expect.poll(() => page.getByTestId('price-static_ip_day_fen').innerText()).toContain('3.00');

      // The customer's purchase form prices one IP for one day at 3 yuan.
      await cu.page.goto(`${server.url}/proxy/isp/static`);
      await cu.page
        .getByRole('button', { name: /Buy proxies/ })
        .first()
        .click();
      const drawer = cu.page.getByRole('dialog').filter({ hasText: 'Buy proxies' });
      await drawer.locator('.ant-radio-button-wrapper', { hasText: 'By IP' }).click();
      await drawer.getByLabel('Country / region').click();
      await cu.page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
      await drawer.getByLabel('Duration').fill('1');
      await expect.poll(() => drawer.getByRole('button', { name: /Pay ¥3\.00 and buy/ }).count()).toBe(1);
      await cu.page.keyboard.press('Escape');

      // Balance: 10 yuan more, with a reason.
      await page.goto(`${server.url}/admin/users/${customerId}`);
      await page.getByTestId('admin-user-adjust').click();
      const adjust = page.getByRole('dialog').filter({ has: page.getByTestId('adjust-form') });
      await adjust.getByLabel('Amount (yuan)').fill('10');
      await adjust.getByLabel('Reason').fill('Goodwill for an outage');
      await adjust.getByRole('button', { name: 'Adjust', exact: true }).click();
      await adjust.waitFor({ state: 'hidden' });

      // The customer's statement shows it.
      await cu.page.goto(`${server.url}/charge`);
      await cu.page.getByRole('tab', { name: 'Transactions' }).click();
      const entry = cu.page.locator('tr.ant-table-row', { hasText: 'Adjustment' });
      await expect.poll(() => entry.count()).toBe(1);
      expect(await entry.innerText()).toContain('10.00');

      // Disabled: the customer's session ends at once.
      await page.getByTestId('admin-user-status').click();
      await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
      await expect.poll(() => page.getByTestId('admin-user-status').innerText()).toContain('Enable account');
      await cu.page.reload();
      await cu.page.waitForURL((url) => url.pathname === '/login');
      await expect.poll(() => toasts(cu.page)).toMatch(/no longer valid|disabled/i);
      await shoot(cu.page, 'operator-customer-disabled');
    } catch (error) {
      await shoot(page, 'operator-failure');
      await shoot(cu.page, 'operator-customer-failure');
      throw error;
    } finally {
      await op.context.close();
      await cu.context.close();
    }
  });
});
