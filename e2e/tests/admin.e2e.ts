import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { registerUser, sharedServer, type TAppServer, operatorAccount, callApi } from '../support/app-server';
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

const callJson = (path: string, token: string, init?: { method?: string; body?: unknown }) =>
  callApi(server.url, path, token, init);

/** Signs in through the API (a session of its own) and resolves the access token. */
async function apiToken(account: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${server.url}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'en' },
    body: new URLSearchParams({ email: account.email, password: account.password }).toString(),
  });
  const body = (await res.json()) as { code: number; msg: string; data: { token: string } };
  if (body.code !== 0) throw new Error(`sign-in failed: ${body.msg}`);
  return body.data.token;
}

describe('operator area in the browser', () => {
  it("shows the operator an audit entry of disabling a customer, reached from the console's user menu", async () => {
    const operator = operatorAccount(server);
    const customer = await registerUser(server, 'audited');
    const info = await callJson('/user/info', customer.token);
    const customerId = Number(info.data.user_id);
    expect(customerId).toBeGreaterThan(0);

    const disabled = await callJson(`/admin/users/${customerId}/status`, await apiToken(operator), {
      method: 'PUT',
      body: { status: 'disabled' },
    });
    expect(disabled).toMatchObject({ code: 0, data: { user_id: customerId, status: 'disabled' } });

    const { context, page } = await newPage(browser, { locale: 'en-US' });
    await signIn(page, server.url, operator);
    // The customer console offers the operator area to the operator.
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Operator area' }).click();
    // /admin leads to the first operator screen, the overview; the audit log is in the operator menu.
    await page.waitForURL((url) => url.pathname === '/admin/overview');
    await page.getByTestId('admin-sidebar').getByText('Audit log').click();
    await page.waitForURL((url) => url.pathname === '/admin/audit');
    const row = page.locator('tr', { hasText: `/admin/users/${customerId}/status` });
    await expect.poll(() => row.count()).toBe(1);
    const text = await row.innerText();
    expect(text).toContain('adminUserSetStatus');
    expect(text).toContain(operator.email);
    expect(text).toContain('Succeeded');
    expect(text).toContain('"status":"disabled"');
    // The operator menu and the way back.
    await expect.poll(() => page.getByTestId('admin-sidebar').innerText()).toContain('Audit log');
    await page.getByTestId('admin-back-to-console').click();
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });

  it('a customer at /admin/audit sees the 403 page and no operator call is made', async () => {
    const customer = await registerUser(server, 'curious');
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    const adminCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/admin/')) adminCalls.push(request.url());
    });
    await signIn(page, server.url, customer);
    // No operator entry in the customer's user menu.
    await page.getByTestId('user-menu').click();
    const userMenu = page.locator('.ant-dropdown');
    await userMenu.getByRole('menuitem', { name: 'User center' }).waitFor();
    expect(await userMenu.getByRole('menuitem', { name: 'Operator area' }).count()).toBe(0);

    await page.goto(`${server.url}/admin/audit`);
    await expect.poll(() => page.locator('body').innerText()).toContain('No permission');
    expect(await page.getByTestId('admin-sidebar').count()).toBe(0);
    expect(await page.locator('body').innerText()).not.toContain('Audit log');
    expect(adminCalls).toEqual([]);
    await context.close();
  });
});
