import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { startFakeAlipay, type TFakeAlipay } from '@proxy/server/testing';
import { callApi, registerUser, sharedServer, startAppServer, type TAppServer } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { signIn, useLanguage } from '../support/console';
import { createSandboxOrder, paySandboxOrder } from '../support/payments';

// Issue 35, item 9 ("I have paid"): on a pending order the bills offer the
// button; it asks the provider and says what it found, in the console's
// language: nothing yet, the order already paid (the sandbox's notification
// came while the bills were open), too many checks; and, when the provider
// has the payment but its notification never came (Alipay's fake), that the
// payment was found and credited, once.
let shared: TAppServer;
let browser: Browser;

beforeAll(async () => {
  shared = sharedServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const balance = (page: Page) => page.getByTestId('header-balance').innerText();
/** The toasts on screen now (none: an empty text, without waiting for one). */
const toasts = async (page: Page) => (await page.locator('.ant-message-notice').allInnerTexts()).join('\n');

/** Opens the bills tab of the charge page (in the console's language) and answers the order's row. */
async function billRow(page: Page, baseUrl: string, orderId: string, tabName: string): Promise<Locator> {
  await page.goto(`${baseUrl}/charge`);
  await page.getByRole('tab', { name: tabName }).click();
  const row = page.locator(`.ant-table-tbody tr[data-row-key="${orderId}"]`);
  await row.waitFor();
  return row;
}

describe('"I have paid" in the bills', () => {
  it('answers an unpaid order in English and Chinese, an order paid meanwhile as paid, and too many checks with a wait', async () => {
    const account = await registerUser(shared, 'paycheck');
    const orderId = await createSandboxOrder(shared, account.token, 10);
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    try {
      await signIn(page, shared.url, account);
      await expect.poll(() => balance(page)).toContain('15.00');

      // Unpaid: the row says so and the button finds nothing yet.
      let row = await billRow(page, shared.url, orderId, 'Bills');
      expect(await row.innerText()).toContain('Pending payment');
      await row.getByRole('button', { name: 'I have paid' }).click();
      await expect.poll(() => toasts(page)).toContain('No payment found for this order yet');
      expect(await row.innerText()).toContain('Pending payment');

      // The same in Chinese.
      await useLanguage(page, 'zh');
      row = await billRow(page, shared.url, orderId, '账单');
      expect(await row.innerText()).toContain('待支付');
      await row.getByRole('button', { name: '我已支付' }).click();
      await expect.poll(() => toasts(page)).toContain('暂未找到该订单的付款');

      // Paid at the sandbox while the bills are open (they do not reload by themselves): the button says it is paid,
      // the row follows and loses the button, the balance grows once.
      await paySandboxOrder(shared, orderId);
      expect(await row.innerText()).toContain('待支付');
      await row.getByRole('button', { name: '我已支付' }).click();
      await expect.poll(() => toasts(page)).toContain('该订单已支付');
      await expect.poll(() => row.innerText()).toContain('支付成功');
      expect(await row.getByRole('button', { name: '我已支付' }).count()).toBe(0);
      await expect.poll(() => balance(page)).toContain('25.00');

      // A second order checked again and again: the sixth check in ten minutes is refused with a wait, in English.
      await useLanguage(page, 'en');
      const second = await createSandboxOrder(shared, account.token, 20);
      row = await billRow(page, shared.url, second, 'Bills');
      const button = row.getByRole('button', { name: 'I have paid' });
      for (let check = 1; check <= 5; check += 1) {
        const answered = page.waitForResponse((res) => res.url().endsWith(`/api/pay/check/${second}`));
        await button.click();
        expect((await (await answered).json()).code).toBe(0);
      }
      await button.click();
      await expect.poll(() => toasts(page)).toContain('Too many attempts, please try again later');
      expect(await row.innerText()).toContain('Pending payment');
    } catch (error) {
      await page.screenshot({ path: '/tmp/e2e-payment-check-failure.png' }).catch(() => undefined);
      throw error;
    } finally {
      await context.close();
    }
  });

  it('credits an Alipay payment whose notification never came, once, and says how much', async () => {
    const alipay: TFakeAlipay = await startFakeAlipay();
    const server = await startAppServer(alipay.env);
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    try {
      const account = await registerUser(server, 'paylost');
      const order = await callApi(server.url, '/pay/charge/alipay/100', account.token, { method: 'POST' });
      expect(order.code, order.msg).toBe(0);
      const orderId = order.data.order_id as string;
      // The customer paid; Alipay has the trade, but its notification was lost on the way.
      alipay.trades.set(orderId, {
        trade_status: 'TRADE_SUCCESS',
        trade_no: '2026112822001400000000000001',
        total_amount: (order.data.price as number).toFixed(2),
      });

      await signIn(page, server.url, account);
      await expect.poll(() => balance(page)).toContain('15.00');
      const row = await billRow(page, server.url, orderId, 'Bills');
      await row.getByRole('button', { name: 'I have paid' }).click();
      await expect.poll(() => toasts(page)).toContain('Payment found: ¥100.00 added to your balance');
      await expect.poll(() => row.innerText()).toContain('Paid');
      expect(await row.getByRole('button', { name: 'I have paid' }).count()).toBe(0);
      await expect.poll(() => balance(page)).toContain('115.00');
      expect(alipay.requests.filter((r) => r.method === 'alipay.trade.query')).toHaveLength(1);

      // Credited once: one recharge in the transactions, and the order checked again stays paid once.
      await page.getByRole('tab', { name: 'Transactions' }).click();
      await expect.poll(() => page.locator('tr.ant-table-row', { hasText: 'Recharge' }).count()).toBe(1);
      const again = await callApi(server.url, `/pay/check/${orderId}`, account.token, { method: 'POST' });
      expect(again.data.result).toBe('already_paid');
      const info = await callApi(server.url, '/user/info', account.token);
      expect(info.data.balance).toBe(115);
    } catch (error) {
      await page.screenshot({ path: '/tmp/e2e-payment-check-alipay-failure.png' }).catch(() => undefined);
      throw error;
    } finally {
      await context.close();
      await server.stop();
      await alipay.close();
    }
  });
});
