import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TLocalOAuthProviders } from '@proxy/server/testing';
import { sharedServer, uniqueAccountName, waitForCode, type TAppServer } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { dismissNotice } from '../support/console';
import { startSharedOAuthProviders } from '../support/oauth';

// A new user's first visit, as README.md ("First run") starts it: the built console on the
// embedded database, in Chromium, with local GitHub and Google providers.
let server: TAppServer;
let providers: TLocalOAuthProviders;
let browser: Browser;

beforeAll(async () => {
  server = sharedServer();
  providers = await startSharedOAuthProviders();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await providers?.close();
});

/** A provider account no other flow signs in with (the id is the provider's own). */
function uniqueOAuthUser(name: string, id: string | number) {
  const { email, username } = uniqueAccountName(name);
  return { id, email, login: username, verified: true };
}

async function balanceText(page: Page): Promise<string> {
  return (await page.getByTestId('header-balance').textContent()) ?? '';
}

describe('accounts in the browser', () => {
  it('registers with the e-mailed code, sees 15 yuan, switches language and theme, signs out and back in', async () => {
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    // Signed out, a protected page redirects to login with the wanted path.
    await page.goto(`${server.url}/user-center`);
    await page.waitForURL(/\/login\?redirect=%2Fuser-center/);

    await page.goto(`${server.url}/register`);
    const { email, username } = uniqueAccountName('e2e');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByLabel('Verification code').fill(await waitForCode(server, email));
    await page.getByLabel('Password', { exact: true }).fill('correct horse 1');
    await page.getByLabel('Confirm password').fill('correct horse 2');
    await expect
      .poll(() => page.getByText('The two passwords you entered are inconsistent').count())
      .toBeGreaterThan(0);
    await page.getByLabel('Confirm password').fill('correct horse 1');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => balanceText(page)).toContain('15.00');
    await dismissNotice(page);

    // Language: Chinese after the switch, kept after a reload.
    await page.getByTestId('language-switch').click();
    const zhOption = page.getByText('简体中文');
    if (await zhOption.count()) await zhOption.first().click();
    await expect.poll(() => page.locator('body').innerText()).toMatch(/[\u4e00-\u9fff]{2,}/);
    await page.reload();
    await expect.poll(() => page.locator('body').innerText()).toMatch(/余额|退出|用户中心/);

    // Theme: dark after the toggle.
    const before = await page.evaluate(() => document.documentElement.dataset.theme);
    await page.getByTestId('theme-switch').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).not.toBe(before);

    // Sign out (with confirmation), then sign in with the password.
    await page.getByTestId('user-menu').click();
    await page.getByText('退出登录').click();
    await page.getByRole('button', { name: '确定' }).click();
    await page.waitForURL(/\/login/);
    await page
      .getByLabel(/邮箱|用户名/)
      .first()
      .fill(email);
    await page.getByLabel('密码', { exact: true }).fill('correct horse 1');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await expect.poll(() => balanceText(page)).toContain('15.00');
    await context.close();
  });

  it('signs in with GitHub (redirect) and Google (popup) against the local providers', async () => {
    providers.setGithubUser(uniqueOAuthUser('octo', Date.now()));
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Sign in with GitHub' }).click();
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => balanceText(page)).toContain('15.00');
    await context.close();

    providers.setGoogleUser({ ...uniqueOAuthUser('google', `g-${Date.now()}`), name: 'Goo Gle' });
    const second = await newPage(browser, { locale: 'en-US' });
    await second.page.goto(`${server.url}/login`);
    const popupPromise = second.page.waitForEvent('popup');
    await second.page.getByRole('button', { name: 'Sign in with Google' }).click();
    const popup = await popupPromise;
    await popup.waitForEvent('close', { timeout: 30_000 }).catch(() => undefined);
    await second.page.waitForURL(`${server.url}/`);
    await expect.poll(() => balanceText(second.page)).toContain('15.00');
    await second.context.close();
  });

  it('refuses an OAuth callback with a wrong state', async () => {
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    await page.goto(`${server.url}/oauth/callback/github?code=forged&state=not-issued`);
    await expect
      .poll(() => page.locator('body').innerText())
      .toContain('Google or GitHub sign-in failed, please try again');
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('TOKEN')).length)).toBe(0);
    await context.close();
  });
});
