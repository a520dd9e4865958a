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

describe('IP quality check in the browser', () => {
  it('checks a public address and shows its country and network', async () => {
    const account = await registerUser(server, 'ipq');
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    await signIn(page, server.url, account);
    await page.goto(`${server.url}/tools/ip-quality`);
    const input = page.getByLabel('IP address').first();
    // Prefilled with the address the server sees (loopback here).
    await expect.poll(() => input.inputValue()).toBe('127.0.0.1');
    await input.fill('8.8.8.8');
    await page.getByRole('button', { name: /^search Check$|^Check$/ }).click();
    await expect.poll(() => page.locator('body').innerText()).toContain('United States');
    const text = await page.locator('body').innerText();
    expect(text).toMatch(/Google/i);
    expect(text).toContain('Hosting / data center');
    // An empty address is refused in the form.
    await input.fill('');
    await page.getByRole('button', { name: /^search Check$|^Check$/ }).click();
    await expect.poll(() => page.locator('body').innerText()).toMatch(/IP address is required/i);
    await context.close();
  });
});
