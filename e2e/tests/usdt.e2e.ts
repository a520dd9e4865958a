import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startFakeEthereum, startFakeTron, type TFakeChain } from '@proxy/server/testing';
import { registerUser, startAppServer, type TAppServer } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { signIn } from '../support/console';

// Issue acceptance (USDT): a USDT order shows the exact amount, the network,
// our address and a countdown; the (local, fake) chain confirms the transfer;
// the order becomes success and the balance grows. Both networks, one server
// of its own (the shared one has no chains to watch).
let server: TAppServer;
let browser: Browser;
let tron: TFakeChain;
let ethereum: TFakeChain;

beforeAll(async () => {
  [tron, ethereum] = await Promise.all([startFakeTron(), startFakeEthereum()]);
  server = await startAppServer({ ...tron.env, ...ethereum.env, USDT_CNY_RATE: '7.20', USDT_POLL_INTERVAL_S: '1' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await Promise.all([tron?.close(), ethereum?.close()]);
});

const balance = (page: Page) => page.getByTestId('header-balance').innerText();

/** Picks an option and a USDT method, pays, and answers what the order asks to send. */
async function startUsdtOrder(
  page: Page,
  option: string,
  method: string,
): Promise<{ amount: string; address: string }> {
  await page.getByRole('radio').filter({ hasText: option }).click();
  await page.locator('label.ant-radio-button-wrapper', { hasText: method }).click();
  await page.getByTestId('charge-submit').click();
  const usdt = page.getByTestId('usdt-payment');
  await usdt.waitFor();
  const amount = /^([\d.]+) USDT$/.exec((await usdt.getByTestId('usdt-amount').innerText()).trim())?.[1];
  const address = (await usdt.getByTestId('usdt-address').innerText()).trim();
  expect(amount).toMatch(/^\d+\.\d{2}$/);
  return { amount: amount!, address };
}

/** USDT has 6 decimals on both networks: "14.23" is 14230000 units. */
const units = (amount: string) => BigInt(amount.replace('.', '')) * 10_000n;

describe('USDT top-up in the browser', () => {
  it('pays a TRC20 and an ERC20 order with their exact amounts; each completes once final and the balance grows', async () => {
    const account = await registerUser(server, 'usdt');
    const { page } = await newPage(browser, { locale: 'en-US' });
    await signIn(page, server.url, account);
    await expect.poll(() => balance(page)).toContain('15.00');
    await page.goto(`${server.url}/charge`);

    // TRC20, 100 yuan: 102 yuan to pay at 7.20 yuan per USDT is 14.17 USDT, plus the order's unique offset.
    const trc20 = await startUsdtOrder(page, '¥100.00', 'USDT (TRC20)');
    expect(Number(trc20.amount)).toBeGreaterThan(14.16);
    expect(Number(trc20.amount)).toBeLessThan(15.17);
    expect(trc20.address).toBe(tron.address);
    expect(await page.getByTestId('usdt-network').innerText()).toBe('TRON (TRC20)');
    expect(await page.getByTestId('usdt-countdown').innerText()).toMatch(/^00:(29|30):\d\d$/);
    await expect.poll(() => page.getByTestId('payment-status').innerText()).toBe('Pending payment');

    // Sent but not final: nothing yet. Final: the order is paid and the balance grows by 100.
    tron.send({ amount: units(trc20.amount) });
    await expect.poll(() => tron.requests.some((r) => r.call === 'trc20-listing')).toBe(true);
    expect(await page.getByTestId('payment-status').innerText()).toBe('Pending payment');
    tron.finalize();
    await expect.poll(() => page.getByTestId('payment-panel').innerText()).toContain('Payment received');
    await expect.poll(() => balance(page)).toContain('115.00');

    // ERC20, 10 yuan (11.10 to pay): the same, on the Ethereum fake.
    await page.getByRole('button', { name: 'Top up again' }).click();
    const erc20 = await startUsdtOrder(page, '¥10.00', 'USDT (ERC20)');
    expect(erc20.address).toBe(ethereum.address);
    expect(await page.getByTestId('usdt-network').innerText()).toBe('Ethereum (ERC20)');
    ethereum.send({ amount: units(erc20.amount) });
    ethereum.finalize();
    await expect.poll(() => page.getByTestId('payment-panel').innerText()).toContain('Payment received');
    await expect.poll(() => balance(page)).toContain('125.00');

    // The bills list both orders as paid.
    await page.getByRole('tab', { name: 'Bills' }).click();
    const paid = page.locator('.ant-table-tbody tr.ant-table-row', { hasText: 'Paid' });
    await expect.poll(() => paid.count()).toBe(2);
  });
});
