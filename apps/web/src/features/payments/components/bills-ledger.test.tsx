import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { fail, raw } from '../../../test/api-stub';
import { pageOf } from '../../../test/fixtures';
import { api, findModalWith, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { OPTIONS, makeLedgerLine, makeOrder } from '../test/payments-fixtures';
import PaymentsPage from './payments-page';

const PAID = makeOrder({
  order_id: 'R2001',
  status: 'success',
  is_completed: true,
  description: 'Top up ¥100.00 (gift ¥5.00)',
  date: '2026-03-02',
  created_at: '2026-03-02T04:05:06.000Z',
  paid_at: '2026-03-02T04:06:00.000Z',
  amount: 100,
  gift: 5,
  fee: 2,
  price: 102,
  value: 105,
});
const PENDING = makeOrder({
  order_id: 'R2002',
  method: 'alipay',
  description: 'Top up ¥100.50',
  is_sandbox: false,
  amount: 100.5,
  gift: 0,
  fee: 2.01,
  price: 102.51,
  value: 100.5,
});

function renderPage() {
  return renderAt('/charge', <PaymentsPage />);
}

async function openTab(name: string) {
  await screen.findByTestId('sandbox-banner');
  fireEvent.click(screen.getByRole('tab', { name }));
}

/** The table row of an id (order id or statement line id). */
async function rowOf(key: string): Promise<HTMLElement> {
  return waitFor(() => {
    const row = document.querySelector<HTMLElement>(`.ant-table-tbody tr[data-row-key="${key}"]`);
    if (!row) throw new Error(`no row ${key}`);
    return row;
  });
}

/** Opens a Select by its label and picks an option. */
async function choose(label: string, option: string) {
  fireEvent.mouseDown(screen.getByLabelText(label));
  const dropdown = await waitFor(() => {
    const open = document.querySelector<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
    if (!open) throw new Error('dropdown not open');
    return open;
  });
  fireEvent.click(within(dropdown).getByText(option));
}

/** Types a range into a RangePicker (start, then end) the way a keyboard user does. */
async function typeRange(start: string, end: string) {
  const [from, to] = screen.getAllByPlaceholderText(/Start date|End date/) as HTMLInputElement[];
  fireEvent.mouseDown(from);
  fireEvent.focus(from);
  fireEvent.change(from, { target: { value: start } });
  fireEvent.keyDown(from, { key: 'Enter', code: 'Enter', keyCode: 13 });
  fireEvent.focus(to);
  fireEvent.change(to, { target: { value: end } });
  fireEvent.keyDown(to, { key: 'Enter', code: 'Enter', keyCode: 13 });
}

beforeEach(() => {
  api.on('payOptionList', () => OPTIONS);
  api.on('payRecordList', (req) => ({
    records: [PAID, PENDING],
    total: 25,
    page: Number(req.query.get('page') ?? 1),
    page_size: 10,
  }));
  api.on('payOrder', (req) => (req.params.order_id === PENDING.order_id ? PENDING : PAID));
});

describe('bills', () => {
  it('lists every field of a bill: order id, status, date, description, creation time, price, value, gift and fee', async () => {
    renderPage();
    await openTab('Bills');
    const row = await rowOf('R2001');
    const headers = [...document.querySelectorAll('.ant-table-thead th')].map((th) => th.textContent);
    expect(headers).toEqual([
      'Order ID',
      'Status',
      'Date',
      'Description',
      'Created',
      'Price',
      'Value',
      'Gift',
      'Fee',
      'Actions',
    ]);
    const cells = [...row.querySelectorAll('td')].map((td) => td.textContent);
    expect(cells.slice(0, 9)).toEqual([
      'R2001',
      'PaidSandbox',
      '2026-03-02',
      'Top up ¥100.00 (gift ¥5.00)',
      dayjs('2026-03-02T04:05:06.000Z').format('YYYY-MM-DD HH:mm:ss'),
      '¥102.00',
      '¥105.00',
      '¥5.00',
      '¥2.00',
    ]);
    const pending = await rowOf('R2002');
    expect(within(pending).getByTestId('payment-status').textContent).toBe('Pending payment');
    expect(within(pending).getByText('¥102.51')).toBeTruthy();
    // Only a pending order can be cancelled.
    expect(within(pending).getByTestId('cancel-order-R2002')).toBeTruthy();
    expect(within(row).queryByTestId('cancel-order-R2001')).toBeNull();
    expect(screen.getByText('Total 25')).toBeTruthy();
    const [first] = api.requestsTo('payRecordList');
    expect(Object.fromEntries(first.query)).toEqual({ page: '1', page_size: '10' });
  });

  it('sends the status and date filters and the page asked for', async () => {
    renderPage();
    await openTab('Bills');
    await rowOf('R2001');
    await choose('Status', 'Paid');
    await waitFor(() =>
      expect(api.requestsTo('payRecordList').some((r) => r.query.get('status') === 'success')).toBe(true),
    );

    await typeRange('2026-03-01', '2026-03-31');
    const withDates = await waitFor(() => {
      const found = api.requestsTo('payRecordList').find((r) => r.query.has('from'));
      if (!found) throw new Error('no dated request yet');
      return found;
    });
    expect(Object.fromEntries(withDates.query)).toEqual({
      status: 'success',
      // The first day included, the day after the last excluded, in the browser's time zone.
      from: dayjs('2026-03-01').startOf('day').toISOString(),
      to: dayjs('2026-04-01').startOf('day').toISOString(),
      page: '1',
      page_size: '10',
    });

    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(api.requestsTo('payRecordList').at(-1)!.query.get('page')).toBe('2'));
    expect(api.requestsTo('payRecordList').at(-1)!.query.get('status')).toBe('success');
  });

  it('exports the bills matching the filters as CSV', async () => {
    const savedCreate = URL.createObjectURL;
    const savedRevoke = URL.revokeObjectURL;
    // jsdom has no object URLs; the download itself is the browser's business.
    URL.createObjectURL = () => 'blob:bills';
    URL.revokeObjectURL = () => undefined;
    try {
      api.on('payRecordExport', () =>
        raw('order_id,status\nR2001,success\n', { headers: { 'content-type': 'text/csv; charset=utf-8' } }),
      );
      renderPage();
      await openTab('Bills');
      await rowOf('R2001');
      await choose('Status', 'Pending payment');
      await waitFor(() =>
        expect(api.requestsTo('payRecordList').some((r) => r.query.get('status') === 'pending')).toBe(true),
      );
      fireEvent.click(screen.getByText('Export CSV'));
      await waitFor(() => expect(api.requestsTo('payRecordExport')).toHaveLength(1));
      expect(Object.fromEntries(api.requestsTo('payRecordExport')[0].query)).toEqual({ status: 'pending' });
      await waitFor(() => expect(shownMessages('success')).toContain('Bills downloaded'));

      api.on('payRecordExport', () => fail(500, 500, 'Server error'));
      // A loading button ignores clicks: wait until the first export has finished.
      const button = screen.getByText('Export CSV').closest('button')!;
      await waitFor(() => expect(button.classList.contains('ant-btn-loading')).toBe(false));
      fireEvent.click(button);
      await waitFor(() => expect(shownMessages('error')).toEqual(['Export failed']));
    } finally {
      URL.createObjectURL = savedCreate;
      URL.revokeObjectURL = savedRevoke;
    }
  });

  it("shows an order's details and cancels it there while it is pending", async () => {
    let isCancelled = false;
    api.on('payOrder', () => (isCancelled ? { ...PENDING, status: 'cancelled' as const } : PENDING));
    api.on('payCancel', (req) => {
      isCancelled = true;
      return { ...PENDING, order_id: req.params.order_id, status: 'cancelled' as const };
    });
    renderPage();
    await openTab('Bills');
    const row = await rowOf('R2002');
    fireEvent.click(within(row).getByRole('button', { name: 'Details of R2002' }));
    const detail = await screen.findByTestId('order-detail');
    const drawer = detail.closest('.ant-drawer') as HTMLElement;
    expect(within(drawer).getByText('Order R2002')).toBeTruthy();
    expect(within(detail).getByText('Alipay')).toBeTruthy();
    expect(within(detail).getByText('Top up ¥100.50')).toBeTruthy();
    expect(within(detail).getByText('¥2.01')).toBeTruthy();
    expect(within(detail).getByText('¥102.51')).toBeTruthy();
    expect(within(detail).getByTestId('payment-status').textContent).toBe('Pending payment');

    fireEvent.click(within(drawer).getByTestId('cancel-order-R2002'));
    const dialog = await findModalWith('Cancel order R2002?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    await waitFor(() => expect(api.requestsTo('payCancel')).toHaveLength(1));
    expect(api.requestsTo('payCancel')[0].params).toEqual({ order_id: 'R2002' });
    await waitFor(() => expect(within(detail).getByTestId('payment-status').textContent).toBe('Cancelled'));
    expect(within(drawer).queryByTestId('cancel-order-R2002')).toBeNull();
    expect(shownMessages('success')).toContain('Order cancelled');
    // The bills reload.
    await waitFor(() => expect(api.requestsTo('payRecordList').length).toBeGreaterThan(1));
  });
});

describe('transactions', () => {
  const LINES = [
    makeLedgerLine({
      id: 3,
      reason: 'supply',
      amount: -10,
      frozen_amount: 10,
      balance_after: 107.5,
      frozen_after: 10,
      reference: 'supply #4',
    }),
    makeLedgerLine({
      id: 2,
      reason: 'purchase',
      amount: -2.5,
      balance_after: 117.5,
      reference: null,
      created_at: '2026-03-01T03:00:00.000Z',
    }),
    makeLedgerLine({ id: 1, reason: 'recharge', amount: 105, balance_after: 120, reference: 'R1001' }),
  ];

  it('shows every movement with its translated reason, signed amount and the balance after it', async () => {
    api.on('payLedgerList', () => pageOf(LINES));
    renderPage();
    await openTab('Transactions');
    const recharge = await rowOf('1');
    const cells = (row: HTMLElement) => [...row.querySelectorAll('td')].map((td) => td.textContent);
    expect(cells(recharge)).toEqual([
      dayjs('2026-03-01T02:05:00.000Z').format('YYYY-MM-DD HH:mm:ss'),
      'Recharge',
      '+¥105.00',
      '¥120.00',
      '-',
      '¥0.00',
      'R1001',
    ]);
    expect(cells(await rowOf('2')).slice(1)).toEqual(['Purchase', '-¥2.50', '¥117.50', '-', '¥0.00', '-']);
    expect(cells(await rowOf('3')).slice(1)).toEqual([
      'Supply request',
      '-¥10.00',
      '¥107.50',
      '+¥10.00',
      '¥10.00',
      'supply #4',
    ]);
    const headers = [...document.querySelectorAll('.ant-table-thead th')].map((th) => th.textContent);
    expect(headers).toEqual(['Time', 'Type', 'Amount', 'Balance after', 'Frozen change', 'Frozen after', 'Reference']);
  });

  it('sends the reason and date filters', async () => {
    api.on('payLedgerList', () => pageOf(LINES));
    renderPage();
    await openTab('Transactions');
    await rowOf('1');
    await choose('Type', 'Purchase');
    await waitFor(() =>
      expect(api.requestsTo('payLedgerList').some((r) => r.query.get('reason') === 'purchase')).toBe(true),
    );
    await typeRange('2026-02-01', '2026-02-28');
    const dated = await waitFor(() => {
      const found = api.requestsTo('payLedgerList').find((r) => r.query.has('from'));
      if (!found) throw new Error('no dated request yet');
      return found;
    });
    expect(Object.fromEntries(dated.query)).toEqual({
      reason: 'purchase',
      from: dayjs('2026-02-01').startOf('day').toISOString(),
      to: dayjs('2026-03-01').startOf('day').toISOString(),
      page: '1',
      page_size: '10',
    });
  });

  it('says "failed to fetch transactions" when the statement cannot be loaded', async () => {
    api.on('payLedgerList', () => fail(500, 500, 'Server error'));
    renderPage();
    await openTab('Transactions');
    await waitFor(() => expect(shownMessages('error')).toContain('Failed to fetch transactions'));
  });
});
