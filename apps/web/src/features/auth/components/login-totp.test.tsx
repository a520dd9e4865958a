import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { setLanguage } from '../../../lib/i18n';
import { clearToken, getAccessToken } from '../../../lib/session';
import { fail } from '../../../test/api-stub';
import { api } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import LoginPage from './login-page';

// An account with two-factor on: the password answers the code step, the code the session.
beforeEach(() => {
  clearToken();
  api.on('userOAuthProviders', () => ({ github: false, google: false, invite_required: false }));
  api.on('userLogin', () => ({ totp_required: true as const, challenge: 'challenge-1', expires_in: 300 }));
  api.on('userLoginTotp', (req) => {
    if (req.form.get('challenge') !== 'challenge-1')
      return fail(401, 1052, 'The two-factor step has expired; please sign in again', {
        error: 'TOTP_CHALLENGE_EXPIRED',
      });
    const code = req.form.get('code');
    return code === '123456' || code === 'abcde-fghjk'
      ? { token: 'totp-session', expires_in: 216000, is_new_user: false }
      : fail(400, 1051, 'The authentication code or recovery code is incorrect', { error: 'TOTP_INVALID_CODE' });
  });
});

function renderLogin() {
  return renderAt('/login?redirect=%2Fuser-center', [
    { path: '/login', element: <LoginPage /> },
    { path: '/user-center', element: <div>user center page</div> },
  ]);
}

async function passPassword() {
  fireEvent.change(screen.getByLabelText(/E-mail or username|邮箱或用户名/), { target: { value: 'alice' } });
  fireEvent.change(screen.getByLabelText(/^(Password|密码)$/), { target: { value: 'correct horse' } });
  fireEvent.click(screen.getByRole('button', { name: /^(Sign in|登\s?录)$/ }));
  return screen.findByLabelText(/Authentication code|动态验证码/);
}

describe('login page: the two-factor step', () => {
  it('asks for the code after the password, refuses a wrong one in place and signs in with the right one', async () => {
    act(() => setLanguage('en'));
    renderLogin();
    const input = await passPassword();
    expect(getAccessToken()).toBeNull();
    expect(screen.getByText(/Use one of your recovery codes/)).toBeTruthy();
    fireEvent.change(input, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    expect(await screen.findByText('The authentication code or recovery code is incorrect')).toBeTruthy();
    fireEvent.change(input, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    expect(await screen.findByText('user center page')).toBeTruthy();
    expect(getAccessToken()).toBe('totp-session');
    const requests = api.requestsTo('userLoginTotp');
    expect(requests.at(-1)?.form.get('challenge')).toBe('challenge-1');
  });

  it('accepts a recovery code and checks the format before sending (zh)', async () => {
    act(() => setLanguage('zh'));
    renderLogin();
    const input = await passPassword();
    const sentBefore = api.requestsTo('userLoginTotp').length;
    fireEvent.change(input, { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: '验证并登录' }));
    expect(await screen.findByText('请输入 6 位动态验证码或恢复码')).toBeTruthy();
    expect(api.requestsTo('userLoginTotp')).toHaveLength(sentBefore);
    fireEvent.change(input, { target: { value: 'ABCDE-FGHJK' } });
    fireEvent.click(screen.getByRole('button', { name: '验证并登录' }));
    expect(await screen.findByText('user center page')).toBeTruthy();
    expect(api.requestsTo('userLoginTotp').at(-1)?.form.get('code')).toBe('abcde-fghjk');
  });

  it('goes back to the sign-in form', async () => {
    act(() => setLanguage('en'));
    renderLogin();
    await passPassword();
    fireEvent.click(screen.getByRole('button', { name: 'Back to sign-in' }));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
  });
});
