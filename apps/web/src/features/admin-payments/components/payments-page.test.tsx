import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TAdminPayOrder, TUsdtTransfer } from '@proxy/contract';
import { makeUser } from '../../../test/fixtures';
import { api, findModalWith, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import dayjs from 'dayjs';
import { adminPaymentsRoutes } from '../routes';
import { customerFilter, dayRangeFilter } from './payments-page';

const TRANSFER: TUsdtTransfer = {
  id: 7,
  network: 'trc20',
  tx_hash: 'ab'.repeat(32),
  log_index: 0,
  block_number: 12,
  block_time: '2026-11-22T10:00:00.000Z',
  from: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
  amount: '3.33',
  status: 'unmatched',
  order_id: null,
  user_id: null,
  note: 'no order asks for 3.33 USDT in its time window',
  seen_at: '2026-11-22T10:01:00.000Z',
};

beforeEach(() => {
  api.on('userInfo', () => makeUser({ user_id: 1, email: 'ops@example.com', is_admin: true }));
  api.on('adminPayOrderList', () => ({ records: [], total: 0, page: 1, page_size: 20 }));
  api.on('adminPayUnmatchedList', () => ({ records: [TRANSFER], total: 1, page: 1, page_size: 20 }));
});

const PAID: TAdminPayOrder = {
  order_id: 'R1001',
  method: 'alipay',
  status: 'success',
  is_completed: true,
  description: 'Top up ¥100.00',
  date: '2026-11-22',
  created_at: '2026-11-22T02:00:00.000Z',
  paid_at: '2026-11-22T02:01:00.000Z',
  expires_at: '2026-11-22T02:30:00.000Z',
  amount: 100,
  gift: 0,
  fee: 2,
  price: 102,
  value: 100,
  is_sandbox: false,
  is_paid_late: false,
  crypto: null,
  reversed_at: null,
  user_id: 5,
  user_email: 'dana@example.com',
};

describe('payments (operator area)', () => {
  it("lists customers' orders and reverses a paid one with a reason, saying what was taken back and what is debt", async () => {
    let isReversed = false;
    api.on('adminPayOrderList', () => ({
      records: [{ ...PAID, reversed_at: isReversed ? '2026-11-23T00:00:00.000Z' : null }],
      total: 1,
      page: 1,
      page_size: 20,
    }));
    api.on('adminPayReverse', () => {
      isReversed = true;
      return {
        order: { ...PAID, reversed_at: '2026-11-23T00:00:00.000Z' },
        taken_back: 60,
        debt: 40,
        rebate: 'none' as const,
      };
    });
    renderAt('/admin/payments', { featureRoutes: adminPaymentsRoutes });
    const row = (await screen.findByText('dana@example.com')).closest('tr')!;
    fireEvent.click(within(row).getByTestId('reverse-R1001'));
    const dialog = await findModalWith('Reverse recharge R1001');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reverse' }));
    expect(await within(dialog).findByText('Enter the reason')).toBeTruthy();
    expect(api.requestsTo('adminPayReverse')).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Refunded by bank' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reverse' }));
    await waitFor(() => expect(shownMessages('success')).toContain('Reversed: ¥60.00 taken back, ¥40.00 left as debt'));
    expect(api.requestsTo('adminPayReverse')[0].json).toMatchObject({ reason: 'Refunded by bank' });
    await waitFor(() => expect(screen.queryByTestId('reverse-R1001')).toBeNull());
    expect(screen.getByText('Reversed')).toBeTruthy();
  });

  it('credits an unmatched USDT transfer to a customer with a yuan amount', async () => {
    api.on('adminPayAssignTransfer', () => ({ ...TRANSFER, status: 'credited' as const, user_id: 5 }));
    renderAt('/admin/payments', { featureRoutes: adminPaymentsRoutes });
    fireEvent.click(await screen.findByRole('tab', { name: 'Unmatched USDT' }));
    fireEvent.click(await screen.findByTestId('assign-7'));
    const dialog = await findModalWith('Credit 3.33 USDT to a customer');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Credit' }));
    expect(await within(dialog).findByText("Enter the customer's ID")).toBeTruthy();
    expect(api.requestsTo('adminPayAssignTransfer')).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('Customer ID'), { target: { value: '5' } });
    fireEvent.change(within(dialog).getByLabelText('Amount (yuan)'), { target: { value: '23.97' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Credit' }));
    await waitFor(() => expect(shownMessages('success')).toContain('The transfer has been credited'));
    expect(api.requestsTo('adminPayAssignTransfer')[0].json).toMatchObject({ user_id: 5, amount: '23.97' });
  });

  it('filters by customer id or e-mail and by a day range, from page 1', async () => {
    renderAt('/admin/payments', { featureRoutes: adminPaymentsRoutes });
    await waitFor(() => expect(api.requestsTo('adminPayOrderList')).toHaveLength(1));
    const lastQuery = () => Object.fromEntries(api.requestsTo('adminPayOrderList').at(-1)!.query);
    const customer = screen.getByLabelText('Customer ID or e-mail');
    const search = within(customer.closest('.ant-input-search') as HTMLElement).getByRole('button');
    fireEvent.change(customer, { target: { value: ' Dana@Example.com ' } });
    fireEvent.click(search);
    await waitFor(() =>
      expect(JSON.stringify(lastQuery())).toBe(
        JSON.stringify({ page: '1', page_size: '20', user_email: 'Dana@Example.com' }),
      ),
    );
    fireEvent.change(customer, { target: { value: '5' } });
    fireEvent.click(search);
    await waitFor(() =>
      expect(JSON.stringify(lastQuery())).toBe(JSON.stringify({ page: '1', page_size: '20', user_id: '5' })),
    );

    expect(customerFilter('')).toEqual({ user_id: undefined, user_email: undefined });
    expect(dayRangeFilter([dayjs('2026-11-01T15:00:00'), dayjs('2026-11-03T09:00:00')])).toEqual({
      from: dayjs('2026-11-01T00:00:00').toISOString(),
      to: dayjs('2026-11-04T00:00:00').toISOString(),
    });
    expect(dayRangeFilter(null)).toEqual({ from: undefined, to: undefined });
  });

  it('reconciles a pending order with its provider after a confirmation, and says what came of it', async () => {
    const pending = { ...PAID, order_id: 'R2002', status: 'pending' as const, is_completed: false, paid_at: null };
    api.on('adminPayOrderList', () => ({ records: [pending, PAID], total: 2, page: 1, page_size: 20 }));
    api.on('adminPayReconcile', () => ({
      order: { ...pending, status: 'success' as const },
      provider_state: 'paid' as const,
      result: 'credited' as const,
    }));
    renderAt('/admin/payments', { featureRoutes: adminPaymentsRoutes });
    fireEvent.click(await screen.findByTestId('reconcile-R2002'));
    expect(screen.queryByTestId('reconcile-R1001')).toBeNull();
    const confirm = await findModalWith('Ask the provider about order R2002?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(shownMessages('success')).toContain('The provider says it is paid: credited'));
    expect(api.requestsTo('adminPayReconcile')[0].params).toEqual({ order_id: 'R2002' });
  });

  it('opens the unmatched USDT queue from ?tab=unmatched', async () => {
    renderAt('/admin/payments?tab=unmatched', { featureRoutes: adminPaymentsRoutes });
    expect(await screen.findByText('no order asks for 3.33 USDT in its time window')).toBeTruthy();
  });
});
