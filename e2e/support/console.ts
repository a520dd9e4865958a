import type { Page } from 'playwright-core';

/** Signs in through the login page (English) and closes the product notice. */
export async function signIn(page: Page, baseUrl: string, account: { email: string; password: string }): Promise<void> {
  await page.goto(`${baseUrl}/login`);
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
