import { useState } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { makeUser, makeSiteSettings } from '../test/fixtures';
import { api } from '../test/harness';
import { renderAt as renderWithRouter } from '../test/render';
import { matchMediaAtWidth } from '../test/screen-width';
import { i18n, setLanguage } from '../lib/i18n';
import { saveSession } from '../lib/session';
import { writeRecord } from '../lib/storage';
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
  { path: '/login', access: 'public', titleKey: 'phoneTest:login', isTabless: true, load: page('LOGIN') },
  { path: '/', access: 'protected', titleKey: 'phoneTest:home', menu: { order: 1 }, load: page('HOME') },
  { path: '/c', access: 'protected', titleKey: 'phoneTest:c', load: page('PAGE-C') },
  {
    path: '/admin/first',
    access: 'admin',
    titleKey: 'phoneTest:adminFirst',
    menu: { order: 1 },
    load: page('ADMIN-FIRST'),
  },
  {
    path: '/admin/second',
    access: 'admin',
    titleKey: 'phoneTest:adminSecond',
    menu: { order: 2 },
    load: page('ADMIN-SECOND'),
  },
];

const wideMatchMedia = window.matchMedia;

beforeAll(() => {
  i18n.addResourceBundle('zh', 'phoneTest', {
    login: '登录',
    home: '首页',
    c: '丙页',
    adminFirst: '运营一',
    adminSecond: '运营二',
  });
});

beforeEach(() => {
  // A phone held upright: 390 px, below antd's md breakpoint (768 px).
  window.matchMedia = matchMediaAtWidth(390);
  setLanguage('zh');
  writeRecord('local', 'NOTICE_HIDDEN', 0);
  api.on('siteNotice', () => null);
  api.on('siteSettings', () => makeSiteSettings());
  api.on('userNotificationList', () => ({ records: [], total: 0, page: 1, page_size: 1, unread: 0 }));
  saveSession('tok', { remember: true });
});

afterEach(() => {
  window.matchMedia = wideMatchMedia;
});

const isDrawerOpen = () => document.querySelector('.ant-drawer-open') !== null;

describe('the layouts on a phone', () => {
  it('the console menu is a drawer: the header button opens it, choosing an entry navigates and closes it', async () => {
    api.on('userInfo', () => makeUser({ user_id: 1, balance: 12.5 }));
    const { router } = renderWithRouter('/c', { featureRoutes: TEST_ROUTES });
    await screen.findByText('PAGE-C:0');
    // No side menu beside the page; the header keeps the balance and the menu button.
    expect(screen.queryByTestId('sidebar')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('header-balance').textContent).toContain('12.50'));
    expect(isDrawerOpen()).toBe(false);

    fireEvent.click(screen.getByTestId('sidebar-toggle'));
    const drawer = await screen.findByTestId('menu-drawer');
    await waitFor(() => expect(isDrawerOpen()).toBe(true));
    fireEvent.click(within(drawer).getByText('首页'));
    await screen.findByText('HOME:0');
    expect(router.state.location.pathname).toBe('/');
    await waitFor(() => expect(isDrawerOpen()).toBe(false));
  });

  it('the operator menu is a drawer too: its header button opens it, choosing an entry navigates and closes it', async () => {
    api.on('userInfo', () => makeUser({ user_id: 1, is_admin: true }));
    const { router } = renderWithRouter('/admin/first', { featureRoutes: TEST_ROUTES });
    await screen.findByText('ADMIN-FIRST:0');
    expect(screen.queryByTestId('admin-sidebar')).toBeNull();

    fireEvent.click(screen.getByTestId('admin-menu-toggle'));
    const drawer = await screen.findByTestId('admin-menu-drawer');
    await waitFor(() => expect(isDrawerOpen()).toBe(true));
    fireEvent.click(within(drawer).getByText('运营二'));
    await screen.findByText('ADMIN-SECOND:0');
    expect(router.state.location.pathname).toBe('/admin/second');
    await waitFor(() => expect(isDrawerOpen()).toBe(false));
  });

  it('on a wide screen the side menus stay beside the page', async () => {
    window.matchMedia = matchMediaAtWidth(1280);
    api.on('userInfo', () => makeUser({ user_id: 1 }));
    renderWithRouter('/c', { featureRoutes: TEST_ROUTES });
    await screen.findByText('PAGE-C:0');
    expect(within(screen.getByTestId('sidebar')).getByText('首页')).toBeTruthy();
    expect(screen.queryByTestId('menu-drawer')).toBeNull();
  });
});
