import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { registerUser, sharedServer, uniqueAccountName, waitForCode, type TAppServer } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { dismissNotice, signIn } from '../support/console';

// Issue acceptance (invite and rebate): user A copies the invite link; a new
// browser opens it, sees A's name, registers through it (the code filled in
// and locked) and tops up 100 yuan with the sandbox; A finds the invitee in
// the invite records and the 5 yuan rebate in the rebate records, and A's
// balance grew by exactly the rebate. An invalid code shows the spec's message
// and the direct-register button.
let server: TAppServer;
let browser: Browser;

beforeAll(async () => {
  server = sharedServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const balance = (page: Page) => page.getByTestId('header-balance').innerText();

/** Pays a 100 yuan sandbox top-up on /charge (the fee and the sandbox page as in the top-up flow). */
async function topUp100(page: Page): Promise<void> {
  const context = page.context();
  await page.goto(`${server.url}/charge`);
  await page.getByRole('radio').filter({ hasText: '¥100.00' }).click();
  const [payWindow] = await Promise.all([context.waitForEvent('page'), page.getByTestId('charge-submit').click()]);
  await payWindow.waitForLoadState();
  await payWindow.getByRole('button', { name: /Pay/ }).click();
  await payWindow.waitForURL(/\/charge\?order=/);
  await payWindow.close();
  await expect.poll(() => page.getByTestId('payment-panel').innerText()).toContain('Payment received');
}

describe('invite and rebate in the browser', () => {
  it('A invites B by link; B registers through it and tops up 100 yuan; A sees B and a 5 yuan rebate, and 5 yuan more', async () => {
    const inviter = await registerUser(server, 'inviter');
    const inviterName = (
      await (
        await fetch(`${server.url}/api/user/info`, {
          headers: { authorization: `Bearer ${inviter.token}`, lang: 'en' },
        })
      ).json()
    ).data.name as string;
    const a = await newPage(browser, { locale: 'en-US' });
    const b = await newPage(browser, { locale: 'en-US' });
    try {
      // A copies the invite link.
      await a.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      await signIn(a.page, server.url, inviter);
      await expect.poll(() => balance(a.page)).toContain('15.00');
      await a.page.goto(`${server.url}/invite`);
      const shown = await a.page.getByTestId('invite-link').innerText();
      expect(shown).toMatch(new RegExp(`^${server.url}/invite/[A-Z0-9]{8}$`));
      await a.page.getByRole('button', { name: 'Copy link' }).click();
      await expect.poll(() => a.page.getByText('Invite link copied').count()).toBeGreaterThan(0);
      const link = await a.page.evaluate(() => navigator.clipboard.readText());
      expect(link).toBe(shown);
      const code = link.split('/').pop()!;

      // B, in a browser of its own, opens the link: A's name, the claims, and registration with the code locked.
      await b.page.goto(link);
      await expect
        .poll(() => b.page.getByTestId('share-title').innerText())
        .toBe(`${inviterName} invites you to ProxyHub`);
      await expect.poll(() => b.page.locator('body').innerText()).toMatch(/32M\+[\s\S]*195[\s\S]*99\.9%/);
      await b.page.getByRole('button', { name: 'Register with this invitation' }).click();
      await b.page.waitForURL(`${server.url}/register?invite=${code}`);
      const inviteField = b.page.getByLabel(/Invitation code/);
      await expect.poll(() => inviteField.inputValue()).toBe(code);
      expect(await inviteField.getAttribute('readonly')).not.toBeNull();
      const invitee = uniqueAccountName('invitee');
      await b.page.getByLabel('Username').fill(invitee.username);
      await b.page.getByLabel('E-mail').fill(invitee.email);
      await b.page.getByRole('button', { name: 'Send code' }).click();
      await b.page.getByLabel('Verification code').fill(await waitForCode(server, invitee.email));
      await b.page.getByLabel('Password', { exact: true }).fill('invitee password 1');
      await b.page.getByLabel('Confirm password').fill('invitee password 1');
      await b.page.getByRole('button', { name: 'Register', exact: true }).click();
      await b.page.waitForURL(`${server.url}/`);
      await dismissNotice(b.page);

      // B tops up 100 yuan.
      await topUp100(b.page);
      await expect.poll(() => balance(b.page)).toContain('115.00');

      // A: B in the invite records, the rebate paid in the rebate records, and exactly 5 yuan more.
      const masked = `${invitee.email.slice(0, 2)}***@example.com`;
      await a.page.reload();
      await expect.poll(() => a.page.locator('.ant-table-tbody').first().innerText()).toContain(masked);
      // The job pays the rebate within a pass (JOBS_INTERVAL_MS); then the page shows it paid.
      const rebateStatus = async () => {
        const res = await fetch(`${server.url}/api/invite/rebate/records`, {
          headers: { authorization: `Bearer ${inviter.token}` },
        });
        return ((await res.json()).data.records as { status: string }[]).map((r) => r.status);
      };
      await expect.poll(rebateStatus).toEqual(['success']);
      await a.page.reload();
      await a.page.getByRole('tab', { name: 'Rebate records' }).click();
      const rebateRow = a.page.locator('tr.ant-table-row', { hasText: 'Paid' });
      await expect.poll(() => rebateRow.count()).toBe(1);
      expect(await rebateRow.innerText()).toMatch(/¥100\.00[\s\S]*¥5\.00[\s\S]*Paid/);
      expect(await rebateRow.innerText()).toContain(masked);
      await a.page.reload();
      await expect.poll(() => balance(a.page)).toContain('20.00');
      await expect.poll(() => a.page.getByTestId('total-rebate').innerText()).toContain('¥5.00');
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });

  it('an invalid code says it does not exist or has expired, and offers direct registration', async () => {
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    try {
      await page.goto(`${server.url}/invite/NOSUCHCODE1`);
      await expect
        .poll(() => page.getByText('Invalid invitation code: it does not exist or has expired').count())
        .toBe(1);
      await page.getByRole('button', { name: 'Register directly' }).click();
      await page.waitForURL(`${server.url}/register`);
      expect(await page.getByLabel(/Invitation code/).inputValue()).toBe('');
    } finally {
      await context.close();
    }
  });
});
