import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TPayOrder } from '@proxy/contract';
import { setLanguage } from '../../../lib/i18n';
import { fail } from '../../../test/api-stub';
import { api, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { OPTIONS, makeOrder } from '../test/payments-fixtures';
import PaymentsPage from './payments-page';

const PAID = makeOrder({ order_id: 'R3001', status: 'success', is_completed: true, value: 100 });
const PENDING = makeOrder({ order_id: 'R3002', method: 'alipay', is_sandbox: false, value: 100 });
const EXPIRED = makeOrder({ order_id: 'R3003', method: 'usdt_trc20', status: 'timeout', is_sandbox: false, value: 50 });
const CANCELLED = makeOrder({ order_id: 'R3004', status: 'cancelled' });

let records: TPayOrder[];

async function rowOf(key: string): Promise<HTMLElement> {
  return waitFor(() => {
    const row = document.querySelector<HTMLElement>(`.ant-table-tbody tr[data-row-key="${key}"]`);
    if (!row) throw new Error(`no row ${key}`);
    return row;
  });
}

async function openBills(tab = 'Bills') {
  renderAt('/charge', <PaymentsPage />);
  await screen.findByTestId('sandbox-banner');
  fireEvent.click(screen.getByRole('tab', { name: tab }));
}

beforeEach(() => {
  records = [PAID, PENDING, EXPIRED, CANCELLED];
  api.on('payOptionList', () => OPTIONS);
  api.on('payRecordList', () => ({ records, total: records.length, page: 1, page_size: 10 }));
});

describe('"I have paid" in the bills', () => {
  it('is offered on pending and expired orders only', async () => {
    await openBills();
    expect(within(await rowOf('R3002')).getByRole('button', { name: 'I have paid' })).toBeTruthy();
    expect(within(await rowOf('R3003')).getByRole('button', { name: 'I have paid' })).toBeTruthy();
    expect(within(await rowOf('R3001')).queryByRole('button', { name: 'I have paid' })).toBeNull();
    expect(within(await rowOf('R3004')).queryByRole('button', { name: 'I have paid' })).toBeNull();
  });

  it('asks the server about the order, says a payment was credited, and the bill shows it paid', async () => {
    api.on('payCheck', (req) => {
      const order = { ...PENDING, order_id: req.params.order_id, status: 'success' as const, is_completed: true };
      records = [PAID, order, EXPIRED, CANCELLED];
      return { order, result: 'credited' as const, work_order_id: null };
    });
    await openBills();
    fireEvent.click(within(await rowOf('R3002')).getByRole('button', { name: 'I have paid' }));
    await waitFor(() => expect(shownMessages('success')).toContain('Payment found: ¥100.00 added to your balance'));
    expect(api.requestsTo('payCheck').map((r) => r.params)).toEqual([{ order_id: 'R3002' }]);
    await waitFor(() =>
      expect(
        within(document.querySelector<HTMLElement>('tr[data-row-key="R3002"]')!).queryByTestId('check-payment-R3002'),
      ).toBeNull(),
    );
  });

  it('says when nothing was found, when a work order was opened, and why a check was refused', async () => {
    let answer: 'not_found' | 'referred' | 'limited' = 'not_found';
    api.on('payCheck', () =>
      answer === 'limited'
        ? fail(429, 429, 'Too many attempts, please try again later', { error: 'RATE_LIMITED' })
        : { order: EXPIRED, result: answer, work_order_id: answer === 'referred' ? 41 : null },
    );
    await openBills();
    const button = within(await rowOf('R3003')).getByRole('button', { name: 'I have paid' });
    fireEvent.click(button);
    await waitFor(() =>
      expect(shownMessages('info')).toContain(
        'No payment found for this order yet. If you have just paid, check again in a few minutes.',
      ),
    );
    answer = 'referred';
    fireEvent.click(button);
    await waitFor(() =>
      expect(shownMessages('warning')).toContain(
        'A payment was found that cannot be credited automatically; work order #41 has been opened for our staff to check it.',
      ),
    );
    answer = 'limited';
    fireEvent.click(button);
    await waitFor(() =>
      expect(shownMessages('error')).toContain(
        'Checking the payment failed: Too many attempts, please try again later',
      ),
    );
  });

  it('speaks Chinese', async () => {
    act(() => setLanguage('zh'));
    api.on('payCheck', () => ({ order: EXPIRED, result: 'not_found' as const, work_order_id: null }));
    await openBills('账单');
    fireEvent.click(within(await rowOf('R3003')).getByRole('button', { name: '我已支付' }));
    await waitFor(() =>
      expect(shownMessages('info')).toContain('暂未找到该订单的付款。如刚刚支付，请几分钟后再查询。'),
    );
  });
});
