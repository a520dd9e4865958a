import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TAppRoute } from '../../../app/route-types';
import { makeUser, makeSiteSettings } from '../../../test/fixtures';
import { api } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { matchMediaAtWidth } from '../../../test/screen-width';
import { readValue, removeRecord, writeRecord } from '../../../lib/storage';
import { USER_GUIDE_COMPLETED_KEY } from '../../../lib/user-guide';

const page = (label: string) => () => Promise.resolve({ default: () => <p>{label}</p> });

// The layout the tour walks: the dashboard, the two proxy groups, the billing entry.
const ROUTES: TAppRoute[] = [
  { path: '/login', access: 'public', titleKey: 'auth:login.title', isTabless: true, load: page('LOGIN') },
  { path: '/', access: 'protected', titleKey: 'dashboard:title', menu: { order: 1 }, load: page('HOME') },
  {
    path: '/proxy/isp/static',
    access: 'protected',
    titleKey: 'proxies:title',
    menu: { order: 2, group: 'residential' },
    load: page('STATIC'),
  },
  {
    path: '/proxy/idc/list',
    access: 'protected',
    titleKey: 'proxies:title',
    menu: { order: 2, group: 'datacenter' },
    load: page('IDC'),
  },
  { path: '/charge', access: 'protected', titleKey: 'payments:title', menu: { order: 97 }, load: page('CHARGE') },
];

const stepShown = (id: string) => screen.queryByTestId(`tour-step-${id}`);
// Text queries: role queries are slow over the whole layout in jsdom.
const tourButton = (name: string) =>
  (document.querySelector('.ant-tour')
    ? within(document.querySelector('.ant-tour') as HTMLElement)
        .queryByText(name)
        ?.closest('button')
    : null) ?? null;
const groupItem = (group: string) => document.querySelector(`[data-tour="group:${group}"]`);

beforeEach(() => {
  api.on('userInfo', () => makeUser({ user_id: 1 }));
  api.on('userNotificationList', () => ({ records: [], total: 0, page: 1, page_size: 1, unread: 0 }));
  api.on('siteSettings', () => makeSiteSettings());
  api.on('siteNotice', () => null);
  // The welcome notice (id 0) hidden for good: the tour does not wait for it.
  writeRecord('local', 'NOTICE_HIDDEN', 0);
  // A first-time user (the harness marks the tour completed for every other test).
  removeRecord('local', USER_GUIDE_COMPLETED_KEY);
});

describe('the guided tour in the layout', () => {
  it('starts by itself for a first-time user and walks the 6 steps, opening each collapsed menu group first', async () => {
    renderAt('/', { featureRoutes: ROUTES });
    await screen.findByTestId('tour-step-sidebar');
    expect(screen.getByText('Your dashboard sidebar')).toBeTruthy();
    expect(screen.getByText(/Everything in the console starts from this sidebar/)).toBeTruthy();
    // Step 1: Next only.
    expect(tourButton('Previous')).toBeNull();
    expect(tourButton('Finish')).toBeNull();
    // The tooltip is about 320 px wide.
    expect(
      (document.querySelector('.guided-tour.ant-tour, .guided-tour .ant-tour') as HTMLElement | null)?.style.width,
    ).toBe('320px');

    fireEvent.click(tourButton('Next')!);
    await screen.findByTestId('tour-step-menu');
    expect(tourButton('Previous')).toBeTruthy();

    // The residential group is collapsed: Next opens it, and the step is highlighted after the wait.
    expect(groupItem('residential')?.className).not.toMatch(/ant-menu-submenu-open/);
    fireEvent.click(tourButton('Next')!);
    // Not highlighted at once: the group opens first, the highlight follows after the wait.
    expect(stepShown('residential')).toBeNull();
    expect(stepShown('menu')).toBeTruthy();
    await waitFor(() => expect(groupItem('residential')?.className).toMatch(/ant-menu-submenu-open/));
    await screen.findByTestId('tour-step-residential');
    expect(screen.getByText('Residential proxies', { selector: '.ant-tour-title *' })).toBeTruthy();

    fireEvent.click(tourButton('Next')!);
    await waitFor(() => expect(groupItem('datacenter')?.className).toMatch(/ant-menu-submenu-open/));
    await screen.findByTestId('tour-step-datacenter');

    // Previous goes back one step (the group is open already: no wait).
    fireEvent.click(tourButton('Previous')!);
    await screen.findByTestId('tour-step-residential');
    fireEvent.click(tourButton('Next')!);
    await screen.findByTestId('tour-step-datacenter');

    fireEvent.click(tourButton('Next')!);
    await screen.findByTestId('tour-step-billing');
    expect(screen.getByText('Top up and bills')).toBeTruthy();

    fireEvent.click(tourButton('Next')!);
    await screen.findByTestId('tour-step-done');
    // The last step: centred (no target), Finish instead of Next.
    expect(tourButton('Next')).toBeNull();
    expect(readValue('local', USER_GUIDE_COMPLETED_KEY)).toBeNull();
    fireEvent.click(tourButton('Finish')!);
    await waitFor(() => expect(stepShown('done')).toBeNull());
    expect(readValue('local', USER_GUIDE_COMPLETED_KEY)).toBe(true);
  });

  it('does not start for a user who completed it, and opens from the header at step 1', async () => {
    writeRecord('local', USER_GUIDE_COMPLETED_KEY, true);
    renderAt('/', { featureRoutes: ROUTES });
    await screen.findByText('HOME');
    await waitFor(() => expect(api.requestsTo('siteNotice').length).toBeGreaterThan(0));
    expect(stepShown('sidebar')).toBeNull();
    fireEvent.click(screen.getByTestId('tour-start'));
    await screen.findByTestId('tour-step-sidebar');
    // Closing it ends it like finishing: it is not asked again on the next page load.
    fireEvent.click(document.querySelector('.ant-tour-close') as HTMLElement);
    await waitFor(() => expect(stepShown('sidebar')).toBeNull());
    expect(readValue('local', USER_GUIDE_COMPLETED_KEY)).toBe(true);
  });

  it('waits for the notice dialog to be closed before it starts', async () => {
    writeRecord('session', 'NOTICE_PENDING', true);
    writeRecord('local', 'NOTICE_HIDDEN', 99);
    renderAt('/', { featureRoutes: ROUTES });
    const confirm = await screen.findByText('Got it');
    expect(stepShown('sidebar')).toBeNull();
    fireEvent.click(confirm);
    await screen.findByTestId('tour-step-sidebar');
  });

  it('opens the collapsed sidebar too before highlighting a menu group', async () => {
    writeRecord('local', 'SIDEBAR_COLLAPSED', true);
    renderAt('/', { featureRoutes: ROUTES });
    await screen.findByTestId('tour-step-sidebar');
    expect(screen.getByTestId('sidebar').getAttribute('data-collapsed')).toBe('true');
    fireEvent.click(tourButton('Next')!);
    await screen.findByTestId('tour-step-menu');
    fireEvent.click(tourButton('Next')!);
    await screen.findByTestId('tour-step-residential');
    expect(screen.getByTestId('sidebar').getAttribute('data-collapsed')).toBe('false');
  });

  it('is never shown on the sign-in page', async () => {
    const { router } = renderAt('/', { featureRoutes: ROUTES });
    await screen.findByTestId('tour-step-sidebar');
    localStorage.clear();
    sessionStorage.clear();
    await router.navigate('/login');
    await screen.findByText('LOGIN');
    expect(stepShown('sidebar')).toBeNull();
  });

  describe('on a phone (390 px)', () => {
    const wideMatchMedia = window.matchMedia;
    beforeEach(() => {
      window.matchMedia = matchMediaAtWidth(390);
    });
    afterEach(() => {
      window.matchMedia = wideMatchMedia;
    });

    it('opens the menu drawer for its steps, shows the tooltip below them within the screen, and closes the drawer at the end', async () => {
      renderAt('/', { featureRoutes: ROUTES });
      await screen.findByTestId('tour-step-sidebar');
      // The menu lives in the drawer on a phone: the tour opened it to point at it.
      expect(screen.getByTestId('menu-drawer')).toBeTruthy();
      expect(screen.queryByTestId('sidebar')).toBeNull();
      const tooltip = () => document.querySelector('.guided-tour.ant-tour, .guided-tour .ant-tour') as HTMLElement;
      expect(tooltip().style.width).toMatch(/^min\(320px.*calc\(100vw - 24px\)\)$/);
      expect(tooltip().className).toMatch(/placement-bottom/);

      for (const next of ['menu', 'residential', 'datacenter', 'billing', 'done']) {
        fireEvent.click(tourButton('Next')!);
        await screen.findByTestId(`tour-step-${next}`);
      }
      expect(groupItem('residential')?.className).toMatch(/ant-menu-submenu-open/);
      fireEvent.click(tourButton('Finish')!);
      await waitFor(() => expect(stepShown('done')).toBeNull());
      expect(readValue('local', USER_GUIDE_COMPLETED_KEY)).toBe(true);
      // The drawer the tour opened is closed again.
      await waitFor(() => expect(document.querySelector('.ant-drawer-open')).toBeNull());
    });

    it('can be started again from the header', async () => {
      writeRecord('local', USER_GUIDE_COMPLETED_KEY, true);
      renderAt('/', { featureRoutes: ROUTES });
      await screen.findByText('HOME');
      fireEvent.click(await screen.findByTestId('tour-start'));
      await screen.findByTestId('tour-step-sidebar');
      expect(screen.getByTestId('menu-drawer')).toBeTruthy();
    });
  });
});
