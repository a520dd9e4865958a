import { DEFAULT_ALERT_CHANNELS } from '@proxy/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { getAccessToken, getTokenRecord, saveSession } from '../../../lib/session';
import { fail } from '../../../test/api-stub';
import { makeUser } from '../../../test/fixtures';
import { api, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import UsersPage from './users-page';

const user = makeUser({
  user_id: 42,
  total_balance: 100.5,
  token: 'pk_abcdefghijklmnopqrstuvwxyz123456',
  invite_code: 'INVITE42',
  created_at: '2026-01-02T03:04:05.000Z',
});

// Signed in with "remember me"; the server refuses the username "taken" and any current password but one.
beforeEach(() => {
  saveSession('token-before', { remember: true });
  api.on('userInfo', () => user);
  api.on('userNotificationList', () => ({ records: [], total: 0, page: 1, page_size: 1, unread: 0 }));
  api.on('userTotpStatus', () => ({ enabled: false, enabled_at: null, recovery_codes_left: 0, admin_required: false }));
  api.on('userAlertSettingsGet', () => ({
    usage_thresholds: [80, 100],
    balance_low_yuan: null,
    channels: structuredClone(DEFAULT_ALERT_CHANNELS),
  }));
  api.on('userSessions', () => []);
  api.on('userUsageLogSettings', () => ({ enabled: false, retention_days: 7, domain_usage_enabled: true }));
  api.on('userUpdateProfile', (req) => {
    const { username } = req.json as { username: string };
    return username === 'taken'
      ? fail(409, 1003, 'This username is already taken', { error: 'USERNAME_TAKEN' })
      : { ...user, name: username };
  });
  api.on('userCode', () => ({ resend_after: 60 }));
  api.on('userChangePassword', (req) => {
    const { current_password: current, password } = req.json as { current_password: string; password: string };
    if (current !== 'old password')
      return fail(400, 1008, 'The current password is incorrect', { error: 'PASSWORD_INCORRECT' });
    if (password === current)
      return fail(400, 1043, 'The new password must differ from the current one', { error: 'PASSWORD_UNCHANGED' });
    return { token: 'token-after-password-change', expires_in: 216000, is_new_user: false };
  });
});

function renderUsersPage() {
  return renderAt('/user-center', [{ path: '/user-center', element: <UsersPage /> }]);
}

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe('user center', () => {
  it('shows the profile and the API key masked', async () => {
    renderUsersPage();
    expect(await screen.findByText('alice@example.com')).toBeTruthy();
    expect(screen.getByText('INVITE42')).toBeTruthy();
    expect(screen.getByText('¥100.50')).toBeTruthy(); // total recharge
    const key = screen.getByTestId('api-key');
    expect(key.textContent).toMatch(/^pk_a\*+3456$/);
    expect(key.textContent).not.toContain('efghijkl');
    fireEvent.click(screen.getByRole('button', { name: /Show the key/ }));
    expect(screen.getByTestId('api-key').textContent).toBe(user.token);
  });

  it('sends the change-email code to the new address and counts down', async () => {
    renderUsersPage();
    await screen.findByText('alice@example.com');
    fireEvent.click(screen.getByRole('tab', { name: 'E-mail' }));
    await screen.findByLabelText('New e-mail');
    type('New e-mail', 'alice.new@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    // Role queries are slow on antd's trees in jsdom: the text instead.
    await screen.findByText(/Resend in \d+ s/);
    const sent = api.requestsTo('userCode')[0];
    expect(Object.fromEntries(sent.form)).toEqual({ email: 'alice.new@example.com', type: 'change_email' });
  });

  it('changes the username and shows the new one', async () => {
    renderUsersPage();
    await screen.findByText('alice@example.com');
    type('New username', 'a');
    expect(await screen.findByText('Username must be 2-20 characters')).toBeTruthy();
    type('New username', 'alice2');
    fireEvent.click(screen.getByRole('button', { name: 'Change username' }));
    await waitFor(() => expect(screen.getAllByText('alice2').length).toBeGreaterThan(0));
    expect(api.requestsTo('userUpdateProfile')[0].json).toEqual({ username: 'alice2' });
  });

  it('marks the username field when the server says it is taken', async () => {
    renderUsersPage();
    await screen.findByText('alice@example.com');
    type('New username', 'taken');
    fireEvent.click(screen.getByRole('button', { name: 'Change username' }));
    expect(
      await screen.findByText('This username is already taken', { selector: '.ant-form-item-explain-error' }),
    ).toBeTruthy();
    expect(screen.getAllByText('This username is already taken')).toHaveLength(1); // under the field only, no toast
    expect(shownMessages('error')).toEqual([]);
  });

  it('changes the password and keeps this browser signed in with the new token', async () => {
    renderUsersPage();
    await screen.findByText('alice@example.com');
    fireEvent.click(screen.getByText('Password', { selector: '.ant-tabs-tab-btn' }));
    type('Current password', 'wrong one');
    type('New password', 'new password 1');
    type('Confirm new password', 'new password 2');
    expect(await screen.findByText('The two passwords you entered are inconsistent')).toBeTruthy();
    type('Confirm new password', 'new password 1');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(
      await screen.findByText('The current password is incorrect', { selector: '.ant-form-item-explain-error' }),
    ).toBeTruthy();
    expect(screen.getAllByText('The current password is incorrect')).toHaveLength(1);
    expect(getAccessToken()).toBe('token-before');
    // The current password again as the new one: refused once, under the new password.
    type('Current password', 'old password');
    type('New password', 'old password');
    type('Confirm new password', 'old password');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(
      await screen.findByText('The new password must differ from the current one', {
        selector: '.ant-form-item-explain-error',
      }),
    ).toBeTruthy();
    expect(screen.getAllByText('The new password must differ from the current one')).toHaveLength(1);
    expect(shownMessages('error')).toEqual([]);
    expect(getAccessToken()).toBe('token-before');
    type('New password', 'new password 1');
    type('Confirm new password', 'new password 1');
    type('Current password', 'old password');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(getAccessToken()).toBe('token-after-password-change'));
    expect(getTokenRecord()?.kind).toBe('local'); // "remember me" kept
  });
});
