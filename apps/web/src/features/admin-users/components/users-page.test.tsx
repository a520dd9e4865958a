import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TAdminUser, TAdminUserDetail } from '@proxy/contract';
import { fail } from '../../../test/api-stub';
import { makeUser } from '../../../test/fixtures';
import { api, findModalWith, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { adminUsersRoutes } from '../routes';

const DANA: TAdminUser = {
  user_id: 5,
  username: 'dana',
  email: 'dana@example.com',
  status: 'active',
  is_admin: false,
  invite_code: 'DANA2026',
  invited_by: null,
  balance: 15,
  frozen_balance: 0,
  total_balance: 0,
  created_at: '2026-06-20T10:00:00.000Z',
  last_login_at: null,
};
const DANA_PAGE: TAdminUserDetail = {
  ...DANA,
  live_proxies: 2,
  recharge_orders: 1,
  invitees: 0,
  sessions: 1,
  inviter_email: null,
};

beforeEach(() => {
  api.on('userInfo', () => makeUser({ user_id: 1, email: 'ops@example.com', is_admin: true }));
  api.on('adminUserList', () => ({ records: [DANA], total: 1, page: 1, page_size: 20 }));
  api.on('adminUserDetail', (req) => (req.params.id === '5' ? DANA_PAGE : fail(404, 404, 'Not found')));
  api.on('adminUserLedger', () => ({ records: [], total: 0, page: 1, page_size: 10 }));
  api.on('adminUserOrders', () => ({ records: [], total: 0, page: 1, page_size: 10 }));
});

describe('accounts (operator area)', { timeout: 60_000 }, () => {
  it('lists accounts with balances and searches by one keyword, from page 1', async () => {
    renderAt('/admin/users', { featureRoutes: adminUsersRoutes });
    const row = (await screen.findByText('dana@example.com')).closest('tr')!;
    expect(within(row).getByText('Active')).toBeTruthy();
    expect(within(row).getByText('¥15.00')).toBeTruthy();
    expect(within(row).getByText('DANA2026')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('E-mail, username, ID or invite code'), { target: { value: ' dana ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(Object.fromEntries(api.requestsTo('adminUserList').at(-1)!.query)).toEqual({
        page: '1',
        page_size: '20',
        keyword: 'dana',
      }),
    );
  });

  it("adjusts an account's balance with a reason and one request id per dialog; a refused amount marks the field", async () => {
    let isRefused = true;
    api.on('adminUserAdjust', () =>
      isRefused
        ? fail(400, 400, 'Invalid request', {
            error: 'BAD_REQUEST',
            issues: [{ path: 'amount', message: 'The adjustment must be more than 0 and at most 1000000 yuan' }],
          })
        : { entry_id: 9, balance: 25, frozen_balance: 0, is_replay: false },
    );
    renderAt('/admin/users/5', { featureRoutes: adminUsersRoutes });
    expect((await screen.findByTestId('admin-user-detail')).textContent).toContain('Live proxies2');
    fireEvent.click(screen.getByTestId('admin-user-adjust'));
    const dialog = await findModalWith('Adjust balance');
    // Nothing is sent without an amount and a reason.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adjust' }));
    expect(await within(dialog).findByText('Enter the reason')).toBeTruthy();
    expect(api.requestsTo('adminUserAdjust')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Amount (yuan)'), { target: { value: '10' } });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Outage compensation' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adjust' }));
    expect(await within(dialog).findByText('The adjustment must be more than 0 and at most 1000000 yuan')).toBeTruthy();
    isRefused = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adjust' }));
    await waitFor(() => expect(shownMessages('success')).toContain('Balance adjusted: ¥25.00 available now'));
    const [first, second] = api.requestsTo('adminUserAdjust');
    expect(first.json).toMatchObject({ kind: 'credit', amount: '10', reason: 'Outage compensation' });
    // The retry in the same dialog carries the same request id: the server moves the money once.
    expect((second.json as { request_id: string }).request_id).toBe((first.json as { request_id: string }).request_id);
  });

  it('disables an account after a confirmation, and never offers the operator to disable or demote itself', async () => {
    api.on('adminUserSetStatus', () => ({ user_id: 5, status: 'disabled' as const }));
    renderAt('/admin/users/5', { featureRoutes: adminUsersRoutes });
    fireEvent.click(await screen.findByTestId('admin-user-status'));
    const confirm = await findModalWith('Disable dana@example.com?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(api.requestsTo('adminUserSetStatus')).toHaveLength(1));
    expect(api.requestsTo('adminUserSetStatus')[0].json).toMatchObject({ status: 'disabled' });

    api.on('adminUserDetail', () => ({ ...DANA_PAGE, user_id: 1, email: 'ops@example.com', is_admin: true }));
    renderAt('/admin/users/1', { featureRoutes: adminUsersRoutes });
    await waitFor(() => expect(screen.getAllByTestId('admin-user-status').at(-1)!.hasAttribute('disabled')).toBe(true));
    expect(screen.getAllByTestId('admin-user-role').at(-1)!.hasAttribute('disabled')).toBe(true);
  });

  it('says an unknown account does not exist', async () => {
    renderAt('/admin/users/404', { featureRoutes: adminUsersRoutes });
    expect(await screen.findByText('No such account')).toBeTruthy();
  });
});
