import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { operatorAccount, sharedServer, type TAppServer } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { signIn } from '../support/console';

// Issue acceptance (honest marketing figures): the operator sees the countries actually in stock beside the
// figures, is warned that the claimed 195 countries exceed them, sets the figures, and the sign-in page shows the
// new ones to a visitor.
let server: TAppServer;
let browser: Browser;

beforeAll(async () => {
  server = sharedServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('marketing figures', () => {
  it('are set by the operator beside the countries in stock, and shown on the sign-in page', async () => {
    const ops = await newPage(browser, { locale: 'en-US' });
    try {
      await signIn(ops.page, server.url, operatorAccount(server));
      await ops.page.goto(`${server.url}/admin/notice`);
      const card = ops.page.getByTestId('claims-card');
      await expect.poll(() => card.innerText()).toMatch(/\d+ countr(y|ies) in stock/);
      // The spec's default claims 195 countries: more than the install has in stock.
      expect(await ops.page.getByTestId('claims-overclaimed').innerText()).toMatch(/claim 195 countries/);
      // The form holds the saved figures once they have loaded: only then are they replaced.
      await expect.poll(() => card.getByLabel('Uptime').inputValue()).not.toBe('');
      await card.getByLabel('Residential IPs').fill('2M+');
      await card.getByLabel('Countries').fill('3');
      await card.getByLabel('Uptime').fill('99.5%');
      await ops.page.getByTestId('claims-save').click();
      await expect.poll(() => ops.page.locator('body').innerText()).toContain('The marketing figures are saved');
      await ops.page.screenshot({ path: '/tmp/e2e-claims-card.png', fullPage: true }).catch(() => undefined);
    } finally {
      await ops.context.close();
    }

    const visitor = await newPage(browser, { locale: 'en-US' });
    try {
      await visitor.page.goto(`${server.url}/login`);
      const body = visitor.page.locator('body');
      await expect.poll(() => body.innerText()).toContain('2M+');
      expect(await body.innerText()).toContain('99.5%');
      expect(await body.innerText()).not.toContain('32M+');
    } finally {
      await visitor.context.close();
    }
  });
});
