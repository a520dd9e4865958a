import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { registerUser, startAppServer, type TAppServer } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { dismissNotice } from '../support/console';
import { mailLinks, mailText } from '../support/mail';

// Issue 35, item 6: others' wrong passwords never lock the owner out. Past the
// account's budget of failures (3 here) every sign-in from an address the
// account never used first proves work: the console does it by itself and the
// right password signs in; the owner gets one alert e-mail for the burst; and
// the sign-in link e-mailed from the sign-in page signs in once. A server of
// its own: the shared one allows 1,000 failures and trusts no forwarded address,
// which is how the attacker's and the owner's addresses differ here.
let server: TAppServer;
let browser: Browser;

beforeAll(async () => {
  server = await startAppServer({ RATE_LIMIT_AUTH_MAX: '3', TRUST_PROXY: 'true' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A console page whose requests come from `address` (the server trusts X-Forwarded-For here). */
async function pageFrom(address: string, locale = 'en-US'): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await newPage(browser, { locale });
  await opened.context.setExtraHTTPHeaders({ 'x-forwarded-for': address });
  return opened;
}

/** One password sign-in through the API from `address`; resolves the envelope. */
async function signInFrom(address: string, email: string, password: string) {
  const res = await fetch(`${server.url}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'en', 'x-forwarded-for': address },
    body: new URLSearchParams({ email, password }).toString(),
  });
  return (await res.json()) as { code: number; msg: string; data: Record<string, unknown> | null };
}

const ALERT = 'attempts to sign in to your account with a wrong password';

describe('sign-in past an account budget of failures', () => {
  it('the console proves work and signs the owner in, one alert e-mail per burst, and the e-mailed link signs in once', async () => {
    const owner = await registerUser(server, 'besieged');
    const alerts = () => server.mails(owner.email).filter((mail) => mailText(mail).includes(ALERT));

    // Five wrong guesses from five addresses: three are checked and refused, then each is asked for a proof of work.
    const guesses = [];
    for (let i = 1; i <= 5; i += 1) guesses.push(await signInFrom(`203.0.113.${i}`, owner.email, `wrong guess ${i}`));
    expect(guesses.slice(0, 3).map((g) => g.msg)).toEqual(Array(3).fill('Incorrect account or password'));
    for (const guess of guesses.slice(3)) expect(guess.data).toMatchObject({ proof_required: true, bits: 16 });
    await expect.poll(() => alerts().length).toBe(1);
    expect(mailText(alerts()[0])).toContain('there were 3 attempts to sign in to your account with a wrong password');

    // The owner, from an address the account never used: the console works out the proof and the password signs in.
    const signedIn = await pageFrom('198.51.100.7');
    const { page } = signedIn;
    const logins: URLSearchParams[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/user/login')
        logins.push(new URLSearchParams(req.postData() ?? ''));
    });
    try {
      await page.goto(`${server.url}/login`);
      await page.getByLabel('E-mail or username').fill(owner.email);
      await page.getByLabel('Password', { exact: true }).fill(owner.password);
      // The message may show for less than a poll of the page on a fast machine: an observer records that it showed
      // (in the tab's session storage, which the navigation after sign-in keeps).
      const PROVING = 'Running an extra check for this account (a few seconds)…';
      await page.evaluate((text) => {
        new MutationObserver(() => {
          if (document.body.textContent?.includes(text)) sessionStorage.setItem('e2e-proving-shown', 'yes');
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      }, PROVING);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/login'));
      expect(await page.evaluate(() => sessionStorage.getItem('e2e-proving-shown'))).toBe('yes');
      await dismissNotice(page);
      await expect.poll(() => page.getByTestId('header-balance').innerText()).toContain('15.00');
      expect(logins).toHaveLength(2);
      expect(logins[0].has('nonce')).toBe(false);
      expect(logins[1].get('proof')).toMatch(/\S+/);
      expect(logins[1].get('nonce')).toMatch(/^\d+$/);
    } catch (error) {
      await page.screenshot({ path: '/tmp/e2e-sign-in-throttle-failure.png' }).catch(() => undefined);
      throw error;
    } finally {
      await signedIn.context.close();
    }
    // Still one alert: the owner's sign-in and the guesses past the budget send none.
    expect(alerts()).toHaveLength(1);

    // "E-mail me a sign-in link" from yet another address; the link in the e-mail signs in.
    const linked = await pageFrom('198.51.100.8');
    try {
      await linked.page.goto(`${server.url}/login`);
      await linked.page.getByLabel('E-mail or username').fill(owner.email);
      await linked.page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
      await expect
        .poll(() => linked.page.getByRole('status').innerText())
        .toBe('If this account exists, a sign-in link is on its way to its e-mail address (valid 15 minutes).');
      await expect
        .poll(() => server.mails(owner.email).flatMap((mail) => mailLinks(mail, '/login/link')))
        .toHaveLength(1);
      const [link] = server.mails(owner.email).flatMap((mail) => mailLinks(mail, '/login/link'));
      expect(new URL(link).hash).toMatch(/^#[\w-]{40,}$/);
      await linked.page.goto(link);
      await linked.page.waitForURL((url) => url.pathname === '/');
      await dismissNotice(linked.page);
      await expect.poll(() => linked.page.getByTestId('header-balance').innerText()).toContain('15.00');

      // The link works once: opened again (in Chinese) it says so and leads back to the sign-in page.
      const again = await pageFrom('198.51.100.9', 'zh-CN');
      try {
        await again.page.goto(link);
        await expect
          .poll(() => again.page.locator('main').innerText())
          .toContain('登录链接无效、已使用或已过期，请重新获取');
        await again.page.getByRole('button', { name: '返回登录' }).click();
        await again.page.waitForURL((url) => url.pathname === '/login');
      } finally {
        await again.context.close();
      }
    } catch (error) {
      await linked.page.screenshot({ path: '/tmp/e2e-sign-in-link-failure.png' }).catch(() => undefined);
      throw error;
    } finally {
      await linked.context.close();
    }
  });
});
