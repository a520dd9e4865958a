import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { registerUser, sharedServer, type TAppServer } from '../support/app-server';
import { TOUR_COMPLETED_KEY, launchBrowser, newPage } from '../support/browser';
import { signIn } from '../support/console';

// Issue acceptance (the rest of the console): a first-time user walks the
// guided tour's 6 steps and finishes it, it stays away after a reload and
// comes back after "reset the user guide"; the software page tells a user
// without the role why, and lists the downloads after a 10 yuan sandbox
// top-up; an expired and a revoked session say so on the way to /login and
// signing in again returns to the same page.
let server: TAppServer;
let browser: Browser;

beforeAll(async () => {
  server = sharedServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/e2e-console-${name}.png` }).catch(() => undefined);
}

const tour = (page: Page) => page.locator('.ant-tour').filter({ visible: true });
const tourStep = (page: Page, id: string) => page.getByTestId(`tour-step-${id}`).filter({ visible: true });
const tourButton = (page: Page, name: string) => tour(page).getByRole('button', { name, exact: true });
const group = (page: Page, name: string) => page.locator(`[data-tour="group:${name}"]`);
const isOpen = async (locator: Locator) => /ant-menu-submenu-open/.test((await locator.getAttribute('class')) ?? '');
const box = async (locator: Locator) => (await locator.boundingBox())!;
// antd's toasts on signed-in pages, the light ones (lib/light-toast) on the sign-in pages, which load no antd.
const toasts = (page: Page) => page.locator('.ant-message-notice, .light-toast').allInnerTexts();

/** The highlight (the tour's placeholder over the target) covers the target, within the tour's gap. */
async function expectHighlightOn(page: Page, target: Locator) {
  await expect
    .poll(async () => {
      const hole = await page.locator('.ant-tour-target-placeholder').boundingBox();
      const aim = await target.boundingBox();
      if (!hole || !aim) return false;
      const near = (a: number, b: number) => Math.abs(a - b) <= 12;
      return near(hole.x, aim.x) && near(hole.y, aim.y) && near(hole.width, aim.width) && near(hole.height, aim.height);
    })
    .toBe(true);
}

/** The tooltip (about 320 px wide) sits to the right of the target. */
async function expectTooltipRightOf(page: Page, target: Locator) {
  const tooltip = await box(tour(page));
  expect(Math.abs(tooltip.width - 320)).toBeLessThanOrEqual(8);
  const aim = await box(target);
  expect(tooltip.x).toBeGreaterThanOrEqual(aim.x + aim.width - 1);
}

/** Tops up with the sandbox provider on /charge (as charge.e2e.ts does), waiting for the payment. */
async function topUpWithSandbox(context: BrowserContext, page: Page, amount: string) {
  await page.goto(`${server.url}/charge`);
  await expect.poll(() => page.getByTestId('sandbox-banner').count()).toBe(1);
  await page.getByRole('radio').filter({ hasText: amount }).click();
  const [payWindow] = await Promise.all([context.waitForEvent('page'), page.getByTestId('charge-submit').click()]);
  await payWindow.waitForLoadState();
  await payWindow.getByRole('button', { name: /Pay/ }).click();
  await payWindow.waitForURL(/\/charge\?order=/);
  await payWindow.close();
  await expect.poll(() => page.getByTestId('payment-panel').innerText()).toContain('Payment received');
}

async function signInAgain(page: Page, account: { email: string; password: string }) {
  await page.getByLabel('E-mail or username').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describe('guided tour', () => {
  it('walks a first-time user through the 6 steps, stays finished after a reload, and comes back after a reset', async () => {
    const account = await registerUser(server, 'touring');
    const { context, page } = await newPage(browser, { locale: 'en-US', withTour: true });
    try {
      await signIn(page, server.url, account, { tour: true });
      // Step 1 (after the notice): the sidebar; Next only.
      await tourStep(page, 'sidebar').waitFor();
      expect(await tourButton(page, 'Previous').count()).toBe(0);
      expect(await tourButton(page, 'Finish').count()).toBe(0);
      const sidebar = page.getByTestId('sidebar');
      await expectHighlightOn(page, sidebar);
      await expectTooltipRightOf(page, sidebar);
      // The highlight follows a resize of the window (the sidebar is as tall as the reflowed page).
      const before = await box(sidebar);
      await page.setViewportSize({ width: 1000, height: 700 });
      await expect.poll(async () => (await box(sidebar)).height).not.toBe(before.height);
      await expectHighlightOn(page, sidebar);

      await tourButton(page, 'Next').click();
      await tourStep(page, 'menu').waitFor();
      expect(await tourButton(page, 'Previous').count()).toBe(1);
      await expectHighlightOn(page, page.locator('[data-tour="menu"]'));

      // Step 3: the residential group is collapsed; the tour opens it, then highlights it.
      expect(await isOpen(group(page, 'residential'))).toBe(false);
      await tourButton(page, 'Next').click();
      await tourStep(page, 'residential').waitFor();
      expect(await isOpen(group(page, 'residential'))).toBe(true);
      await expectHighlightOn(page, group(page, 'residential'));
      await expectTooltipRightOf(page, group(page, 'residential'));

      // Previous goes back one step, Next forward again.
      await tourButton(page, 'Previous').click();
      await tourStep(page, 'menu').waitFor();
      await tourButton(page, 'Next').click();
      await tourStep(page, 'residential').waitFor();

      expect(await isOpen(group(page, 'datacenter'))).toBe(false);
      await tourButton(page, 'Next').click();
      await tourStep(page, 'datacenter').waitFor();
      expect(await isOpen(group(page, 'datacenter'))).toBe(true);
      await expectHighlightOn(page, group(page, 'datacenter'));

      await tourButton(page, 'Next').click();
      await tourStep(page, 'billing').waitFor();
      await expectHighlightOn(page, page.locator('[data-tour="item:/charge"]'));
      expect(await tour(page).innerText()).toContain('Top up and bills');

      // The last step: centred on the screen, Finish instead of Next.
      await tourButton(page, 'Next').click();
      await tourStep(page, 'done').waitFor();
      expect(await tourButton(page, 'Next').count()).toBe(0);
      const last = await box(tour(page));
      const viewport = page.viewportSize()!;
      expect(Math.abs(last.x + last.width / 2 - viewport.width / 2)).toBeLessThanOrEqual(24);
      expect(Math.abs(last.y + last.height / 2 - viewport.height / 2)).toBeLessThanOrEqual(24);
      await shoot(page, 'tour-last-step');
      await tourButton(page, 'Finish').click();
      await expect.poll(() => tour(page).count()).toBe(0);
      expect(await page.evaluate((key) => window.localStorage.getItem(key), TOUR_COMPLETED_KEY)).toContain('true');

      // Finished: not back after a reload.
      await page.reload();
      await page.getByTestId('sidebar').waitFor();
      await expect.poll(() => page.getByTestId('header-balance').innerText()).toContain('15.00');
      expect(await tour(page).count()).toBe(0);

      // "Reset the user guide" in the user centre reloads the page, and the tour starts again.
      await page.goto(`${server.url}/user-center`);
      await page.getByTestId('reset-user-guide').click();
      await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'OK', exact: true }).click()]);
      await tourStep(page, 'sidebar').waitFor();
      expect(new URL(page.url()).pathname).toBe('/user-center');
    } catch (error) {
      await shoot(page, 'tour-failure');
      throw error;
    } finally {
      await context.close();
    }
  });
});

describe('software download', () => {
  it('tells a user without the role why, and lists the downloads after a 10 yuan sandbox top-up', async () => {
    // The operator's manifest and files in DATA_DIR/downloads, read on each call.
    const dir = path.join(server.dataDir, 'downloads');
    mkdirSync(dir, { recursive: true });
    const installer = Buffer.from(`ProxyHub desktop installer ${Date.now()}\n`.repeat(200));
    writeFileSync(path.join(dir, 'ProxyHub-2.0.0-x64.exe'), installer);
    writeFileSync(
      path.join(dir, 'manifest.json'),
      JSON.stringify({
        name: 'ProxyHub Desktop',
        releases: [
          {
            version: '2.0.0',
            date: '2026-05-01',
            notes: { zh: '全新界面。', en: 'A new interface.' },
            files: [
              { platform: 'windows', arch: 'x64', file: 'ProxyHub-2.0.0-x64.exe' },
              { platform: 'macos', file: 'ProxyHub-2.0.0.dmg' },
            ],
          },
        ],
      }),
    );

    const account = await registerUser(server, 'software');
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    try {
      await signIn(page, server.url, account);
      await page.goto(`${server.url}/tools/software`);
      const refusal = page.getByTestId('software-refusal');
      await expect.poll(() => refusal.count()).toBe(1);
      expect(await refusal.innerText()).toContain('total top-ups exceed 1 yuan');
      expect(await page.getByTestId('sidebar').innerText()).not.toContain('Software download');
      await page.getByRole('button', { name: 'Top up' }).click();
      await page.waitForURL(/\/charge$/);

      await topUpWithSandbox(context, page, '¥10.00');

      await page.goto(`${server.url}/tools/software`);
      const release = page.getByTestId('release-2.0.0');
      await release.waitFor();
      const text = await release.innerText();
      expect(text).toContain('ProxyHub Desktop 2.0.0');
      expect(text).toContain('A new interface.');
      expect(text).toContain('Not available yet');
      const sha256 = createHash('sha256').update(installer).digest('hex');
      expect(await page.getByTestId('sha256-ProxyHub-2.0.0-x64.exe').innerText()).toBe(sha256);
      expect(await page.getByTestId('sidebar').innerText()).toContain('Software download');
      await shoot(page, 'software');

      // The download is the browser's own, through a signed link: the same bytes.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('download-ProxyHub-2.0.0-x64.exe').click(),
      ]);
      expect(download.suggestedFilename()).toBe('ProxyHub-2.0.0-x64.exe');
      expect(readFileSync((await download.path())!).equals(installer)).toBe(true);
    } catch (error) {
      await shoot(page, 'software-failure');
      throw error;
    } finally {
      await context.close();
    }
  });
});

describe('session messages', () => {
  it('an expired session says so on the way to /login, and signing in again returns to the page', async () => {
    const account = await registerUser(server, 'expiring');
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    try {
      await signIn(page, server.url, account);
      await page.goto(`${server.url}/charge`);
      await page.getByTestId('sidebar').waitFor();
      // The stored token runs out (216000 s after it was written).
      await page.evaluate(() => {
        for (const store of [window.localStorage, window.sessionStorage]) {
          const raw = store.getItem('PROXYHUB_TOKEN');
          if (!raw) continue;
          const record = JSON.parse(raw) as { time: number; expire: number };
          store.setItem(
            'PROXYHUB_TOKEN',
            JSON.stringify({ ...record, time: Date.now() - (record.expire + 60) * 1000 }),
          );
        }
      });
      await page.getByTestId('sidebar').getByText('User center').click();
      await page.waitForURL(/\/login\?redirect=%2Fuser-center$/);
      await expect.poll(() => toasts(page)).toContain('Your session has expired, please sign in again!');
      await signInAgain(page, account);
      await page.waitForURL(/\/user-center$/);
    } catch (error) {
      await shoot(page, 'expired-failure');
      throw error;
    } finally {
      await context.close();
    }
  });

  it('a revoked session says so after the page load to /login, and signing in again returns to the page', async () => {
    const account = await registerUser(server, 'revoked');
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    try {
      await signIn(page, server.url, account);
      await page.goto(`${server.url}/charge`);
      await page.getByTestId('sidebar').waitFor();
      // The session ends elsewhere (signed out from another tab, an operator, a password change).
      const token = await page.evaluate(() => {
        const raw = window.localStorage.getItem('PROXYHUB_TOKEN') ?? window.sessionStorage.getItem('PROXYHUB_TOKEN');
        return raw ? (JSON.parse(raw) as { value: string }).value : '';
      });
      const out = await fetch(`${server.url}/api/user/logout`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      expect((await out.json()).code).toBe(0);
      await page.reload();
      await page.waitForURL(/\/login\?redirect=%2Fcharge$/);
      await expect.poll(() => toasts(page)).toContain('Your session is no longer valid, please sign in again!');
      await signInAgain(page, account);
      await page.waitForURL(/\/charge$/);
    } catch (error) {
      await shoot(page, 'revoked-failure');
      throw error;
    } finally {
      await context.close();
    }
  });
});
