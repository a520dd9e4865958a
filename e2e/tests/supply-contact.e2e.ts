import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { callApi, registerUser, sharedServer, type TAppServer, uniqueAccountName } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { signIn } from '../support/console';
import { mailLinks, mailText } from '../support/mail';
import { createSandboxOrder, paySandboxOrder } from '../support/payments';

// Issue 35, item 5: a supply request's e-mails go to a contact address only
// once that address has confirmed it. The supply form says so; the address
// named gets one e-mail whose link opens the public confirmation page, where
// opening confirms nothing and a click does; from then on the request's
// e-mails go there. A wrong link and one without a token say so, in English
// and in Chinese.
let server: TAppServer;
let browser: Browser;

beforeAll(async () => {
  server = sharedServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** Submits a supply request of 2 GB of US dynamic traffic naming `contact`; resolves its id. */
async function submitSupply(token: string, contact: string): Promise<number> {
  const created = await callApi(server.url, '/token/supply', token, {
    method: 'POST',
    body: {
      type: 'traffic',
      product: 'dynamic',
      amount: 2,
      region: 'us',
      wait_days: 3,
      contact_email: contact,
      agree_terms: true,
    },
  });
  if (created.code !== 0) throw new Error(`supply request refused: ${created.msg}`);
  return created.data.request_id as number;
}

describe('supply contact address confirmation', () => {
  it('mails the account until the contact confirms on the public page by a click, then the contact', async () => {
    const account = await registerUser(server, 'supplier');
    await paySandboxOrder(server, await createSandboxOrder(server, account.token, 200));
    const contact = uniqueAccountName('partner').email;

    // The form tells where the e-mails go.
    const customer = await newPage(browser, { locale: 'en-US' });
    try {
      await signIn(customer.page, server.url, account);
      await customer.page.goto(`${server.url}/proxy/isp/supply-request`);
      await expect
        .poll(() => customer.page.getByTestId('supply-form').innerText())
        .toContain("until it confirms, the e-mails go to your account's address");
    } finally {
      await customer.context.close();
    }

    // Submitted naming another address: that address gets only the confirmation e-mail; the request's own e-mail
    // goes to the account.
    const first = await submitSupply(account.token, contact);
    await expect.poll(() => server.mails(contact)).toHaveLength(1);
    expect(mailText(server.mails(contact)[0])).toContain('named this address as the contact of their supply requests');
    await expect
      .poll(() => server.mails(account.email).map(mailText).join('\n'))
      .toContain(`Supply request #${first} (dynamic residential 2 GB`);
    const [link] = mailLinks(server.mails(contact)[0], '/supply/contact/confirm');
    expect(new URL(link).searchParams.get('token')).toMatch(/^[\w-]{40,}$/);

    // The contact opens the link (signed out): opening confirms nothing; the click does.
    const visitor = await newPage(browser, { locale: 'en-US' });
    try {
      await visitor.page.goto(link);
      const confirm = visitor.page.getByRole('button', { name: 'Confirm this address' });
      await confirm.waitFor();
      expect(await visitor.page.locator('main h1').innerText()).toBe('Confirm a contact address');
      expect(await visitor.page.locator('main').innerText()).toContain(
        'A customer named this e-mail address as the contact of their supply (restock) requests.',
      );
      await callApi(server.url, `/token/supply/revoke/${first}`, account.token, { method: 'POST' });
      await expect
        .poll(() => server.mails(account.email).map(mailText).join('\n'))
        .toContain(`Supply request #${first} (dynamic residential 2 GB (United States of America)) is revoked`);
      expect(server.mails(contact)).toHaveLength(1);

      await confirm.click();
      await expect
        .poll(() => visitor.page.getByTestId('contact-confirm-done').innerText())
        .toContain(`Confirmed: ${contact} now receives the supply request e-mails`);
      await visitor.page.getByRole('button', { name: 'Go to the console' }).click();
      await visitor.page.waitForURL((url) => url.pathname === '/login');
    } finally {
      await visitor.context.close();
    }

    // Confirmed: the next request's e-mail goes to the contact, with no second confirmation e-mail.
    const second = await submitSupply(account.token, contact);
    await expect.poll(() => server.mails(contact)).toHaveLength(2);
    expect(mailText(server.mails(contact)[1])).toContain(`Supply request #${second} (dynamic residential 2 GB`);
    await callApi(server.url, `/token/supply/revoke/${second}`, account.token, { method: 'POST' });
  });

  it('says a wrong or missing token is no good, in English and Chinese, and changes nothing', async () => {
    for (const [locale, wrong, missing] of [
      [
        'en-US',
        'This contact address confirmation link is wrong or has expired',
        'This confirmation link is wrong or has expired',
      ],
      ['zh-CN', '联系邮箱确认链接无效或已过期', '确认链接无效或已过期'],
    ] as const) {
      const { context, page } = await newPage(browser, { locale });
      try {
        await page.goto(`${server.url}/supply/contact/confirm?token=${'x'.repeat(43)}`);
        await page.getByTestId('contact-confirm').click();
        await expect.poll(() => page.getByRole('alert').innerText()).toBe(wrong);
        expect(await page.getByTestId('contact-confirm-done').count()).toBe(0);

        await page.goto(`${server.url}/supply/contact/confirm`);
        await expect.poll(() => page.locator('main h1').innerText()).toBe(missing);
        expect(await page.getByTestId('contact-confirm').count()).toBe(0);
      } catch (error) {
        await page.screenshot({ path: `/tmp/e2e-supply-contact-${locale}-failure.png` }).catch(() => undefined);
        throw error;
      } finally {
        await context.close();
      }
    }
  });
});
