import type { Page } from 'playwright-core';
import { TOUR_COMPLETED_KEY } from './browser';

/**
 * Signs in through the login page (English) and closes the product notice.
 * The guided tour is marked completed first, so it does not stand in front of
 * the flow, unless `options.tour` (a test of the tour).
 */
export async function signIn(
  page: Page,
  baseUrl: string,
  account: { email: string; password: string },
  options: { tour?: boolean } = {},
): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  if (!options.tour) {
    await page.evaluate(
      (key) => window.localStorage.setItem(key, JSON.stringify({ value: true, time: Date.now(), expire: null })),
      TOUR_COMPLETED_KEY,
    );
  }
  await page.getByLabel('E-mail or username').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await dismissNotice(page);
}

/** The product notice shows once after sign-in; "do not show again" keeps it closed. */
export async function dismissNotice(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await dialog.getByRole('checkbox').check();
  await dialog.getByRole('button').last().click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Stores the console's language as its switch does (lib/i18n.ts) and loads the page again in it. */
export async function useLanguage(page: Page, lang: 'zh' | 'en'): Promise<void> {
  await page.evaluate(
    (value) => window.localStorage.setItem('PROXYHUB_LANG', JSON.stringify({ value, time: Date.now(), expire: null })),
    lang,
  );
  await page.reload();
  await page.waitForFunction((expected) => document.documentElement.lang === expected, lang === 'zh' ? 'zh-CN' : 'en');
}
