import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TAdminWorkOrder, TAdminWorkOrderDetail } from '@proxy/contract';
import { makeUser } from '../../../test/fixtures';
import { api, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { adminWorkOrderRoutes } from '../routes';
import AdminWorkOrderPage from './admin-work-order-page';

const WAITING: TAdminWorkOrder = {
  id: 7,
  category: 'proxy',
  subject: 'Gateway refuses my login',
  status: 'open',
  token_id: 3,
  supply_request_id: null,
  created_at: '2026-06-20T10:00:00.000Z',
  updated_at: '2026-06-20T10:00:00.000Z',
  user_id: 42,
  user_email: 'ann@example.com',
  username: 'ann',
};

const DETAIL: TAdminWorkOrderDetail = {
  ...WAITING,
  messages: [
    {
      message_id: 1,
      author: 'customer',
      content: 'It says 407.',
      attachments: [],
      created_at: '2026-06-20T10:00:00.000Z',
    },
  ],
};

beforeEach(() => {
  api.on('userInfo', () => makeUser({ user_id: 1, email: 'ops@example.com', is_admin: true }));
  api.on('adminWorkOrderList', (req) => ({
    records: req.query.get('status') === 'open' ? [WAITING] : [],
    total: 1,
    page: 1,
    page_size: 20,
  }));
  api.on('adminWorkOrderDetail', () => DETAIL);
});

describe('work-order queue (operator area)', { timeout: 60_000 }, () => {
  it('lists the open work orders with their customers, in the operator menu', async () => {
    renderAt('/admin/work-orders', { featureRoutes: adminWorkOrderRoutes });
    const row = (await screen.findByText('Gateway refuses my login')).closest('tr')!;
    expect(within(row).getByText('ann')).toBeTruthy();
    expect(within(row).getByText('ann@example.com · ID 42')).toBeTruthy();
    expect(within(row).getByText('Open')).toBeTruthy();
    expect(api.requestsTo('adminWorkOrderList')[0].query.get('status')).toBe('open');
    expect(within(screen.getByTestId('admin-sidebar')).getByText('Work orders')).toBeTruthy();
  });

  it('answers a work order: the reply is checked, then sent', async () => {
    api.on('adminWorkOrderReply', (req) => ({
      ...DETAIL,
      status: 'answered' as const,
      messages: [
        ...DETAIL.messages,
        {
          message_id: 2,
          author: 'operator' as const,
          content: (req.json as { content: string }).content,
          attachments: [],
          created_at: '2026-06-20T11:00:00.000Z',
        },
      ],
    }));
    renderAt('/admin/work-orders/7', [{ path: '/admin/work-orders/:id', element: <AdminWorkOrderPage /> }]);
    expect(await screen.findByText('It says 407.')).toBeTruthy();
    expect(within(screen.getByTestId('work-order-message-customer')).getByText('Customer')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('Please describe your question')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('The customer gets a notification and an e-mail'), {
      target: { value: 'Reset the password.' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    await waitFor(() => expect(api.requestsTo('adminWorkOrderReply')).toHaveLength(1));
    expect(api.requestsTo('adminWorkOrderReply')[0].json).toEqual({ id: 7, content: 'Reset the password.' });
    await waitFor(() => expect(shownMessages('success')).toContain('Reply sent; the customer was notified'));
  });
});
