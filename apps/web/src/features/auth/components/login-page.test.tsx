import { beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { setLanguage } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { clearToken, getAccessToken, getTokenRecord } from '../../../lib/session';
import { fail } from '../../../test/api-stub';
import { makeSiteSettings } from '../../../test/fixtures';
import { api } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { OAUTH_MESSAGE_SOURCE } from '../utils/oauth-message';
import LoginPage from './login-page';

let providers = { github: false, google: false, invite_required: false };

// Signed out, with a server that knows one password and one Google sign-in.
beforeEach(() => {
  clearToken();
  providers = { github: false, google: false, invite_required: false };
  api.on('userOAuthProviders', () => providers);
  api.on('userLogin', (req) =>
    req.form.get('password') === 'correct horse'
      ? { token: 'session-token-1', expires_in: 216000, is_new_user: false }
      : fail(401, 1001, req.headers.lang === 'zh' ? '账号或密码错误' : 'Incorrect account or password', {
          error: 'INVALID_CREDENTIALS',
        }),
  );
  api.on('userGoogleVerify', (req) =>
    req.form.get('code') === 'g-code' || req.form.get('access_token') === 'g-token'
      ? { token: 'google-session', expires_in: 216000, is_new_user: false }
      : fail(400, 1010, 'Google or GitHub sign-in failed, please try again', { error: 'OAUTH_FAILED' }),
  );
});

function postFromPopup(data: Record<string, unknown>, origin = window.location.origin) {
  act(() => {
    window.dispatchEvent(
      new MessageEvent('message', { origin, data: { source: OAUTH_MESSAGE_SOURCE, provider: 'google', ...data } }),
    );
  });
}

function renderLogin(path = '/login') {
  return renderAt(
    path,
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/', element: <div>home page</div> },
      { path: '/user-center', element: <div>user center page</div> },
      { path: '/reset-password', element: <div>reset page</div> },
      // The sign-in page loads no antd: its messages are the light toasts.
    ],
    { withoutAntd: true },
  );
}

function fillAndSubmit(account: string, password: string) {
  fireEvent.change(screen.getByLabelText(/E-mail or username|邮箱或用户名/), { target: { value: account } });
  fireEvent.change(screen.getByLabelText(/^(Password|密码)$/), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: /^(Sign in|登\s?录)$/ }));
}

describe('login page', () => {
  it("shows the operator's marketing figures beside the form, the spec's while they load (en and zh)", async () => {
    act(() => setLanguage('en'));
    let answer: (settings: ReturnType<typeof makeSiteSettings>) => void = () => undefined;
    api.on('siteSettings', () => new Promise((resolve) => (answer = resolve)));
    renderLogin();
    const brand = () => document.querySelector('.auth-claims')!.textContent;
    expect(brand()).toBe('32M+residential IPs195countries and regions99.9%uptime');
    await waitFor(() => expect(api.requestsTo('siteSettings')).toHaveLength(1));
    answer(makeSiteSettings({ claims: { residential_ips: '2M+', countries: 12, uptime: '99.5%' } }));
    await waitFor(() => expect(brand()).toBe('2M+residential IPs12countries and regions99.5%uptime'));
    act(() => setLanguage('zh'));
    await waitFor(() => expect(brand()).toBe('2M+住宅 IP12覆盖国家和地区99.5%可用率'));
  });

  it('says "Please enter your username and password" when fields are missing (en)', async () => {
    act(() => setLanguage('en'));
    renderLogin();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getAllByText('Please enter your username and password')).toHaveLength(2));
    expect(api.requestsTo('userLogin')).toHaveLength(0);
  });

  it('says "请输入用户名和密码" when fields are missing (zh)', async () => {
    act(() => setLanguage('zh'));
    renderLogin();
    fireEvent.click(screen.getByRole('button', { name: /^登\s?录$/ }));
    await waitFor(() => expect(screen.getAllByText('请输入用户名和密码')).toHaveLength(2));
  });

  it('validates as the user types: a password alone still asks for the account', async () => {
    renderLogin();
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'x' } });
    fireEvent.change(screen.getByLabelText('E-mail or username'), { target: { value: 'a' } });
    fireEvent.change(screen.getByLabelText('E-mail or username'), { target: { value: '' } });
    expect(await screen.findByText('Please enter your username and password')).toBeTruthy();
  });

  it('signs in and opens the page of the redirect query', async () => {
    renderLogin('/login?redirect=%2Fuser-center');
    fillAndSubmit('alice@example.com', 'correct horse');
    expect(await screen.findByText('user center page')).toBeTruthy();
    expect(getAccessToken()).toBe('session-token-1');
    expect(getTokenRecord()?.kind).toBe('local'); // "remember me" is on by default
    const [request] = api.requestsTo('userLogin');
    expect(request.form.get('email')).toBe('alice@example.com');
    expect(request.form.get('remember')).toBe('true');
    expect(request.headers.lang).toBe('en');
  });

  it('goes to / without a redirect query, and ignores a redirect to another site', async () => {
    renderLogin('/login?redirect=%2F%2Fevil.example%2Fphish');
    fireEvent.click(screen.getByLabelText('Remember me'));
    fillAndSubmit('alice', 'correct horse');
    expect(await screen.findByText('home page')).toBeTruthy();
    expect(getTokenRecord()?.kind).toBe('session');
  });

  it('stays on the page with the server message when the password is wrong', async () => {
    renderLogin();
    fillAndSubmit('alice', 'wrong password');
    expect(await screen.findByText('Incorrect account or password')).toBeTruthy();
    expect(getAccessToken()).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('shows GitHub and Google buttons only when the server enables them', async () => {
    renderLogin();
    await waitFor(() => expect(api.requestsTo('userOAuthProviders').length).toBeGreaterThan(0));
    expect(screen.queryByRole('button', { name: /GitHub/ })).toBeNull();
    cleanup();
    queryClient.clear();
    providers = { github: true, google: true, invite_required: false };
    renderLogin();
    expect(await screen.findByRole('button', { name: /Sign in with GitHub/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Sign in with Google/ })).toBeTruthy();
  });

  it('links to password reset', async () => {
    renderLogin();
    fireEvent.click(screen.getByRole('link', { name: 'Forgot password?' }));
    expect(await screen.findByText('reset page')).toBeTruthy();
  });

  it('finishes Google sign-in with the code the popup posts back, and honours ?redirect=', async () => {
    providers = { github: false, google: true, invite_required: false };
    renderLogin('/login?redirect=%2Fuser-center');
    await screen.findByRole('button', { name: /Sign in with Google/ });
    postFromPopup({ code: 'g-code', state: 'g-state' }, 'https://evil.example');
    postFromPopup({ code: 'g-code', state: 'g-state' });
    expect(await screen.findByText('user center page')).toBeTruthy();
    expect(getAccessToken()).toBe('google-session');
    const requests = api.requestsTo('userGoogleVerify');
    expect(requests).toHaveLength(1); // the message from another origin was ignored
    expect(requests[0].form.get('state')).toBe('g-state');
  });

  it('accepts a Google access token from the popup and reports a failed one', async () => {
    providers = { github: false, google: true, invite_required: false };
    renderLogin();
    await screen.findByRole('button', { name: /Sign in with Google/ });
    postFromPopup({ access_token: 'wrong' });
    expect((await screen.findAllByText('Google or GitHub sign-in failed, please try again')).length).toBeGreaterThan(0);
    expect(getAccessToken()).toBeNull();
    postFromPopup({ access_token: 'g-token' });
    expect(await screen.findByText('home page')).toBeTruthy();
  });
});

describe('login page: an account under attack', () => {
  it('brings the proof of work the server asks for, then signs in', async () => {
    const { createHash } = await import('node:crypto');
    const { leadingZeroBits, proofInput } = await import('@proxy/contract/light');
    act(() => setLanguage('en'));
    api.on('userLogin', (req) => {
      const proof = req.form.get('proof');
      const nonce = req.form.get('nonce');
      if (!proof || !nonce) return { proof_required: true as const, challenge: 'ch-1', bits: 8, expires_in: 300 };
      const digest = createHash('sha256').update(proofInput(proof, nonce)).digest();
      return proof === 'ch-1' && leadingZeroBits(digest) >= 8 && req.form.get('password') === 'correct horse'
        ? { token: 'session-token-1', expires_in: 216000, is_new_user: false }
        : fail(401, 1001, 'Incorrect account or password', { error: 'INVALID_CREDENTIALS' });
    });
    renderLogin();
    fillAndSubmit('me@example.com', 'correct horse');
    expect(await screen.findByText('home page')).toBeTruthy();
    expect(getAccessToken()).toBe('session-token-1');
    expect(api.requestsTo('userLogin').map((r) => r.form.get('proof') ?? null)).toEqual([null, 'ch-1']);
  });

  it('e-mails a sign-in link for the account typed in, in either language', async () => {
    api.on('userLoginLink', () => null);
    act(() => setLanguage('zh'));
    renderLogin();
    fireEvent.change(screen.getByLabelText('邮箱或用户名'), { target: { value: 'me@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: '通过邮件发送登录链接' }));
    expect(await screen.findByText('如果该账号存在，登录链接已发送到其邮箱（15 分钟内有效）。')).toBeTruthy();
    expect(api.requestsTo('userLoginLink').map((r) => r.form.get('email'))).toEqual(['me@example.com']);
    cleanup();
    act(() => setLanguage('en'));
    renderLogin();
    fireEvent.click(screen.getByRole('button', { name: 'E-mail me a sign-in link' }));
    expect(await screen.findAllByText('Please enter your username and password')).not.toHaveLength(0);
    expect(api.requestsTo('userLoginLink')).toHaveLength(1);
  });
});
