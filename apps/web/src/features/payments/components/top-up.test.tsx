import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { validationMessage } from '@proxy/contract';
import { setLanguage } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { writeRecord } from '../../../lib/storage';
import { fail } from '../../../test/api-stub';
import { makeUser } from '../../../test/fixtures';
import { api, findModalWith, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { paymentsRoutes } from '../routes';
import { OPTIONS, makeCharge, makeOrder } from '../test/payments-fixtures';
import PaymentsPage from './payments-page';

const PAY_URL = 'http://127.0.0.1/pay/sandbox/R1001';

function renderPage() {
  return renderAt('/charge', <PaymentsPage />);
}

const shown = (testId: string) => screen.getByTestId(testId).textContent;

function customAmount(): HTMLInputElement {
  // By id: the label is in the interface language.
  return document.getElementById('charge-custom-amount') as HTMLInputElement;
}

function typeCustom(value: string) {
  fireEvent.change(customAmount(), { target: { value } });
}

let openedWindows: string[] = [];

beforeEach(() => {
  openedWindows = [];
  // jsdom cannot open windows; record what the page asked for.
  vi.spyOn(window, 'open').mockImplementation((url) => {
    openedWindows.push(String(url));
    return null;
  });
  api.on('payOptionList', () => OPTIONS);
  api.on('payOrder', (req) => (req.params.order_id === 'R1001' ? makeOrder() : fail(404, 404, 'Not found')));
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('top up: amount, fee and total', () => {
  it('shows amount, gift, fee, total to pay and what the balance receives for an option and for a custom amount', async () => {
    renderPage();
    fireEvent.click(await screen.findByTestId('charge-option-2'));
    expect(screen.getByTestId('charge-option-2').textContent).toContain('Gift ¥5.00');
    await waitFor(() => expect(shown('charge-amount')).toBe('¥100.00'));
    expect(shown('charge-gift')).toBe('¥5.00');
    expect(shown('charge-fee')).toBe('¥2.00');
    expect(shown('charge-price')).toBe('¥102.00');
    expect(shown('charge-value')).toBe('¥105.00');
    expect(shown('charge-submit')).toBe('Pay ¥102.00');
    expect(screen.getByText('Fee (1% + ¥1.00)')).toBeTruthy();

    typeCustom('100.5');
    await waitFor(() => expect(shown('charge-fee')).toBe('¥2.01'));
    expect(shown('charge-amount')).toBe('¥100.50');
    expect(shown('charge-price')).toBe('¥102.51');
    // Not an option's amount: no gift.
    expect(shown('charge-gift')).toBe('¥0.00');
    expect(shown('charge-value')).toBe('¥100.50');
    expect(screen.getByTestId('charge-option-2').getAttribute('aria-checked')).toBe('false');

    // Typed, an option's amount brings its gift too.
    typeCustom('500');
    await waitFor(() => expect(shown('charge-gift')).toBe('¥30.00'));
    expect(shown('charge-fee')).toBe('¥6.00');
    expect(shown('charge-price')).toBe('¥506.00');
    expect(shown('charge-value')).toBe('¥530.00');
  });

  it('says before paying that a recharge is non-refundable', async () => {
    renderPage();
    expect((await screen.findByTestId('non-refundable')).textContent).toContain('Recharges are non-refundable');
  });

  it('refuses malformed and out-of-range custom amounts with the catalogue messages, and sends nothing', async () => {
    renderPage();
    await screen.findByTestId('charge-option-1');
    const formatMessage = validationMessage('amountFormat', 'en');
    const rangeMessage = validationMessage('amountRange', 'en', { min: '10', max: '50000' });
    expect(rangeMessage).toBe('The amount must be between 10 and 50000 yuan');

    const cases: [string, string][] = [
      ['abc', formatMessage],
      ['100.123', formatMessage],
      ['-5', formatMessage],
      ['1e3', formatMessage],
      ['0100', formatMessage],
      ['10,5', formatMessage],
      ['5', rangeMessage],
      ['9.99', rangeMessage],
      ['50000.01', rangeMessage],
    ];
    for (const [text, message] of cases) {
      // A valid amount first: no message, so the next one's message is its own.
      typeCustom('100');
      await waitFor(() => expect(screen.queryByText(formatMessage) ?? screen.queryByText(rangeMessage)).toBeNull());
      typeCustom(text);
      fireEvent.click(screen.getByTestId('charge-submit'));
      expect(await screen.findByText(message), `"${text}"`).toBeTruthy();
      expect(shown('charge-price'), `"${text}"`).toBe('-');
    }
    expect(api.requestsTo('payCharge')).toHaveLength(0);

    cleanup();
    act(() => setLanguage('zh'));
    renderPage();
    await screen.findByTestId('charge-option-1');
    typeCustom('12.345');
    fireEvent.click(screen.getByTestId('charge-submit'));
    expect(await screen.findByText('充值金额须为最多两位小数的数字，如 100 或 100.50')).toBeTruthy();
    typeCustom('1');
    expect(await screen.findByText('充值金额须在 10 至 50000 元之间')).toBeTruthy();
    expect(api.requestsTo('payCharge')).toHaveLength(0);
  });
});

describe('top up: methods and the sandbox', { timeout: 60_000 }, () => {
  it('offers only the methods the server lists, with Alipay page or QR when both are on', async () => {
    renderPage();
    expect(await screen.findByText('Alipay')).toBeTruthy();
    expect(screen.getByText('Sandbox')).toBeTruthy();
    expect(screen.queryByText('WeChat Pay')).toBeNull();
    expect(screen.getByText('Pay on the payment page')).toBeTruthy();
    expect(screen.getByText('Scan a QR code')).toBeTruthy();
    fireEvent.click(screen.getByText('Sandbox'));
    await waitFor(() => expect(screen.queryByText('Scan a QR code')).toBeNull());

    cleanup();
    queryClient.clear();
    api.on('payOptionList', () => ({
      ...OPTIONS,
      methods: [{ method: 'wechat' as const, modes: ['qr' as const] }],
      sandbox: false,
    }));
    renderPage();
    expect(await screen.findByText('WeChat Pay')).toBeTruthy();
    expect(screen.queryByText('Alipay')).toBeNull();
    expect(screen.queryByText('Sandbox')).toBeNull();
    // One mode only: nothing to choose.
    expect(screen.queryByText('Scan a QR code')).toBeNull();
  });

  it('shows the sandbox banner only while the sandbox is on', async () => {
    renderPage();
    expect((await screen.findByTestId('sandbox-banner')).textContent).toContain('no real money moves');

    cleanup();
    queryClient.clear();
    api.on('payOptionList', () => ({ ...OPTIONS, sandbox: false }));
    renderPage();
    await screen.findByText('Alipay');
    expect(screen.queryByTestId('sandbox-banner')).toBeNull();
  });

  it('says "fetch payment options failed" when the options cannot be loaded', async () => {
    api.on('payOptionList', () => fail(500, 500, 'Server error'));
    renderPage();
    expect(await screen.findByText('The recharge options could not be loaded.')).toBeTruthy();
    await waitFor(() => expect(shownMessages('error')).toContain('Fetch payment options failed'));
  });
});

describe('top up: paying', () => {
  it('pays on the payment page, follows the pending order until it is paid, then the header balance updates without a reload', async () => {
    // The console's own layout (header balance, menu) around the page.
    writeRecord('local', 'NOTICE_HIDDEN', true);
    let isPaid = false;
    api.on('userInfo', () => makeUser({ balance: isPaid ? 120 : 15, total_balance: isPaid ? 115 : 15 }));
    api.on('userNotificationList', () => ({ records: [], total: 0, page: 1, page_size: 1, unread: 0 }));
    api.on('payCharge', () => makeCharge());
    api.on('payOrder', (req) =>
      req.params.order_id !== 'R1001'
        ? fail(404, 404, 'Not found')
        : isPaid
          ? makeOrder({ status: 'success', is_completed: true, paid_at: '2026-03-01T02:01:00.000Z' })
          : makeOrder(),
    );
    const { router } = renderAt('/charge', { featureRoutes: paymentsRoutes });
    await waitFor(() => expect(screen.getByTestId('header-balance').textContent).toContain('¥15.00'));
    expect(router.state.location.pathname).toBe('/charge');
    expect(screen.getByRole('menuitem', { name: /Top up/ })).toBeTruthy();

    fireEvent.click(await screen.findByTestId('charge-option-2'));
    fireEvent.click(screen.getByText('Sandbox'));
    fireEvent.click(screen.getByTestId('charge-submit'));
    await waitFor(() => expect(api.requestsTo('payCharge')).toHaveLength(1));
    const [charge] = api.requestsTo('payCharge');
    expect(charge.params).toEqual({ method: 'sandbox', amount: '100' });
    expect(charge.json).toEqual({ method: 'sandbox', amount: '100' });

    const panel = await screen.findByTestId('payment-panel');
    expect(within(panel).getByTestId('payment-status').textContent).toBe('Pending payment');
    expect(openedWindows).toEqual([PAY_URL]);
    expect(within(panel).getByTestId('pay-page-link').getAttribute('href')).toBe(PAY_URL);
    // Polled while pending.
    await waitFor(() => expect(api.requestsTo('payOrder').length).toBeGreaterThan(0));
    expect(screen.getByTestId('payment-status').textContent).toBe('Pending payment');
    const userInfoCalls = api.requestsTo('userInfo').length;

    isPaid = true;
    await waitFor(() => expect(screen.getByTestId('payment-status').textContent).toBe('Paid'));
    expect(screen.getByText('¥105.00 has been added to your balance.')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('header-balance').textContent).toContain('¥120.00'));
    expect(api.requestsTo('userInfo').length).toBeGreaterThan(userInfoCalls);
    expect(shownMessages('success')).toContain('Payment received: ¥105.00 added to your balance');
  });

  it('shows the QR code of an Alipay QR payment and opens no window', async () => {
    api.on('payCharge', () =>
      makeCharge({
        method: 'alipay',
        is_sandbox: false,
        mode: 'qr',
        pay_url: null,
        qr_code: 'https://qr.alipay.com/bax08431',
      }),
    );
    renderPage();
    fireEvent.click(await screen.findByTestId('charge-option-2'));
    fireEvent.click(screen.getByText('Scan a QR code'));
    fireEvent.click(screen.getByTestId('charge-submit'));
    await waitFor(() => expect(api.requestsTo('payCharge')).toHaveLength(1));
    expect(api.requestsTo('payCharge')[0].json).toEqual({ method: 'alipay', amount: '100', mode: 'qr' });
    const qr = await screen.findByTestId('pay-qr-code');
    expect(qr.querySelector('svg')).toBeTruthy();
    expect(screen.getByText('Scan the code with Alipay to pay.')).toBeTruthy();
    expect(screen.getByTestId('payment-status').textContent).toBe('Pending payment');
    expect(openedWindows).toEqual([]);
  });

  it('shows the exact amount, network, address and countdown of a USDT order, and opens no window', async () => {
    const expiresAt = new Date(Date.now() + 30 * 60_000).toISOString();
    const crypto = {
      network: 'trc20' as const,
      token: 'USDT' as const,
      amount: '14.23',
      address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
      rate: '7.20',
    };
    api.on('payOptionList', () => ({
      ...OPTIONS,
      methods: [...OPTIONS.methods, { method: 'usdt_trc20' as const, modes: ['qr' as const] }],
    }));
    api.on('payCharge', () =>
      makeCharge({
        method: 'usdt_trc20',
        is_sandbox: false,
        mode: 'qr',
        pay_url: null,
        qr_code: crypto.address,
        crypto,
        expires_at: expiresAt,
      }),
    );
    renderPage();
    fireEvent.click(await screen.findByTestId('charge-option-2'));
    fireEvent.click(screen.getByText('USDT (TRC20)'));
    fireEvent.click(screen.getByTestId('charge-submit'));
    await waitFor(() => expect(api.requestsTo('payCharge')).toHaveLength(1));
    expect(api.requestsTo('payCharge')[0].json).toEqual({ method: 'usdt_trc20', amount: '100' });

    const usdt = await screen.findByTestId('usdt-payment');
    expect(within(usdt).getByTestId('usdt-amount').textContent).toContain('14.23 USDT');
    expect(within(usdt).getByTestId('usdt-network').textContent).toBe('TRON (TRC20)');
    expect(within(usdt).getByTestId('usdt-address').textContent).toContain(crypto.address);
    expect(within(usdt).getByTestId('usdt-qr-code').querySelector('svg')).toBeTruthy();
    expect(within(usdt).getByText('Send exactly 14.23 USDT on TRON (TRC20)')).toBeTruthy();
    expect(within(usdt).getByText('1 USDT = ¥7.20')).toBeTruthy();
    expect(within(usdt).getByTestId('usdt-countdown').textContent).toMatch(/^00:(29|30):\d\d$/);
    // Not the Alipay or sandbox ways of paying.
    expect(screen.queryByTestId('pay-qr-code')).toBeNull();
    expect(screen.queryByTestId('pay-page-link')).toBeNull();
    expect(openedWindows).toEqual([]);
  });

  it('cancels a pending order', async () => {
    let isCancelled = false;
    api.on('payCharge', () => makeCharge());
    api.on('payOrder', () => makeOrder({ status: isCancelled ? 'cancelled' : 'pending' }));
    api.on('payCancel', (req) => {
      isCancelled = true;
      return makeOrder({ order_id: req.params.order_id, status: 'cancelled' });
    });
    renderPage();
    fireEvent.click(await screen.findByTestId('charge-option-2'));
    fireEvent.click(screen.getByTestId('charge-submit'));
    fireEvent.click(await screen.findByTestId('cancel-order-R1001'));
    const dialog = await findModalWith('Cancel order R1001?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    await waitFor(() => expect(api.requestsTo('payCancel')).toHaveLength(1));
    expect(api.requestsTo('payCancel')[0].params).toEqual({ order_id: 'R1001' });
    expect(await screen.findByText('This order will not be charged.')).toBeTruthy();
    expect(screen.getByTestId('payment-status').textContent).toBe('Cancelled');
    expect(shownMessages('success')).toContain('Order cancelled');
  });

  it('says why a payment could not be started and stays on the form', async () => {
    api.on('payCharge', () =>
      fail(400, 5001, 'This payment method is not available', { error: 'PAY_METHOD_UNAVAILABLE' }),
    );
    renderPage();
    fireEvent.click(await screen.findByTestId('charge-option-2'));
    fireEvent.click(screen.getByTestId('charge-submit'));
    await waitFor(() =>
      expect(shownMessages('error')).toContain(
        'The payment could not be started: This payment method is not available',
      ),
    );
    expect(screen.queryByTestId('payment-panel')).toBeNull();
    expect(screen.getByTestId('charge-submit')).toBeTruthy();
    expect(openedWindows).toEqual([]);
  });
});
