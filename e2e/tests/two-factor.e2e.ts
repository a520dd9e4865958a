import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { generate } from 'otplib';
import { registerUser, sharedServer, type TAppServer } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { dismissNotice, signIn } from '../support/console';

let server: TAppServer;
let browser: Browser;

beforeAll(async () => {
  server = sharedServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('two-factor sign-in in the browser', () => {
  it('enrols TOTP in the user centre, then signs in with a code from the authenticator', async () => {
    const account = await registerUser(server, 'twofa');
    const first = await newPage(browser, { locale: 'en-US' });
    await signIn(first.page, server.url, account);
    await first.page.goto(`${server.url}/user-center`);
    await first.page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const secret = ((await first.page.getByTestId('totp-secret').innerText()) ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await expect.poll(() => first.page.locator('.ant-qrcode').count()).toBe(1);
    // The authenticator app: codes computed from the key shown.
    const enrolCode = await generate({ secret });
    await first.page.getByLabel('6-digit code').fill(enrolCode);
    await first.page.getByRole('button', { name: 'Turn on' }).click();
    const codes = first.page.getByTestId('totp-recovery-codes');
    await expect.poll(async () => ((await codes.innerText()).match(/[a-z0-9]{5}-[a-z0-9]{5}/g) ?? []).length).toBe(10);
    await codes.getByRole('button', { name: 'I have saved them' }).click();
    await expect.poll(() => first.page.getByText('10 recovery codes left').count()).toBe(1);
    await first.context.close();

    // Signed out (a fresh browser): the password alone no longer signs in.
    const second = await newPage(browser, { locale: 'en-US' });
    await second.page.goto(`${server.url}/login`);
    await second.page.getByLabel('E-mail or username').fill(account.email);
    await second.page.getByLabel('Password', { exact: true }).fill(account.password);
    await second.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const codeInput = second.page.getByLabel('Authentication code');
    await codeInput.waitFor();
    expect(second.page.url()).toContain('/login');
    // The enrolment code was used: the next time step's code signs in.
    await expect.poll(() => generate({ secret }), { timeout: 35_000, interval: 500 }).not.toBe(enrolCode);
    await codeInput.fill(await generate({ secret }));
    await second.page.getByRole('button', { name: 'Verify and sign in' }).click();
    await second.page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await dismissNotice(second.page);
    await second.context.close();
  });
});
