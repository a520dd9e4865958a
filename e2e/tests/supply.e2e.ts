import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { registerUser, sharedServer, type TAppServer, operatorAccount } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { signIn } from '../support/console';

// Issue acceptance (supply requests): a user with balance asks for 2 GB of US
// traffic, sees the fee frozen and the available balance lower, revokes it and
// sees the balance restored; a second request is completed by an operator in
// the operator area and the traffic package appears in the user's list.
let server: TAppServer;
let browser: Browser;

beforeAll(async () => {
  server = sharedServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const balance = (page: Page) => page.getByTestId('header-balance').innerText();

/** Tops the user up by `amount` yuan with the sandbox provider, as its payment page would. */
async function topUp(token: string, amount: number): Promise<void> {
  const res = await fetch(`${server.url}/api/pay/charge/sandbox/${amount}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, lang: 'en' },
  });
  const order = (await res.json()) as { code: number; msg: string; data: { order_id: string } };
  if (order.code !== 0) throw new Error(`charge failed: ${order.msg}`);
  const paid = await fetch(`${server.url}/api/pay/sandbox/${order.data.order_id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'result=success',
    redirect: 'manual',
  });
  if (paid.status !== 303) throw new Error(`sandbox payment failed: ${paid.status}`);
}

/** Ids of the "submitted" toasts on the page. */
async function submittedIds(page: Page): Promise<number[]> {
  const text = await page.locator('body').innerText();
  return [...text.matchAll(/Supply request #(\d+) submitted; ¥80\.00 is frozen/g)].map((m) => Number(m[1]));
}

/** Fills the form for 2 GB of dynamic residential traffic in the US and submits it; resolves the new request's id. */
async function submitTwoGbOfUsTraffic(page: Page, earlier: number[] = []): Promise<number> {
  const form = page.getByTestId('supply-form');
  await form.getByLabel('Traffic', { exact: true }).fill('2');
  await form.getByLabel('Region').click();
  await form.getByLabel('Region').fill('United States');
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '(us)' }).click();
  await expect.poll(() => page.getByTestId('supply-fee').innerText()).toBe('¥80.00');
  await form.getByRole('checkbox', { name: 'I have read and agree to the supply terms' }).check();
  await page.getByTestId('supply-submit').click();
  await expect.poll(async () => (await submittedIds(page)).filter((id) => !earlier.includes(id))).toHaveLength(1);
  return (await submittedIds(page)).find((id) => !earlier.includes(id))!;
}

describe('supply requests in the browser', () => {
  it('freezes the fee, revokes and restores the balance; an operator completes a second request and the package is in the list', async () => {
    const account = await registerUser(server, 'restock');
    await topUp(account.token, 200);
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    const ops = await newPage(browser, { locale: 'en-US' });
    try {
      await signIn(page, server.url, account);
      await expect.poll(() => balance(page)).toContain('215.00');
      await page.goto(`${server.url}/proxy/isp/supply-request`);
      await expect.poll(() => page.getByTestId('supply-terms').count()).toBe(1);
      await expect.poll(() => page.getByTestId('supply-available').innerText()).toBe('¥215.00');

      // Submit: 80 yuan frozen, the available balance 80 lower.
      const first = await submitTwoGbOfUsTraffic(page);
      await expect.poll(() => balance(page)).toContain('135.00');
      await expect.poll(() => page.getByTestId('supply-frozen').innerText()).toBe('¥80.00');
      // The dashboard's frozen balance card shows it too.
      await page.goto(`${server.url}/`);
      await expect
        .poll(() => page.locator('.ant-card', { hasText: 'Frozen balance' }).first().innerText())
        .toContain('¥80.00');
      await page.goto(`${server.url}/proxy/isp/supply-request`);
      const history = page.getByTestId('supply-history');
      const firstRow = history.locator(`tr[data-row-key="${first}"]`);
      await expect.poll(() => firstRow.innerText()).toContain('Pending');

      // Revoke: the balance is restored.
      await page.getByTestId(`supply-revoke-${first}`).click();
      await page
        .getByRole('dialog')
        .filter({ hasText: `Revoke supply request #${first}?` })
        .getByRole('button', { name: 'OK' })
        .click();
      await expect.poll(() => firstRow.innerText()).toContain('Cancelled');
      await expect.poll(() => balance(page)).toContain('215.00');
      await expect.poll(() => page.getByTestId('supply-frozen').innerText()).toBe('¥0.00');

      // A second request, completed by an operator in the operator area.
      const second = await submitTwoGbOfUsTraffic(page, [first]);
      await expect.poll(() => balance(page)).toContain('135.00');
      await signIn(ops.page, server.url, operatorAccount(server));
      await ops.page.setViewportSize({ width: 1440, height: 900 });
      await ops.page.goto(`${server.url}/admin/supply`);
      // At 1440 px the pinned Actions column covers no other column (the deadline, "Refund at", last before it).
      const opsRowOf = ops.page.locator(`tr[data-row-key="${second}"]`);
      await opsRowOf.waitFor();
      const boxes = await opsRowOf.locator('td').evaluateAll((cells) =>
        cells.map((c) => {
          const r = c.getBoundingClientRect();
          return { left: r.left, right: r.right, isPinned: /cell-fix-(end|right)/.test(c.className) };
        }),
      );
      const pinned = boxes.find((b) => b.isPinned)!;
      const beforePinned = boxes.filter((b) => !b.isPinned).at(-1)!;
      expect(beforePinned.right).toBeLessThanOrEqual(pinned.left + 1);
      await ops.page.getByTestId(`supply-take-${second}`).click();
      await ops.page.getByTestId(`supply-complete-${second}`).click();
      await ops.page
        .getByRole('dialog')
        .filter({ hasText: `Complete request #${second}?` })
        .getByRole('button', { name: 'OK' })
        .click();
      const opsRow = ops.page.locator(`tr[data-row-key="${second}"]`);
      await expect.poll(() => opsRow.innerText()).toContain('Success');

      // The customer: success, the fee spent (not back), and the 2 GB package in the dynamic proxies list.
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect.poll(() => history.locator(`tr[data-row-key="${second}"]`).innerText()).toContain('Success');
      await page.goto(`${server.url}/proxy/isp/variable`);
      await expect.poll(() => page.locator('.ant-table-tbody').innerText()).toContain(`supply #${second}`);
      await expect.poll(() => balance(page)).toContain('135.00');
    } finally {
      await ops.context.close();
      await context.close();
    }
  });
});
