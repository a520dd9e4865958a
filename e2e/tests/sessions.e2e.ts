import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { registerUser, sharedServer, type TAppServer } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { signIn } from '../support/console';

// One user signed in in two browsers: the user centre lists both sessions,
// and ending the other one signs that browser out on its next call.
let server: TAppServer;
let browser: Browser;

beforeAll(async () => {
  server = sharedServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const sessionRows = (page: Page) => page.locator('[data-testid^="session-"]');

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/e2e-${name}.png`, fullPage: true }).catch(() => undefined);
}

describe('sessions in the browser', () => {
  it('lists the sessions of two browsers; ending the other one sends it to the sign-in page on its next call', async () => {
    const account = await registerUser(server, 'devices');
    // registerUser signed in through the API: end that session, so only the browsers' remain.
    const logout = await fetch(`${server.url}/api/user/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.token}` },
    });
    expect((await logout.json()).code).toBe(0);

    const first = await newPage(browser, { locale: 'en-US' });
    const second = await newPage(browser, { locale: 'en-US' });
    try {
      await signIn(first.page, server.url, account);
      await signIn(second.page, server.url, account);

      await first.page.goto(`${server.url}/user-center`);
      await expect.poll(() => sessionRows(first.page).count()).toBe(2);
      const current = sessionRows(first.page).filter({ hasText: 'This device' });
      const other = sessionRows(first.page).filter({ hasNotText: 'This device' });
      await expect.poll(() => current.count()).toBe(1);
      // Chromium's own User-Agent, read as browser and system, with the sign-in method.
      expect(await other.innerText()).toMatch(/Chrome \d+ · Linux/);
      expect(await other.innerText()).toContain('Signed in with: Password');
      expect(await current.getByRole('button', { name: /End the session/ }).count()).toBe(0);
      await shoot(first.page, 'sessions');

      await other.getByRole('button', { name: /End the session/ }).click();
      await first.page.locator('.ant-popover').getByRole('button', { name: 'End session' }).click();
      await expect.poll(() => sessionRows(first.page).count()).toBe(1);
      expect(await sessionRows(first.page).innerText()).toContain('This device');

      // The other browser still holds its token; its next call is refused and it lands on the sign-in page.
      await second.page.reload();
      await second.page.waitForURL(/\/login/);
      // This browser stays signed in.
      await first.page.reload();
      await expect.poll(() => sessionRows(first.page).count()).toBe(1);
      expect(new URL(first.page.url()).pathname).toBe('/user-center');
    } catch (error) {
      await shoot(first.page, 'sessions-failure');
      throw error;
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });
});
