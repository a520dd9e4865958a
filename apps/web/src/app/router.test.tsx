import { useState } from 'react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ACCESS_TOKEN_TTL_S, TOKEN_REFRESH_AFTER_MS } from '@proxy/contract';
import { fail } from '../test/api-stub';
import { makeUser, makeSiteSettings } from '../test/fixtures';
import { api, hardNavigations, shownMessages } from '../test/harness';
import { renderAt as renderWithRouter } from '../test/render';
import { i18n, setLanguage } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { clearToken, getAccessToken, saveSession } from '../lib/session';
import { readValue, writeRecord } from '../lib/storage';
import { getTabsState } from '../lib/tabs';
import { buildMenuEntries } from './menu';
import { assertAdminPaths } from './router';
import type { TAppRoute } from './route-types';

function Counter(props: { label: string }) {
  const [count, setCount] = useState(0);
  return (
    <button type="button" onClick={() => setCount((c) => c + 1)}>
      {props.label}:{count}
    </button>
  );
}

const page = (label: string) => () => Promise.resolve({ default: () => <Counter label={label} /> });

const TEST_ROUTES: TAppRoute[] = [
  { path: '/login', access: 'public', titleKey: 'test:login', isTabless: true, load: page('LOGIN') },
  { path: '/', access: 'protected', titleKey: 'test:home', menu: { order: 1 }, load: page('HOME') },
  { path: '/a', access: 'protected', titleKey: 'test:a', menu: { order: 2, group: 'proxy' }, load: page('PAGE-A') },
  { path: '/b', access: 'protected', titleKey: 'test:b', menu: { order: 2, group: 'proxy' }, load: page('PAGE-B') },
  { path: '/c', access: 'protected', titleKey: 'test:c', load: page('PAGE-C') },
  {
    path: '/software',
    access: 'protected',
    titleKey: 'test:software',
    roles: ['user'],
    menu: { order: 99, group: 'tools' },
    load: page('SOFTWARE'),
  },
  // The operator area: the lower menu order comes first and is where /admin leads.
  {
    path: '/admin/second',
    access: 'admin',
    titleKey: 'test:adminSecond',
    menu: { order: 2 },
    load: page('ADMIN-SECOND'),
  },
  { path: '/admin/first', access: 'admin', titleKey: 'test:adminFirst', menu: { order: 1 }, load: page('ADMIN-FIRST') },
];

// Rendering the whole antd layout in jsdom is slow on a busy machine.

let totalBalance = 0;
let isAdmin = false;

beforeAll(() => {
  i18n.addResourceBundle('zh', 'test', {
    login: '登录',
    home: '首页',
    a: '甲页',
    b: '乙页',
    c: '丙页',
    software: '软件下载',
    adminFirst: '运营一',
    adminSecond: '运营二',
  });
});

beforeEach(() => {
  clearToken();
  totalBalance = 0;
  isAdmin = false;
  setLanguage('zh');
  // No notice dialog (the built-in welcome, id 0) or guided tour in the way unless a test asks for it.
  writeRecord('local', 'NOTICE_HIDDEN', 0);
  api.on('siteNotice', () => null);
  api.on('siteSettings', () => makeSiteSettings());
  api.on('userInfo', () => makeUser({ user_id: 1, balance: 12.5, total_balance: totalBalance, is_admin: isAdmin }));
  api.on('userNotificationList', () => ({ records: [], total: 3, page: 1, page_size: 1, unread: 3 }));
  api.on('userLogout', () => null);
});

/** The console's own router (guards, layout, tabs) over the test pages. */
function renderAt(path: string) {
  return renderWithRouter(path, { featureRoutes: TEST_ROUTES }).router;
}

const here = (router: ReturnType<typeof renderAt>) =>
  `${router.state.location.pathname}${router.state.location.search}`;

describe('guards', () => {
  it('a signed-out visitor of a protected page goes to /login?redirect=<wanted path>', async () => {
    const router = renderAt('/a?page=2');
    await screen.findByText('LOGIN:0');
    expect(here(router)).toBe('/login?redirect=%2Fa%3Fpage%3D2');
  });

  it('public pages are reachable signed out', async () => {
    const router = renderAt('/404');
    await screen.findByText('页面不存在');
    expect(here(router)).toBe('/404');
  });

  it('a signed-in visitor of /login goes to /', async () => {
    saveSession('tok', { remember: true });
    const router = renderAt('/login');
    await screen.findByText('HOME:0');
    expect(here(router)).toBe('/');
  });

  it('unknown paths go to /404, which offers a way home', async () => {
    saveSession('tok', { remember: true });
    const router = renderAt('/no/such/page');
    await screen.findByText('页面不存在');
    expect(here(router)).toBe('/404');
    fireEvent.click(screen.getByRole('button', { name: '返回首页' }));
    await screen.findByText('HOME:0');
  });
});

describe('roles', () => {
  it('hide the menu entry and refuse the page without the role', async () => {
    saveSession('tok', { remember: true });
    const router = renderAt('/software');
    await screen.findByText('没有权限');
    expect(screen.queryByText('SOFTWARE:0')).toBeNull();
    expect(within(screen.getByTestId('sidebar')).queryByText('软件下载')).toBeNull();
    expect(here(router)).toBe('/software');
  });

  it('show both with the role (total_balance > 1)', async () => {
    totalBalance = 100;
    saveSession('tok', { remember: true });
    renderAt('/software');
    await screen.findByText('SOFTWARE:0');
    expect(within(screen.getByTestId('sidebar')).getByText('软件下载')).toBeTruthy();
  });

  it('menu entries are filtered, sorted and grouped', () => {
    const shape = (roles: string[]) =>
      buildMenuEntries(TEST_ROUTES, roles, [{ key: 'x:help', titleKey: 'h', href: 'https://h', order: 99 }]).map((e) =>
        e.kind === 'group' ? `${e.key}[${e.children.map((c) => c.key).join(',')}]` : e.key,
      );
    expect(shape([])).toEqual(['/', 'group:proxy[/a,/b]', 'x:help']);
    expect(shape(['user'])).toEqual(['/', 'group:proxy[/a,/b]', 'group:tools[/software]', 'x:help']);
  });
});

describe('layout', () => {
  it('shows balance and unread count, and keeps at most 3 pages alive', async () => {
    saveSession('tok', { remember: true });
    const router = renderAt('/');
    await screen.findByText('HOME:0');
    await waitFor(() => expect(screen.getByTestId('header-balance').textContent).toContain('¥12.50'));
    await waitFor(() => expect(screen.getByTestId('header-notifications').textContent).toContain('3'));

    fireEvent.click(screen.getByText('HOME:0'));
    await act(() => router.navigate('/a'));
    await screen.findByText('PAGE-A:0');
    await act(() => router.navigate('/'));
    // Kept alive: the counter survived the visit to /a.
    expect(screen.getByText('HOME:1')).toBeTruthy();
    await act(() => router.navigate('/b'));
    await screen.findByText('PAGE-B:0');
    await act(() => router.navigate('/c'));
    await screen.findByText('PAGE-C:0');
    const mounted = [...document.querySelectorAll('[data-page-key]')].map((el) => el.getAttribute('data-page-key'));
    expect(mounted).toEqual(['/', '/b', '/c']);
    expect(getTabsState().tabs.map((t) => t.key)).toEqual(['/', '/a', '/b', '/c']);
  });

  it('the sidebar collapses and remembers it', async () => {
    saveSession('tok', { remember: true });
    renderAt('/');
    await screen.findByText('HOME:0');
    expect(screen.getByTestId('sidebar').getAttribute('data-collapsed')).toBe('false');
    fireEvent.click(screen.getByTestId('sidebar-toggle'));
    await waitFor(() => expect(screen.getByTestId('sidebar').getAttribute('data-collapsed')).toBe('true'));
    expect(readValue('local', 'SIDEBAR_COLLAPSED')).toBe(true);
  });

  it('closing the active tab goes to the last remaining tab', async () => {
    saveSession('tok', { remember: true });
    const router = renderAt('/a');
    await screen.findByText('PAGE-A:0');
    await act(() => router.navigate('/c'));
    await act(() => router.navigate('/b'));
    await screen.findByText('PAGE-B:0');
    const tab = await screen.findByTestId('tab-/b');
    const closeButton = tab.closest('[data-node-key]')?.querySelector('button');
    expect(closeButton).toBeTruthy();
    fireEvent.click(closeButton!);
    await waitFor(() => expect(here(router)).toBe('/c'));
    expect(getTabsState().tabs.map((t) => t.key)).toEqual(['/a', '/c']);
  });

  it('shows the notice once after sign-in; "do not show again" is stored', async () => {
    localStorage.clear();
    saveSession('tok', { remember: true });
    renderAt('/');
    const label = await screen.findByText('不再显示');
    expect(screen.getByText(/15 元免费试用额度/)).toBeTruthy();
    expect(screen.getByText(/32M\+ 住宅 IP，覆盖 195 个国家和地区，99.9% 在线率/)).toBeTruthy();
    fireEvent.click(label);
    fireEvent.click(screen.getByText('我知道了'));
    expect(readValue('local', 'NOTICE_HIDDEN')).toBe(0);
    expect(readValue('session', 'NOTICE_PENDING')).toBeNull();
  });

  it('shows the operator\'s notice from the server; a newly published one shows again after "do not show again"', async () => {
    const notice = {
      notice_id: 7,
      title: '维护通知',
      content: '周六凌晨维护一小时。',
      published_at: '2026-03-01T08:00:00.000Z',
    };
    api.on('siteNotice', () => notice);
    saveSession('tok', { remember: true });
    renderAt('/');
    await screen.findByText('周六凌晨维护一小时。');
    expect(screen.getByText('维护通知')).toBeTruthy();
    expect(screen.queryByText(/15 元免费试用额度/)).toBeNull();
    fireEvent.click(screen.getByText('不再显示'));
    fireEvent.click(screen.getByText('我知道了'));
    expect(readValue('local', 'NOTICE_HIDDEN')).toBe(7);
    cleanup();
    queryClient.clear();

    // Hidden for good: the same notice stays closed after the next sign-in.
    saveSession('tok', { remember: true });
    renderAt('/');
    await screen.findByText('HOME:0');
    await waitFor(() => expect(api.requestsTo('siteNotice').length).toBeGreaterThanOrEqual(2));
    expect(screen.queryByText('周六凌晨维护一小时。')).toBeNull();
    cleanup();
    queryClient.clear();

    // A new notice: shown again.
    api.on('siteNotice', () => ({ ...notice, notice_id: 8, content: '维护改到周日。' }));
    saveSession('tok', { remember: true });
    renderAt('/');
    await screen.findByText('维护改到周日。');
  });
});

describe('help center', () => {
  it('is hidden from the menu while HELP_CENTER_URL is unset, and /helpcenter then leads to /404', async () => {
    saveSession('tok', { remember: true });
    const router = renderAt('/');
    await screen.findByText('HOME:0');
    await waitFor(() => expect(api.requestsTo('siteSettings').length).toBeGreaterThan(0));
    expect(within(screen.getByTestId('sidebar')).queryByText('帮助中心')).toBeNull();
    await act(() => router.navigate('/helpcenter'));
    await waitFor(() => expect(here(router)).toBe('/404'));
    expect(hardNavigations).toEqual([]);
  });

  it("opens the server's link in a new tab from the menu; /helpcenter leaves the app for it, never as a tab", async () => {
    api.on('siteSettings', () => makeSiteSettings({ help_center_url: 'https://help.proxyhub.test/docs' }));
    saveSession('tok', { remember: true });
    const router = renderAt('/a');
    await screen.findByText('PAGE-A:0');
    const link = await within(screen.getByTestId('sidebar')).findByRole('link', { name: '帮助中心' });
    expect(link.getAttribute('href')).toBe('https://help.proxyhub.test/docs');
    expect(link.getAttribute('target')).toBe('_blank');
    void router.navigate('/helpcenter');
    await waitFor(() => expect(hardNavigations).toEqual(['https://help.proxyhub.test/docs']));
    expect(here(router)).toBe('/a');
    expect(getTabsState().tabs.map((t) => t.key)).toEqual(['/a']);
  });
});

describe('session messages', () => {
  it('a stored token that ran out says the session expired, once, on the way to /login?redirect=', async () => {
    writeRecord('local', 'TOKEN', 'old-token', ACCESS_TOKEN_TTL_S, Date.now() - ACCESS_TOKEN_TTL_S * 1000 - 1000);
    const router = renderAt('/a?page=2');
    await screen.findByText('LOGIN:0');
    expect(here(router)).toBe('/login?redirect=%2Fa%3Fpage%3D2');
    expect(shownMessages('error')).toEqual(['登录已过期，请重新登录！']);
  });

  it('a visitor who never signed in is sent to /login without a message', async () => {
    renderAt('/a');
    await screen.findByText('LOGIN:0');
    expect(shownMessages()).toEqual([]);
  });
});

describe('operator area', () => {
  it('a signed-out visitor of an operator page, or of /admin, goes to /login?redirect=<wanted path>', async () => {
    clearToken();
    const router = renderAt('/admin/second?page=2');
    await screen.findByText('LOGIN:0');
    expect(here(router)).toBe('/login?redirect=%2Fadmin%2Fsecond%3Fpage%3D2');
    await act(() => router.navigate('/admin'));
    await waitFor(() => expect(here(router)).toBe('/login?redirect=%2Fadmin'));
  });

  it('a customer sees the 403 page and nothing of the area', async () => {
    saveSession('tok', { remember: true });
    const router = renderAt('/admin/second');
    await screen.findByText('没有权限');
    expect(screen.queryByText('ADMIN-SECOND:0')).toBeNull();
    expect(screen.queryByTestId('admin-sidebar')).toBeNull();
    expect(screen.queryByText('运营一')).toBeNull();
    expect(here(router)).toBe('/admin/second');
    // The way out leads back to the customer console.
    fireEvent.click(screen.getByRole('button', { name: '返回首页' }));
    await screen.findByText('HOME:0');
  });

  it('/admin leads an operator to the first screen of the operator menu, in its own layout', async () => {
    isAdmin = true;
    saveSession('tok', { remember: true });
    const router = renderAt('/admin');
    await screen.findByText('ADMIN-FIRST:0');
    expect(here(router)).toBe('/admin/first');
    const sidebar = screen.getByTestId('admin-sidebar');
    const entries = within(sidebar)
      .getAllByRole('menuitem')
      .map((item) => item.textContent);
    expect(entries).toEqual(['运营一', '运营二']);
    // Not the customer layout: no customer menu, no tabs.
    expect(screen.queryByTestId('sidebar')).toBeNull();
    expect(within(sidebar).queryByText('甲页')).toBeNull();
    fireEvent.click(within(sidebar).getByText('运营二'));
    await screen.findByText('ADMIN-SECOND:0');
    expect(here(router)).toBe('/admin/second');
    // The header leads back to the customer console.
    fireEvent.click(screen.getByText('返回控制台'));
    await screen.findByText('HOME:0');
    expect(here(router)).toBe('/');
  });

  it('an operator with the one-time password must choose its own before anything else, then is offered two-factor', async () => {
    let isRequired = true;
    api.on('userInfo', () => makeUser({ user_id: 1, is_admin: true, password_change_required: isRequired }));
    api.on('userChangePassword', () => {
      isRequired = false;
      return { token: 'tok2', expires_in: ACCESS_TOKEN_TTL_S, is_new_user: false };
    });
    saveSession('tok', { remember: true });
    const router = renderAt('/admin/first');
    const gate = await screen.findByTestId('password-change-required');
    expect(screen.queryByText('ADMIN-FIRST:0')).toBeNull();
    expect(screen.queryByTestId('admin-sidebar')).toBeNull();
    fireEvent.change(within(gate).getByLabelText('一次性密码'), { target: { value: 'OneTimePass12345' } });
    fireEvent.change(within(gate).getByLabelText('新密码'), { target: { value: 'Operator-own-1' } });
    fireEvent.change(within(gate).getByLabelText('确认新密码'), { target: { value: 'Operator-own-1' } });
    fireEvent.click(within(gate).getByRole('button', { name: /修改密码/ }));
    const offer = await screen.findByTestId('password-changed-offer');
    expect(api.requestsTo('userChangePassword')[0]!.json).toMatchObject({
      current_password: 'OneTimePass12345',
      password: 'Operator-own-1',
    });
    expect(getAccessToken()).toBe('tok2');
    fireEvent.click(within(offer).getByRole('button', { name: /稍后/ }));
    await screen.findByText('ADMIN-FIRST:0');
    expect(here(router)).toBe('/admin/first');
  });

  it('the operator menu follows the language', async () => {
    isAdmin = true;
    i18n.addResourceBundle('en', 'test', { adminFirst: 'Operator one', adminSecond: 'Operator two' });
    saveSession('tok', { remember: true });
    renderAt('/admin/first');
    await screen.findByText('ADMIN-FIRST:0');
    expect(screen.getByText('返回控制台')).toBeTruthy();
    act(() => setLanguage('en'));
    await screen.findByText('Back to the console');
    expect(within(screen.getByTestId('admin-sidebar')).getByText('Operator one')).toBeTruthy();
  });

  it('operator screens stay out of the customer menu', async () => {
    isAdmin = true;
    saveSession('tok', { remember: true });
    renderAt('/');
    await screen.findByText('HOME:0');
    expect(within(screen.getByTestId('sidebar')).queryByText('运营一')).toBeNull();
    expect(buildMenuEntries(TEST_ROUTES, ['user'], [], 'admin').map((e) => e.key)).toEqual([
      '/admin/first',
      '/admin/second',
    ]);
  });

  it('the user menu offers the operator area to operators only', async () => {
    saveSession('tok', { remember: true });
    renderAt('/');
    await screen.findByText('HOME:0');
    await waitFor(() => expect(screen.getByTestId('header-balance').textContent).toContain('¥12.50'));
    fireEvent.click(screen.getByTestId('user-menu'));
    await screen.findByText('个人中心');
    expect(screen.queryByText('运营后台')).toBeNull();

    cleanup();
    queryClient.clear();
    isAdmin = true;
    const router = renderAt('/');
    await screen.findByText('HOME:0');
    await waitFor(() => expect(screen.getByTestId('header-balance').textContent).toContain('¥12.50'));
    fireEvent.click(screen.getByTestId('user-menu'));
    fireEvent.click(await screen.findByText('运营后台'));
    await screen.findByText('ADMIN-FIRST:0');
    expect(here(router)).toBe('/admin/first');
  });

  it('refuses an operator screen outside /admin and any other screen inside it', () => {
    const load = page('X');
    expect(() => assertAdminPaths([{ path: '/audit', access: 'admin', titleKey: 'x', load }])).toThrow(/\/audit/);
    expect(() => assertAdminPaths([{ path: '/admin/users', access: 'protected', titleKey: 'x', load }])).toThrow(
      /\/admin\/users/,
    );
    expect(() =>
      assertAdminPaths([{ path: '/administrator', access: 'protected', titleKey: 'x', load }]),
    ).not.toThrow();
    expect(() => assertAdminPaths([{ path: '/admin/users', access: 'admin', titleKey: 'x', load }])).not.toThrow();
  });
});

describe('token refresh', () => {
  it('refreshes a stored token older than 5 minutes on navigation', async () => {
    api.on('userRefreshToken', () => ({ token: 'fresh-token', expires_in: ACCESS_TOKEN_TTL_S }));
    writeRecord('local', 'TOKEN', 'old-token', ACCESS_TOKEN_TTL_S, Date.now() - TOKEN_REFRESH_AFTER_MS - 1000);
    renderAt('/');
    await waitFor(() => expect(getAccessToken()).toBe('fresh-token'));
    const [refresh] = api.requestsTo('userRefreshToken');
    expect(refresh?.headers.authorization).toBe('Bearer old-token');
  });

  it('does not refresh a young token', async () => {
    saveSession('young', { remember: true });
    renderAt('/');
    await screen.findByText('HOME:0');
    expect(api.requestsTo('userRefreshToken')).toHaveLength(0);
  });

  it('a failed refresh removes the stored token', async () => {
    api.on('userRefreshToken', () => fail(500, 500, '服务器异常'));
    writeRecord('session', 'TOKEN', 'old-token', ACCESS_TOKEN_TTL_S, Date.now() - TOKEN_REFRESH_AFTER_MS - 1000);
    renderAt('/');
    await waitFor(() => expect(getAccessToken()).toBeNull());
  });
});
