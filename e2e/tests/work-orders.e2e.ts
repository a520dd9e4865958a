import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { registerUser, sharedServer, type TAppServer, operatorAccount } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { signIn } from '../support/console';
import { mailText } from '../support/mail';

// A real 1x1 PNG: the server checks an image by its bytes, the browser must be able to show it.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let server: TAppServer;
let browser: Browser;

beforeAll(async () => {
  server = sharedServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** The customer's unread notifications, as the header bell counts them. */
async function unreadCount(token: string): Promise<number> {
  const res = await fetch(`${server.url}/api/user/notification/list?unread=true&page_size=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await res.json()) as { data: { unread: number } }).data.unread;
}

/** True once the conversation's image has loaded real pixels (the served bytes and type are right). */
function isImageShown(page: Page, alt: string): Promise<boolean> {
  return page
    .getByTestId('work-order-conversation')
    .locator(`img[alt="${alt}"]`)
    .first()
    .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.src.startsWith('blob:'))
    .catch(() => false);
}

describe('work orders in the browser', () => {
  it('a customer opens a work order with an image, the operator answers it in the operator area, and the reply appears with a notification', async () => {
    const customer = await registerUser(server, 'ticket');
    const operator = operatorAccount(server);
    const subject = `Proxy refuses my login ${Date.now().toString(36)}`;

    // The customer opens a work order with a screenshot.
    const { context: customerContext, page } = await newPage(browser, { locale: 'en-US' });
    await signIn(page, server.url, customer);
    await page.getByTestId('sidebar').getByRole('menuitem', { name: 'Work orders' }).click();
    await page.waitForURL((url) => url.pathname === '/work-orders');
    await page.getByRole('button', { name: 'New work order' }).click();
    await page.waitForURL((url) => url.pathname === '/work-orders/new');
    await page.getByRole('button', { name: 'Submit' }).click();
    // Nothing is sent while the form is incomplete; it says what is missing.
    await expect
      .poll(() => page.locator('.ant-form-item-explain-error').allInnerTexts())
      .toContain('Please enter a subject');

    await page.getByLabel('Category').click();
    await page.locator('.ant-select-item-option', { hasText: 'Proxy' }).click();
    await page.getByLabel('Subject').fill(subject);
    await page.getByLabel('Description').fill('The gateway answers 407 since this morning.');
    const uploaded = page.waitForResponse(
      (res) => res.url().endsWith('/api/user/work/order/attachment') && res.request().method() === 'POST',
    );
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'screenshot.png', mimeType: 'image/png', buffer: PNG });
    expect((await (await uploaded).json()).code).toBe(0);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL((url) => /^\/work-orders\/\d+$/.test(url.pathname));
    const workOrderId = Number(new URL(page.url()).pathname.split('/').pop());
    await expect
      .poll(() => page.getByTestId('work-order-conversation').innerText())
      .toContain('The gateway answers 407 since this morning.');
    await expect.poll(() => isImageShown(page, 'screenshot.png')).toBe(true);
    expect(await page.locator('[data-testid="work-order-status"]:visible').innerText()).toBe('Open');

    const unreadBefore = await unreadCount(customer.token);

    // The operator answers it from the queue in the operator area.
    const { context: operatorContext, page: operatorPage } = await newPage(browser, { locale: 'en-US' });
    await signIn(operatorPage, server.url, operator);
    await operatorPage.goto(`${server.url}/admin/work-orders`);
    const row = operatorPage.locator('tr', { hasText: subject });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.innerText()).toContain(customer.email);
    await row.getByRole('button', { name: 'View' }).click();
    await operatorPage.waitForURL((url) => url.pathname === `/admin/work-orders/${workOrderId}`);
    await expect
      .poll(() => operatorPage.getByTestId('work-order-conversation').innerText())
      .toContain('The gateway answers 407 since this morning.');
    await expect.poll(() => isImageShown(operatorPage, 'screenshot.png')).toBe(true);
    await operatorPage
      .getByLabel('Reply to the customer')
      .fill('Your proxy password was reset; please copy the new one.');
    await operatorPage.getByRole('button', { name: 'Send reply' }).click();
    await expect
      .poll(() => operatorPage.locator('[data-testid="work-order-status"]:visible').innerText())
      .toBe('Answered');
    await operatorContext.close();

    // The customer sees the reply, the bell counts the notification, and the e-mail has arrived.
    await page.reload();
    await expect
      .poll(() => page.getByTestId('work-order-conversation').innerText())
      .toContain('Your proxy password was reset; please copy the new one.');
    expect(await page.locator('[data-testid="work-order-status"]:visible').innerText()).toBe('Answered');
    expect(await unreadCount(customer.token)).toBe(unreadBefore + 1);
    await expect.poll(() => page.getByTestId('header-notifications').innerText()).toContain(String(unreadBefore + 1));
    await page.getByTestId('header-notifications').click();
    await page.waitForURL((url) => url.pathname === '/notifications');
    await expect.poll(() => page.locator('body').innerText()).toContain('Your work order has a reply');
    await expect.poll(() => mailText(server.latestMail(customer.email) ?? '')).toContain(`/work-orders/${workOrderId}`);
    expect(mailText(server.latestMail(customer.email)!)).toContain(
      'Your proxy password was reset; please copy the new one.',
    );
    await customerContext.close();
  });
});
