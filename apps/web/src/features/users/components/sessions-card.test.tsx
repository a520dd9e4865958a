import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_ALERT_CHANNELS, type TSessionInfo } from '@proxy/contract';
import { setLanguage } from '../../../lib/i18n';
import { getAccessToken } from '../../../lib/session';
import { writeRecord } from '../../../lib/storage';
import { fail } from '../../../test/api-stub';
import { makeUser } from '../../../test/fixtures';
import { api, findModalWith, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { usersRoutes } from '../routes';

const CHROME_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';

/** The server's live sessions of the user; ending one removes it. */
let sessions: TSessionInfo[];

beforeEach(() => {
  sessions = [
    {
      id: 12,
      method: 'github',
      user_agent: SAFARI_ON_IPHONE,
      ip: '198.51.100.23',
      created_at: '2026-02-03T04:05:00.000Z',
      last_used_at: '2026-02-04T05:06:00.000Z',
      is_current: false,
    },
    {
      id: 11,
      method: 'password',
      user_agent: CHROME_ON_WINDOWS,
      ip: '203.0.113.8',
      created_at: '2026-02-01T02:03:00.000Z',
      last_used_at: '2026-02-05T06:07:00.000Z',
      is_current: true,
    },
  ];
  // No product notice in the way of the layout.
  writeRecord('local', 'NOTICE_HIDDEN', true);
  api.on('userInfo', () => makeUser());
  api.on('userNotificationList', () => ({ records: [], total: 0, page: 1, page_size: 1, unread: 0 }));
  api.on('userTotpStatus', () => ({ enabled: false, enabled_at: null, recovery_codes_left: 0, admin_required: false }));
  api.on('userAlertSettingsGet', () => ({
    usage_thresholds: [80, 100],
    balance_low_yuan: null,
    channels: structuredClone(DEFAULT_ALERT_CHANNELS),
  }));
  api.on('userSessions', () => sessions);
  api.on('userSessionEnd', (req) => {
    const id = Number(req.params.id);
    if (!sessions.some((s) => s.id === id)) return fail(404, 404, 'Not found', { error: 'NOT_FOUND' });
    sessions = sessions.filter((s) => s.id !== id);
    return null;
  });
  api.on('userLogoutAll', () => {
    sessions = [];
    return null;
  });
});

/** The user centre inside the console's own router, with a stand-in sign-in page. */
function renderUsersPage() {
  return renderAt('/user-center', {
    featureRoutes: [
      ...usersRoutes,
      {
        path: '/login',
        access: 'public',
        titleKey: 'common:actions.signIn',
        isTabless: true,
        load: async () => ({ default: () => <div>sign-in page</div> }),
      },
    ],
  });
}

const row = (id: number) => screen.getByTestId(`session-${id}`);
// Role queries over the whole antd layout are slow in jsdom: the card's button by its text.
const signOutEverywhereButton = () =>
  screen.getByText('Sign out everywhere', { selector: '.ant-card-extra button span' }).closest('button')!;

describe('sessions card', { timeout: 60_000 }, () => {
  it('lists each session with its device, address, method and times, and marks this device', async () => {
    renderUsersPage();
    await screen.findByTestId('session-12');
    expect(screen.getByText('Sessions')).toBeTruthy();

    const current = row(11);
    expect(within(current).getByText('Chrome 120 · Windows 10')).toBeTruthy();
    expect(within(current).getByText('This device')).toBeTruthy();
    expect(current.textContent).toContain('203.0.113.8');
    expect(current.textContent).toContain('Signed in with: Password');
    expect(within(current).queryByRole('button', { name: /End/ })).toBeNull();

    const other = row(12);
    expect(within(other).getByText('Safari 17 · iOS 17.1')).toBeTruthy();
    expect(within(other).queryByText('This device')).toBeNull();
    expect(other.textContent).toContain('198.51.100.23');
    expect(other.textContent).toContain('Signed in with: GitHub');
    expect(other.textContent).toMatch(/Signed in: 2026-02-0\d \d\d:\d\d/);
    expect(other.textContent).toMatch(/Last active: 2026-02-0\d \d\d:\d\d/);
    expect(within(other).getByRole('button', { name: 'End the session of Safari 17 · iOS 17.1' })).toBeTruthy();
    // This device is listed first.
    expect(current.compareDocumentPosition(other) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('ends another session after confirmation and reloads the list', async () => {
    renderUsersPage();
    await screen.findByTestId('session-12');
    const loads = api.requestsTo('userSessions').length;
    fireEvent.click(within(row(12)).getByRole('button', { name: /End the session/ }));
    const popover = (await screen.findByText('End this session? That device will be signed out.')).closest(
      '.ant-popover',
    ) as HTMLElement;
    expect(api.requestsTo('userSessionEnd')).toHaveLength(0); // nothing ended before the confirmation
    fireEvent.click(within(popover).getByRole('button', { name: 'End session' }));

    await waitFor(() => expect(screen.queryByTestId('session-12')).toBeNull());
    expect(api.requestsTo('userSessionEnd').map((req) => req.path)).toEqual(['/user/sessions/end/12']);
    expect(api.requestsTo('userSessions').length).toBeGreaterThan(loads);
    expect(row(11)).toBeTruthy();
    expect(shownMessages('success')).toContain('Session ended');
  });

  it('signs out everywhere after confirmation and lands on the sign-in page', async () => {
    const { router } = renderUsersPage();
    await screen.findByTestId('session-12');
    fireEvent.click(signOutEverywhereButton());
    const modal = await findModalWith('Sign out on every device?');
    expect(api.requestsTo('userLogoutAll')).toHaveLength(0);
    fireEvent.click(within(modal).getByRole('button', { name: 'Sign out everywhere' }));

    await screen.findByText('sign-in page');
    expect(router.state.location.pathname).toBe('/login');
    expect(api.requestsTo('userLogoutAll')).toHaveLength(1);
    expect(getAccessToken()).toBeNull();
  });

  it('stays signed in and says so when signing out everywhere fails', async () => {
    api.on('userLogoutAll', () => fail(500, 500, 'Internal error'));
    const { router } = renderUsersPage();
    await screen.findByTestId('session-12');
    fireEvent.click(signOutEverywhereButton());
    const modal = await findModalWith('Sign out on every device?');
    fireEvent.click(within(modal).getByRole('button', { name: 'Sign out everywhere' }));

    await waitFor(() => expect(shownMessages('error')).toContain('Failed to sign out everywhere'));
    expect(router.state.location.pathname).toBe('/user-center');
    expect(getAccessToken()).not.toBeNull();
  });

  it('is translated into Chinese', async () => {
    act(() => setLanguage('zh'));
    renderUsersPage();
    await screen.findByTestId('session-12');
    expect(screen.getByText('登录设备')).toBeTruthy();
    expect(within(row(11)).getByText('本设备')).toBeTruthy();
    expect(row(11).textContent).toContain('登录方式：密码');
    expect(within(row(12)).getByText('结束')).toBeTruthy();
  });
});
