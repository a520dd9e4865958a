import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { registerUser, sharedServer, type TAppServer } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { signIn } from '../support/console';

let server: TAppServer;
let browser: Browser;

beforeAll(async () => {
  server = sharedServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('security page in the browser', () => {
  it('adds three whitelist entries in one go, refuses a duplicate, deletes one', async () => {
    const account = await registerUser(server, 'sec');
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    await signIn(page, server.url, account);
    await page.goto(`${server.url}/security`);
    const input = page.getByLabel('IP addresses').first();
    await input.fill('203.0.113.7; 198.51.100.0/24; 192.0.2.10-192.0.2.20');
    await page.getByRole('button', { name: 'Add', exact: true }).first().click();
    for (const entry of ['203.0.113.7', '198.51.100.0/24', '192.0.2.10-192.0.2.20']) {
      await expect.poll(() => page.locator('td', { hasText: entry }).count()).toBe(1);
    }
    // The same address again (written differently) is a duplicate, refused by the server.
    await input.fill('::ffff:203.0.113.7');
    await page.getByRole('button', { name: 'Add', exact: true }).first().click();
    await expect.poll(() => page.locator('body').innerText()).toContain('IP already exists in whitelist');
    // Delete one, with confirmation.
    await page
      .getByRole('button', { name: /203\.0\.113\.7/ })
      .first()
      .click();
    // The confirm dialog of this entry (not another dialog that may be closing), then its OK.
    const confirm = page.getByRole('dialog').filter({ hasText: '203.0.113.7 will be removed from the whitelist.' });
    await confirm.getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => confirm.count()).toBe(0);
    await expect.poll(() => page.locator('td', { hasText: '203.0.113.7' }).count()).toBe(0);
    await expect.poll(() => page.locator('td', { hasText: '198.51.100.0/24' }).count()).toBe(1);
    await context.close();
  });
});
