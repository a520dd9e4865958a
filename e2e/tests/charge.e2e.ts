import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { registerUser, sharedServer, type TAppServer } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { signIn } from '../support/console';

// Issue acceptance (money in): a new user tops up 100 yuan with the sandbox,
// sees the fee (2 yuan) and the total (102 yuan) before paying, pays on the
// sandbox's page, sees 115 yuan, finds the order as success in the bills and
// the recharge in the transactions; a second order left pending is cancelled.
let server: TAppServer;
let browser: Browser;

beforeAll(async () => {
  server = sharedServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const balance = (page: Page) => page.getByTestId('header-balance').innerText();

describe('top-up in the browser', () => {
  it('tops up 100 yuan with the sandbox, then cancels a second order left pending', async () => {
    const account = await registerUser(server, 'payer');
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    try {
      await signIn(page, server.url, account);
      await expect.poll(() => balance(page)).toContain('15.00');
      await page.goto(`${server.url}/charge`);
      await expect.poll(() => page.getByTestId('sandbox-banner').count()).toBe(1);

      // 100 yuan: the fee and the total are shown before paying.
      await page.getByRole('radio').filter({ hasText: '¥100.00' }).click();
      await expect.poll(() => page.getByTestId('charge-fee').innerText()).toBe('¥2.00');
      await expect.poll(() => page.getByTestId('charge-price').innerText()).toContain('¥102.00');
      await expect.poll(() => page.getByTestId('non-refundable').count()).toBe(1);

      // Paying opens the sandbox's page in a new window; its "Pay" completes the order.
      const [payWindow] = await Promise.all([context.waitForEvent('page'), page.getByTestId('charge-submit').click()]);
      await payWindow.waitForLoadState();
      await expect.poll(() => payWindow.locator('body').innerText()).toContain('¥102.00');
      await payWindow.getByRole('button', { name: /Pay/ }).click();
      await payWindow.waitForURL(/\/charge\?order=/);
      await payWindow.close();

      // The order's live status ends in success; the header balance follows without a reload.
      await expect.poll(() => page.getByTestId('payment-panel').innerText()).toContain('Payment received');
      await expect.poll(() => balance(page)).toContain('115.00');

      // Bills: the order as success; transactions: the recharge with the balance after it.
      await page.getByRole('tab', { name: 'Bills' }).click();
      const bill = page.locator('.ant-table-tbody tr.ant-table-row').first();
      await expect.poll(() => bill.innerText()).toMatch(/Paid[\s\S]*102/);
      await page.getByRole('tab', { name: 'Transactions' }).click();
      const recharge = page.locator('tr.ant-table-row', { hasText: 'Recharge' });
      await expect.poll(() => recharge.count()).toBe(1);
      await expect.poll(() => recharge.innerText()).toMatch(/100\.00[\s\S]*115\.00/);

      // A second order, left pending, is cancelled.
      const chargeTabs = page.getByRole('tablist').filter({ has: page.getByRole('tab', { name: 'Bills' }) });
      await chargeTabs.getByRole('tab', { name: 'Top up' }).click();
      await page.getByRole('button', { name: 'Top up again' }).click();
      await page.getByRole('radio').filter({ hasText: '¥10.00' }).click();
      const [second] = await Promise.all([context.waitForEvent('page'), page.getByTestId('charge-submit').click()]);
      await second.close();
      await expect.poll(() => page.getByTestId('payment-panel').innerText()).toContain('Waiting for the payment');
      await page.getByTestId('payment-panel').getByRole('button', { name: 'Cancel order' }).click();
      await page
        .getByRole('button', { name: /^(OK|Yes|Cancel order)$/ })
        .last()
        .click();
      await expect.poll(() => page.getByTestId('payment-panel').innerText()).toContain('Order cancelled');
      await expect.poll(() => balance(page)).toContain('115.00');
    } finally {
      await context.close();
    }
  });
});
