import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TAdminUserDetail, TAdminUserProxy } from '@proxy/contract';
import { makeUser } from '../../../test/fixtures';
import { api, findModalWith, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { adminUsersRoutes } from '../routes';

const DANA: TAdminUserDetail = {
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
  live_proxies: 2,
  recharge_orders: 0,
  invitees: 1,
  sessions: 2,
  inviter_email: null,
};

const PROXY: TAdminUserProxy = {
  token_id: 31,
  username: 'u5_dyn_abc',
  product: 'dynamic',
  category: 'isp',
  billing: 'traffic',
  network: 'HTTP',
  country: 'us',
  state: 'ca',
  city: '',
  status: 'enabled',
  expires_at: '2026-07-20T10:00:00.000Z',
  traffic_used: 1536,
  traffic_limit: 1024 ** 3,
  created_at: '2026-06-20T10:00:00.000Z',
};

const SESSIONS = [
  {
    id: 71,
    method: 'password' as const,
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
    ip: '203.0.113.7',
    created_at: '2026-06-20T10:00:00.000Z',
    last_used_at: '2026-06-21T10:00:00.000Z',
  },
  {
    id: 70,
    method: 'register' as const,
    user_agent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
    ip: '198.51.100.2',
    created_at: '2026-06-19T10:00:00.000Z',
    last_used_at: '2026-06-19T11:00:00.000Z',
  },
];

beforeEach(() => {
  api.on('userInfo', () => makeUser({ user_id: 1, email: 'ops@example.com', is_admin: true }));
  api.on('adminUserDetail', () => DANA);
  api.on('adminUserLedger', () => ({ records: [], total: 0, page: 1, page_size: 10 }));
  api.on('adminUserOrders', () => ({ records: [], total: 0, page: 1, page_size: 10 }));
  api.on('adminUserProxies', (req) => ({
    records:
      req.query.get('page') === '2'
        ? [{ ...PROXY, token_id: 30, username: 'u5_old', status: 'deleted' as const }]
        : [PROXY],
    total: 11,
    page: Number(req.query.get('page')),
    page_size: 10,
  }));
  api.on('adminUserSessions', () => ({ records: SESSIONS, total: 2, page: 1, page_size: 10 }));
  api.on('adminUserInvitees', () => ({
    records: [
      {
        user_id: 9,
        username: 'kid',
        email: 'kid@example.com',
        status: 'active' as const,
        total_balance: 100,
        created_at: '2026-06-22T10:00:00.000Z',
      },
    ],
    total: 1,
    page: 1,
    page_size: 10,
  }));
});

async function openTab(name: string) {
  renderAt('/admin/users/5', { featureRoutes: adminUsersRoutes });
  await screen.findByTestId('admin-user-detail');
  fireEvent.click(screen.getByRole('tab', { name }));
}

describe("an account's page: proxies, sessions, invitees and e-mails (operator area)", () => {
  it('lists the proxies page by page with product, area, status, expiry and traffic used', async () => {
    await openTab('Proxies');
    const table = await screen.findByTestId('admin-user-proxies');
    const row = (await within(table).findByText('u5_dyn_abc')).closest('tr')!;
    expect(row.textContent).toContain('ISP residential · Dynamic · By traffic');
    expect(row.textContent).toContain('US / ca');
    expect(row.textContent).toContain('Enabled');
    expect(row.textContent).toContain('1.50 KB / 1.00 GB');
    expect(Object.fromEntries(api.requestsTo('adminUserProxies').at(-1)!.query)).toEqual({
      page: '1',
      page_size: '10',
    });
    fireEvent.click(screen.getByTitle('2'));
    expect((await within(table).findByText('u5_old')).closest('tr')!.textContent).toContain('Deleted');
    expect(api.requestsTo('adminUserProxies').at(-1)!.query.get('page')).toBe('2');
    expect(api.requestsTo('adminUserProxies').at(-1)!.params.id).toBe('5');
  });

  it('lists the open sessions and ends one after a confirmation', async () => {
    api.on('adminUserSessionEnd', () => null);
    await openTab('Sessions');
    const table = await screen.findByTestId('admin-user-sessions');
    // The device as the customer's own list names it, not the raw User-Agent header.
    const row = (await within(table).findByText('Chrome 156 · Windows 10')).closest('tr')!;
    expect(within(table).getByText('Firefox 128 · Linux')).toBeTruthy();
    expect(row.textContent).not.toContain('Mozilla/5.0');
    expect(row.textContent).toContain('198.51.100.2');
    expect(row.textContent).toContain('Registration');
    fireEvent.click(within(row).getByTestId('end-session-70'));
    const confirm = await findModalWith('End this session?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(shownMessages('success')).toContain('Session ended'));
    expect(api.requestsTo('adminUserSessionEnd')).toHaveLength(1);
    expect(api.requestsTo('adminUserSessionEnd')[0].params).toMatchObject({ id: '5', session_id: '70' });
  });

  it('lists the invitees with full e-mails linking to their pages', async () => {
    await openTab('Invitees');
    const table = await screen.findByTestId('admin-user-invitees');
    const link = await within(table).findByText('kid@example.com');
    expect(link.closest('a')!.getAttribute('href')).toBe('/admin/users/9');
    expect(link.closest('tr')!.textContent).toContain('¥100.00');
  });

  it('sends a password reset e-mail after a confirmation, and offers no verification e-mail', async () => {
    api.on('adminUserSendMail', () => ({
      kind: 'password_reset' as const,
      email: 'dana@example.com',
      resend_after: 60,
    }));
    renderAt('/admin/users/5', { featureRoutes: adminUsersRoutes });
    fireEvent.click(await screen.findByTestId('admin-user-mail-reset'));
    const confirm = await findModalWith('Send a password reset code to dana@example.com?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(shownMessages('success')).toContain('E-mail sent to dana@example.com'));
    expect(api.requestsTo('adminUserSendMail')[0]).toMatchObject({
      params: { id: '5' },
      json: { kind: 'password_reset' },
    });

    // Every address is verified before its account exists: no verification e-mail is offered (it could only fail).
    expect(screen.queryByTestId('admin-user-mail-verification')).toBeNull();
    expect(screen.getByTestId('admin-user-email-verified').textContent).toBe('E-mail verified');
  });

  it('offers no e-mail to a disabled account', async () => {
    api.on('adminUserDetail', () => ({ ...DANA, status: 'disabled' as const }));
    renderAt('/admin/users/5', { featureRoutes: adminUsersRoutes });
    await waitFor(() => expect(screen.getByTestId('admin-user-mail-reset').hasAttribute('disabled')).toBe(true));
  });
});
