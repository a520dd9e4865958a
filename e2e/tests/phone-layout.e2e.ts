import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { everyRoute, type TRouteParams, type TWalkedRoute } from '../support/app-routes';
import { registerUser, sharedServer, type TAppServer, operatorAccount, callApi } from '../support/app-server';
import { TOUR_COMPLETED_KEY, launchBrowser } from '../support/browser';
import { signIn } from '../support/console';

/** A phone held upright (antd's xs: below its md breakpoint of 768 px). */
const PHONE = { width: 390, height: 844 };

let server: TAppServer;
let browser: Browser;
let walkData: Promise<{ routes: TWalkedRoute[]; customer: { email: string; password: string } }> | undefined;

beforeAll(async () => {
  server = sharedServer();
  browser = await launchBrowser();
});

/**
 * The customer of the walks and every route filled with real values: the
 * customer's work order, user id and invite code (made once, by the first test).
 */
function walkSetup() {
  walkData ??= (async () => {
    const customer = await registerUser(server, 'phone');
    const info = await callJson('/user/info', customer.token);
    const order = await callJson('/user/work/order', customer.token, {
      method: 'POST',
      body: {
        category: 'proxy',
        subject: 'My proxy is slow on the phone',
        content: 'Pages load slowly through the proxy since this morning.',
      },
    });
    expect(order.code, order.msg).toBe(0);
    const routes = routesWith(
      { id: String(order.data.id), invite_code: String(info.data.invite_code), provider: 'github' },
      { '/admin/users/:id': { id: String(info.data.user_id) } },
    );
    return { routes, customer };
  })();
  return walkData;
}

afterAll(async () => {
  await browser?.close();
});

/**
 * Every route of the console with its parameters filled: `params` for all,
 * `byPath` where a route's parameter means something else (`:id` of a user).
 */
function routesWith(params: TRouteParams, byPath: Record<string, TRouteParams>): TWalkedRoute[] {
  return everyRoute(params).map((route) =>
    byPath[route.path] ? everyRoute({ ...params, ...byPath[route.path] }).find((r) => r.path === route.path)! : route,
  );
}

const callJson = (path: string, token: string, init?: { method?: string; body?: unknown }) =>
  callApi(server.url, path, token, init);

/**
 * A phone-sized context (no guided tour) and its page, counting the API calls
 * in flight. Not `isMobile`: a mobile viewport zooms out to fit a page wider
 * than the screen, which would widen window.innerWidth with it.
 */
async function phonePage(): Promise<{ context: BrowserContext; page: Page; apiCallsInFlight: () => number }> {
  const context = await browser.newContext({
    locale: 'en-US',
    colorScheme: 'light',
    viewport: PHONE,
    hasTouch: true,
    reducedMotion: 'reduce',
  });
  await context.addInitScript((key: string) => {
    if (!window.localStorage.getItem(key))
      window.localStorage.setItem(key, JSON.stringify({ value: true, time: Date.now(), expire: null }));
  }, TOUR_COMPLETED_KEY);
  const page = await context.newPage();
  const inFlight = new Set<unknown>();
  const isApiCall = (url: string) => new URL(url).pathname.startsWith('/api/');
  page.on('request', (request) => {
    if (isApiCall(request.url())) inFlight.add(request);
  });
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('requestfailed', (request) => inFlight.delete(request));
  return { context, page, apiCallsInFlight: () => inFlight.size };
}

/**
 * Where a route's screen is drawn once the router has shown it: the current
 * page of the customer layout's page cache, the operator area's content for
 * that path, or (public pages, each loaded afresh) the whole page.
 */
function screenSelector(route: TWalkedRoute, pathname: string): string {
  if (route.access === 'protected') return `[data-page-key="${pathname}"]`;
  if (route.access === 'admin') return `[data-testid="admin-content"][data-pathname="${pathname}"]`;
  return '#root';
}

/**
 * Opens `url`: inside the single-page app (history push and popstate, as the
 * router's own links do), or as a fresh page load.
 */
async function openInApp(page: Page, url: string, isInApp: boolean): Promise<void> {
  if (!isInApp) {
    await page.goto(`${server.url}${url}`);
    return;
  }
  await page.evaluate((target) => {
    window.history.pushState({}, '', target);
    window.dispatchEvent(new PopStateEvent('popstate', { state: {} }));
  }, url);
}

/**
 * Waits until the screen has rendered: text in its area, no spinner, skeleton
 * or loading button, no API call in flight, and the same text and width on
 * two looks in a row (a query that starts after the first paint is caught).
 */
async function waitForScreen(page: Page, selector: string, apiCallsInFlight: () => number, url: string): Promise<void> {
  let previous: string | null = null;
  await expect
    .poll(
      async () => {
        const signature =
          apiCallsInFlight() > 0
            ? null
            : await page.evaluate((sel) => {
                const area = document.querySelector<HTMLElement>(sel);
                if (!area) return null;
                const text = area.innerText.trim();
                const busy = Array.from(
                  area.querySelectorAll<HTMLElement>('.ant-spin-spinning, .ant-skeleton-active, .ant-btn-loading'),
                );
                if (text.length === 0 || busy.some((el) => el.getClientRects().length > 0)) return null;
                return `${text.length}:${document.documentElement.scrollWidth}`;
              }, selector);
        const isSettled = signature !== null && signature === previous;
        previous = signature;
        return isSettled;
      },
      { message: `${url}: the screen did not finish rendering` },
    )
    .toBe(true);
}

/**
 * Whether the page scrolls sideways; if it does, the elements that stick out
 * past the viewport's right edge (outside anything that scrolls or clips them):
 * the outermost one and the innermost one reaching furthest.
 */
function measureOverflow(page: Page) {
  return page.evaluate(() => {
    const viewport = window.innerWidth;
    const sizes = {
      documentWidth: document.documentElement.scrollWidth,
      bodyWidth: document.body.scrollWidth,
      viewport,
    };
    if (sizes.documentWidth <= viewport && sizes.bodyWidth <= viewport) return null;
    const describe = (el: Element) => {
      const parts: string[] = [];
      for (
        let node: Element | null = el;
        node && node !== document.body && parts.length < 4;
        node = node.parentElement
      ) {
        const testId = node.getAttribute('data-testid');
        const classes = Array.from(node.classList)
          .filter((c) => !c.startsWith('css-'))
          .slice(0, 2);
        parts.unshift(
          `${node.tagName.toLowerCase()}${testId ? `[data-testid=${testId}]` : ''}${classes.map((c) => `.${c}`).join('')}`,
        );
      }
      const rect = el.getBoundingClientRect();
      const text = (el as HTMLElement).innerText?.trim().replace(/\s+/g, ' ').slice(0, 60) ?? '';
      return `${parts.join(' > ')} (right edge ${Math.round(rect.right)} px, width ${Math.round(rect.width)} px${text ? `, "${text}"` : ''})`;
    };
    const isContained = (el: Element) => {
      for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.position === 'fixed' || style.overflowX !== 'visible') return true;
      }
      return getComputedStyle(el).position === 'fixed';
    };
    const sticking = Array.from(document.body.querySelectorAll('*')).filter(
      (el) => el.getBoundingClientRect().right > viewport + 0.5 && !isContained(el),
    );
    const stickingSet = new Set(sticking);
    const outermost = sticking.find((el) => !stickingSet.has(el.parentElement as Element));
    const innermost = sticking
      .filter((el) => !Array.from(el.children).some((child) => stickingSet.has(child)))
      .sort((a, b) => b.getBoundingClientRect().right - a.getBoundingClientRect().right)[0];
    return {
      ...sizes,
      outermost: outermost ? describe(outermost) : 'none found',
      widest: innermost ? describe(innermost) : 'none found',
    };
  });
}

/**
 * Visits each route in the one page, waiting for its screen, and collects
 * every one that scrolls sideways. Signed-in routes open inside the app; public
 * ones load afresh (no layout marks which public screen the router shows).
 */
async function walk(page: Page, apiCallsInFlight: () => number, walked: TWalkedRoute[]): Promise<string[]> {
  const failures: string[] = [];
  for (const route of walked) {
    await openInApp(page, route.url, route.access !== 'public');
    const pathname = new URL(route.url, server.url).pathname;
    await expect
      .poll(() => new URL(page.url()).pathname, { message: `${route.url}: the router did not open it` })
      .toBe(pathname);
    await waitForScreen(page, screenSelector(route, pathname), apiCallsInFlight, route.url);
    const overflow = await measureOverflow(page);
    if (overflow) {
      failures.push(
        `${route.path} (${route.url}) scrolls sideways: document ${overflow.documentWidth} px, body ${overflow.bodyWidth} px, viewport ${overflow.viewport} px;` +
          ` widest element ${overflow.widest}; outermost ${overflow.outermost}`,
      );
    }
  }
  return failures;
}

describe('the console on a phone (390 × 844)', () => {
  it('no public page scrolls sideways, signed out', async () => {
    const { routes } = await walkSetup();
    const { context, page, apiCallsInFlight } = await phonePage();
    const publicRoutes = routes.filter((r) => r.access === 'public');
    expect(publicRoutes.map((r) => r.path)).toContain('/login');
    expect(await walk(page, apiCallsInFlight, publicRoutes)).toEqual([]);
    await context.close();
  });

  it("no customer page scrolls sideways, and the header's menu button opens the menu as a drawer", async () => {
    const { routes, customer } = await walkSetup();
    const { context, page, apiCallsInFlight } = await phonePage();
    await signIn(page, server.url, customer);
    // The side menu is not on the page; the header keeps the balance and the menu button.
    await page.getByTestId('header-balance').waitFor();
    expect(await page.getByTestId('sidebar').isVisible()).toBe(false);
    const menuButton = page.getByTestId('sidebar-toggle');
    await menuButton.click();
    const drawer = page.getByTestId('menu-drawer');
    await drawer.getByRole('menuitem', { name: 'Invite & rebate' }).click();
    await page.waitForURL((url) => url.pathname === '/invite');
    await drawer.waitFor({ state: 'hidden' });

    const protectedRoutes = routes.filter((r) => r.access === 'protected');
    expect(protectedRoutes.map((r) => r.path)).toContain('/security');
    expect(await walk(page, apiCallsInFlight, protectedRoutes)).toEqual([]);
    await context.close();
  });

  it("no operator page scrolls sideways, and the operator area's menu button opens its menu as a drawer", async () => {
    const { routes } = await walkSetup();
    const { context, page, apiCallsInFlight } = await phonePage();
    await signIn(page, server.url, operatorAccount(server));
    await openInApp(page, '/admin/overview', true);
    await page.getByTestId('admin-content').waitFor();
    expect(await page.getByTestId('admin-sidebar').isVisible()).toBe(false);
    await page.getByTestId('admin-menu-toggle').click();
    const drawer = page.getByTestId('admin-menu-drawer');
    await drawer.getByRole('menuitem', { name: 'Audit log' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/audit');
    await drawer.waitFor({ state: 'hidden' });

    const adminRoutes = routes.filter((r) => r.access === 'admin');
    expect(adminRoutes.map((r) => r.path)).toContain('/admin/users/:id');
    expect(await walk(page, apiCallsInFlight, adminRoutes)).toEqual([]);
    await context.close();
  });

  it('the guided tour walks its six steps on a phone: the menu drawer opens for it, every tooltip fits the screen beside a visible target', async () => {
    const { customer } = await walkSetup();
    const { context, page } = await phonePage();
    await signIn(page, server.url, customer);
    await page.getByTestId('header-balance').waitFor();
    // The header still fits: nothing scrolls sideways with the tour's button in it.
    expect(await measureOverflow(page)).toBeNull();
    await page.getByTestId('tour-start').click();
    const steps = ['sidebar', 'menu', 'residential', 'datacenter', 'billing', 'done'];
    for (const [index, step] of steps.entries()) {
      await page.getByTestId(`tour-step-${step}`).waitFor();
      // Where the tooltip and the highlighted target are, once the tooltip has stopped moving.
      let last = '';
      await expect
        .poll(async () => {
          const now = await page.evaluate(() => {
            const tip = document
              .querySelector('.guided-tour .ant-tour-section, .guided-tour.ant-tour .ant-tour-section')
              ?.getBoundingClientRect();
            return tip ? [tip.left, tip.right, tip.top, tip.bottom].map(Math.round).join(',') : '';
          });
          const isSteady = now !== '' && now === last;
          last = now;
          return isSteady;
        })
        .toBe(true);
      const [left, right] = last.split(',').map(Number);
      expect({ step, left: left >= 0, right: right <= 390 }).toEqual({ step, left: true, right: true });
      if (step !== 'done') expect(await page.getByTestId('menu-drawer').isVisible()).toBe(true);
      await page
        .locator('.guided-tour')
        .getByRole('button', { name: index === steps.length - 1 ? 'Finish' : 'Next' })
        .click();
    }
    await page.locator('.guided-tour .ant-tour-section').waitFor({ state: 'hidden' });
    await page.getByTestId('menu-drawer').waitFor({ state: 'hidden' });
    await context.close();
  });
});
