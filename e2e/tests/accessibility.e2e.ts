import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { everyRoute, type TWalkedRoute } from '../support/app-routes';
import { registerUser, sharedServer, type TAppServer, operatorAccount } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { dismissNotice, signIn } from '../support/console';

// Issue acceptance (console quality): axe finds no serious or critical WCAG 2
// A/AA violation on any route of the router, in zh and en, light and dark;
// row actions are reachable with the keyboard, show a focus ring, and a dialog
// opened from one keeps the focus inside and gives it back when it closes.
let server: TAppServer;
let browser: Browser;

beforeAll(async () => {
  server = sharedServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/**
 * Language and theme, as the console stores them (lib/i18n.ts LANG, lib/theme.ts THEME). Every route is
 * checked in both languages and both themes, in two passes: Chinese in the light theme, English in the
 * dark one. Contrast depends on the theme and names on the language, not on the pair, so the other two
 * pairs would repeat the same checks at twice the time.
 */
const VARIANTS = [
  { lang: 'zh', theme: 'light' },
  { lang: 'en', theme: 'dark' },
] as const;
type TVariant = (typeof VARIANTS)[number];

/** One call of the API as a program would make it; resolves the envelope's data. */
async function callJson<T>(path: string, token: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`${server.url}/api${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      lang: 'en',
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const envelope = (await res.json()) as { code: number; msg: string; data: T };
  if (envelope.code !== 0) throw new Error(`${path}: ${envelope.msg}`);
  return envelope.data;
}

/** Tops the user up by `amount` yuan with the sandbox provider, as its payment page would. */
async function topUp(token: string, amount: number): Promise<void> {
  const order = await callJson<{ order_id: string }>(`/pay/charge/sandbox/${amount}`, token, { method: 'POST' });
  const paid = await fetch(`${server.url}/api/pay/sandbox/${order.order_id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'result=success',
    redirect: 'manual',
  });
  if (paid.status !== 303) throw new Error(`sandbox payment failed: ${paid.status}`);
}

/** A customer with a payment, a static IP and a work order, so lists and details are not empty. */
async function customerWithData() {
  const account = await registerUser(server, 'a11y');
  await topUp(account.token, 50);
  await callJson('/token/static/ip', account.token, {
    method: 'POST',
    body: { network: 'HTTP', country_id: 'us', quantity: 1, days: 1 },
  });
  const workOrder = await callJson<{ id: number }>('/user/work/order', account.token, {
    method: 'POST',
    body: { category: 'proxy', subject: 'Slow proxy', content: 'The proxy answers slowly in the evening.' },
  });
  const info = await callJson<{ user_id: number }>('/user/info', account.token);
  const invite = await callJson<{ invite_code: string }>('/invite/info', account.token);
  return { account, userId: info.user_id, workOrderId: workOrder.id, inviteCode: invite.invite_code };
}

/**
 * Every route with real values: `:id` is the work order of the customer,
 * except on the operator's user page, where it is the customer.
 */
function routesWithData(data: Awaited<ReturnType<typeof customerWithData>>): TWalkedRoute[] {
  const common = { invite_code: data.inviteCode, provider: 'github' };
  const byWorkOrder = everyRoute({ ...common, id: String(data.workOrderId) });
  const byUser = everyRoute({ ...common, id: String(data.userId) });
  return byWorkOrder.map((route, i) => (route.path.startsWith('/admin/users/') ? byUser[i] : route));
}

/** Stores the variant's language and theme as the console does, then loads the page again. */
async function applyVariant(page: Page, variant: TVariant): Promise<void> {
  await page.evaluate((v) => {
    const record = (value: string) => JSON.stringify({ value, time: Date.now(), expire: null });
    window.localStorage.setItem('PROXYHUB_LANG', record(v.lang));
    window.localStorage.setItem('PROXYHUB_THEME', record(v.theme));
  }, variant);
  await page.reload();
  await expect
    .poll(() => page.evaluate(() => [document.documentElement.lang, document.documentElement.dataset.theme]))
    .toEqual([variant.lang === 'zh' ? 'zh-CN' : 'en', variant.theme]);
}

/** Navigates inside the single-page app (the router follows popstate), without loading the page again. */
async function navigateClientSide(page: Page, url: string): Promise<void> {
  await page.evaluate((target) => {
    const index = ((window.history.state as { idx?: number } | null)?.idx ?? 0) + 1;
    window.history.pushState({ usr: null, key: `a11y${index}`, idx: index }, '', target);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, url);
}

/**
 * The screen is rendered: the page of the current path is in the layout's
 * page area (when there is one), nothing visible spins or shimmers, and no
 * finite animation (a dialog or menu opening, a colour transition) is running.
 */
async function waitForScreen(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(() => {
        const isVisible = (el: Element) => el.getClientRects().length > 0;
        const pages = document.querySelectorAll('[data-page-key]');
        if (pages.length > 0) {
          const current = Array.from(pages).find((el) => el.getAttribute('data-page-key') === window.location.pathname);
          if (!current || current.childElementCount === 0) return 'page not shown';
        }
        if (!document.querySelector('#root')?.childElementCount) return 'nothing rendered';
        // The spinners of antd and of the page loader, skeletons, and the top loading bar (nprogress).
        const busy = Array.from(
          document.querySelectorAll(
            '.ant-spin-spinning, .ant-skeleton-active, .ant-btn-loading, [role="status"], #nprogress',
          ),
        ).filter(isVisible);
        if (busy.length > 0) return `busy: ${busy[0].className}`;
        const moving = document
          .getAnimations()
          .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity);
        if (moving.length > 0) return 'animating';
        return 'ready';
      }),
    )
    .toBe('ready');
}

type TFinding = { where: string; rule: string; impact: string; targets: string[]; help: string };

/** Serious and critical WCAG 2 A/AA violations axe finds on the page as it is (with axe's reason per element). */
async function seriousViolations(page: Page, where: string): Promise<TFinding[]> {
  // Pages the layout keeps alive but hidden are left out (axe skips hidden content anyway; this saves its time).
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa'])
    .exclude('[data-page-key][style*="display: none"]')
    .options({ resultTypes: ['violations'] })
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      where,
      rule: v.id,
      impact: v.impact ?? '',
      help: v.help,
      targets: v.nodes.map(
        (n) => `${n.target.join(' ')}: ${[...n.any, ...n.all, ...n.none].map((c) => c.message).join('; ')}`,
      ),
    }));
}

function report(findings: TFinding[]): string {
  return findings
    .map((f) => `${f.where}: ${f.rule} (${f.impact}) ${f.help}\n    ${f.targets.join('\n    ')}`)
    .join('\n');
}

/** Makes the product notice show again on the next load, as right after a sign-in (components/notice-dialog.tsx). */
async function showNoticeOnLoad(page: Page): Promise<void> {
  await page.evaluate(() => {
    window.localStorage.removeItem('PROXYHUB_NOTICE_HIDDEN');
    window.sessionStorage.setItem(
      'PROXYHUB_NOTICE_PENDING',
      JSON.stringify({ value: true, time: Date.now(), expire: null }),
    );
  });
}

type TAudience = 'signed out' | 'customer' | 'operator';

/** Who walks which routes: public ones signed out, protected ones as a customer, operator ones as the operator. */
const WALKS = [
  { audience: 'signed out', access: 'public' },
  { audience: 'customer', access: 'protected' },
  { audience: 'operator', access: 'admin' },
] as const;

/** The route paths, known when the tests are collected (the values of their parameters are made when they run). */
const PATHS = everyRoute({ id: '1', invite_code: 'CODE', provider: 'github' });

describe('accessibility of every screen', () => {
  // Made by the first test that needs it (waiting for the e-mailed code needs a running test).
  let made: ReturnType<typeof customerWithData> | undefined;
  const customer = () => (made ??= customerWithData());
  const urlOf = async (path: string) => routesWithData(await customer()).find((r) => r.path === path)!.url;

  // One page per audience, kept across its routes and variants: the variant is applied with one load,
  // then every route is reached by client-side navigation.
  const sessions = new Map<TAudience, Promise<{ page: Page; variant: TVariant | null }>>();
  const pageIn = async (audience: TAudience, variant: TVariant): Promise<Page> => {
    let session = sessions.get(audience);
    if (!session) {
      session = (async () => {
        const { page } = await newPage(browser);
        if (audience === 'signed out') await page.goto(`${server.url}/login`);
        else
          await signIn(
            page,
            server.url,
            audience === 'customer' ? (await customer()).account : operatorAccount(server),
          );
        return { page, variant: null };
      })();
      sessions.set(audience, session);
    }
    const current = await session;
    if (current.variant !== variant) {
      await applyVariant(current.page, variant);
      current.variant = variant;
    }
    return current.page;
  };
  afterAll(async () => {
    for (const session of sessions.values()) await (await session).page.context().close();
  });

  describe.each(VARIANTS)('$lang, $theme', (variant) => {
    const label = `[${variant.lang} ${variant.theme}]`;

    it('the product notice after sign-in: no serious or critical axe violation', async () => {
      const page = await pageIn('customer', variant);
      await showNoticeOnLoad(page);
      await page.reload();
      await page.getByRole('dialog').waitFor();
      await waitForScreen(page);
      const findings = await seriousViolations(page, `customer notice dialog ${label}`);
      await dismissNotice(page);
      expect(report(findings)).toBe('');
    });

    for (const { audience, access } of WALKS) {
      const paths = PATHS.filter((r) => r.access === access).map((r) => r.path);
      it.each(paths)(`${audience} at %s: no serious or critical axe violation`, async (path) => {
        const page = await pageIn(audience, variant);
        const url = await urlOf(path);
        await navigateClientSide(page, url);
        await waitForScreen(page);
        const shown = new URL(page.url()).pathname;
        const findings = await seriousViolations(
          page,
          `${audience} ${url}${shown === url ? '' : ` (shown ${shown})`} ${label}`,
        );
        expect(report(findings)).toBe('');
      });
    }
  });

  it('reaches a row action with Tab, shows its focus ring, opens its dialog with Enter and gets the focus back after Escape', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, server.url, (await customer()).account);
      await page.goto(`${server.url}/proxy/isp/static`);
      await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(1);
      await waitForScreen(page);

      // Tab from the top of the page until the row's "Test" action has the focus.
      const focused = () =>
        page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          return {
            text: el?.innerText?.trim() ?? '',
            inRow: !!el?.closest('.ant-table-tbody tr.ant-table-row'),
            what: `${el?.outerHTML.slice(0, 160)} in ${el?.parentElement?.className}`,
          };
        });
      const path: string[] = [];
      for (let steps = 0; steps < 150; steps++) {
        const now = await focused();
        if (now.inRow && now.text === 'Test') break;
        path.push(`${now.what} ${now.text.slice(0, 20)}`);
        await page.keyboard.press('Tab');
      }
      expect(await focused(), `focus went through: ${path.join(' | ')}`).toMatchObject({ text: 'Test', inRow: true });

      // The focus is visible: an outline or a ring drawn with box-shadow.
      const ring = await page.evaluate(() => {
        const style = getComputedStyle(document.activeElement!);
        const hasOutline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
        return hasOutline || style.boxShadow !== 'none';
      });
      expect(ring).toBe(true);
      await page.evaluate(() => document.activeElement!.setAttribute('data-opener', 'yes'));

      // Enter opens the test dialog, and the focus moves inside it.
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog').filter({ hasText: /Test/ });
      await dialog.waitFor();
      const focusIsInDialog = () => page.evaluate(() => !!document.activeElement?.closest('.ant-modal-wrap'));
      await expect.poll(focusIsInDialog).toBe(true);
      // Once the test has answered, Tab goes round inside the dialog (close, "Test again", "Close"...).
      await expect.poll(() => dialog.innerText()).toContain('The proxy works');
      // After its last element the focus may pass through the browser's own controls (the document's body
      // is active), as antd's trap lets it, but it never lands on the page behind the dialog.
      const whereIsFocus = () =>
        page.evaluate(() => {
          const el = document.activeElement;
          if (!el || el === document.body) return 'browser';
          return el.closest('.ant-modal-wrap') ? 'dialog' : `page: ${el.outerHTML.slice(0, 200)}`;
        });
      const visited: string[] = [];
      for (let i = 0; i < 8; i++) {
        await page.keyboard.press('Tab');
        visited.push(await whereIsFocus());
      }
      expect(visited.filter((where) => where !== 'dialog' && where !== 'browser')).toEqual([]);
      expect(visited.slice(-4)).toContain('dialog');

      // Escape closes it and the focus is back on the row's "Test" action.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-opener'))).toBe('yes');
    } finally {
      await context.close();
    }
  });
});
