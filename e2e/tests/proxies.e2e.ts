import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { registerUser, sharedServer, type TAppServer } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { signIn } from '../support/console';

// Issue acceptance: buy a one-day static residential IP (2 yuan) with the trial
// credit, see the balance fall by 2, see it in the list, test it through the
// gateway, export it, show its QR code, edit its remark, batch delete and restore it.
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

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/e2e-${name}.png` }).catch(() => undefined);
}

describe('proxies in the browser', () => {
  it('buys, tests, exports, shows the QR code, edits the remark, deletes and restores a static IP', async () => {
    const account = await registerUser(server, 'buyer');
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    try {
      await signIn(page, server.url, account);
      await expect.poll(() => balance(page)).toContain('15.00');
      await page.goto(`${server.url}/proxy/isp/static`);

      // Buy: by IP, the gateway host's own area (US), HTTP, one day.
      await page
        .getByRole('button', { name: /Buy proxies/ })
        .first()
        .click();
      const drawer = page.getByRole('dialog').filter({ hasText: 'Buy proxies' });
      await drawer.locator('.ant-radio-button-wrapper', { hasText: 'By IP' }).click();
      await drawer.getByLabel('Country / region').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
      const days = drawer.getByLabel('Duration');
      await days.fill('1');
      await drawer.getByRole('button', { name: /Pay ¥2\.00 and buy/ }).click();
      await expect.poll(() => page.locator('body').innerText()).toMatch(/Your proxies are ready \(1\)/);
      await expect.poll(() => balance(page)).toContain('13.00');
      await page.getByRole('button', { name: 'Done' }).click();

      // In the list.
      const row = page.locator('.ant-table-tbody tr.ant-table-row').first();
      await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(1);

      // Test through the gateway.
      await row.getByRole('button', { name: 'Test' }).click();
      await expect.poll(() => page.getByRole('dialog').last().innerText(), { timeout: 30_000 }).toContain('The proxy works');
      expect(await page.getByRole('dialog').last().innerText()).toContain('127.0.0.1');
      await page.keyboard.press('Escape');

      // Remark, edited inline.
      await row.getByRole('button', { name: 'Edit remark' }).click();
      const remark = page.locator('.ant-table-tbody textarea, .ant-table-tbody input[type="text"]').first();
      await remark.fill('shop account 1');
      await remark.press('Enter');
      await expect.poll(() => row.innerText()).toContain('shop account 1');

      // QR code in the detail drawer, downloadable.
      await row.getByRole('button', { name: 'Details' }).click();
      await page.locator('.ant-qrcode canvas, .ant-qrcode svg').first().waitFor();
      const qrDownload = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download QR code' }).click();
      expect((await qrDownload).suggestedFilename()).toMatch(/\.png$/);
      await page.keyboard.press('Escape');

      // Export the selected proxy as host:port:user:pass.
      await row.locator('.ant-checkbox-input').check();
      await page.getByRole('button', { name: 'Export' }).first().click();
      const exportDownload = page.waitForEvent('download');
      await page.getByRole('dialog').last().getByRole('button', { name: 'Export' }).click();
      const file = await exportDownload;
      const text = readFileSync((await file.path())!, 'utf8');
      expect(text.trim()).toMatch(/^[\w.-]+:\d+:u[a-z0-9]{11}:[A-Za-z0-9]{16}$/);

      // Batch delete, then restore from the "Deleted" filter.
      await page.getByRole('button', { name: 'Batch delete' }).click();
      await page.getByRole('dialog').last().getByRole('button').last().click();
      await expect.poll(() => page.locator('body').innerText()).toContain('Successfully deleted 1/1');
      await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(0);
      await page.getByLabel('Status').click();
      await page.locator('.ant-select-dropdown:visible').getByText('Deleted', { exact: true }).click();
      await page.getByRole('button', { name: 'Search' }).click();
      await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(1);
      await page.locator('.ant-table-tbody tr.ant-table-row').first().locator('.ant-checkbox-input').check();
      await page.getByRole('button', { name: 'Batch restore' }).click();
      await expect.poll(() => page.locator('body').innerText()).toContain('Successfully restored 1/1');
    } catch (error) {
      await shoot(page, 'proxies-failure');
      throw error;
    } finally {
      await context.close();
    }
  });
});
