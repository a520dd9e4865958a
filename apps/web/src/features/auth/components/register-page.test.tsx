import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { setLanguage } from '../../../lib/i18n';
import { clearToken, getAccessToken } from '../../../lib/session';
import { fail } from '../../../test/api-stub';
import { api, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { OAUTH_MESSAGE_SOURCE } from '../utils/oauth-message';
import RegisterPage from './register-page';

let providers = { github: false, google: false, invite_required: false };

// Signed out, with a server that refuses the username "taken".
beforeEach(() => {
  clearToken();
  providers = { github: false, google: false, invite_required: false };
  api.on('userOAuthProviders', () => providers);
  api.on('userCode', () => ({ resend_after: 60 }));
  api.on('userRegister', (req) =>
    req.form.get('username') === 'taken'
      ? fail(400, 400, 'Invalid request parameters', {
          error: 'BAD_REQUEST',
          issues: [{ path: 'username', message: 'Username is reserved here' }],
        })
      : { token: 'fresh-session', expires_in: 216000, is_new_user: true },
  );
  api.on('userGoogleVerify', () => ({ token: 'google-session', expires_in: 216000, is_new_user: true }));
});

function renderRegister(path = '/register') {
  return renderAt(
    path,
    [
      { path: '/register', element: <RegisterPage /> },
      { path: '/', element: <div>home page</div> },
    ],
    { withoutAntd: true },
  );
}

function type(label: RegExp | string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function fillValidForm() {
  type('Username', 'alice');
  type('E-mail', 'alice@example.com');
  type('Verification code', '123456');
  type('Password', 'correct horse');
  type('Confirm password', 'correct horse');
}

describe('register form rules (spec section 5)', () => {
  it.each([
    { label: 'Username', wrong: ['a', 'a'.repeat(21)], right: 'alice', rule: 'Username must be 2-20 characters' },
    {
      label: 'E-mail',
      wrong: ['not-an-email'],
      right: 'alice@example.com',
      rule: 'Please enter a valid e-mail address',
    },
    { label: 'Verification code', wrong: ['12a45'], right: '123456', rule: 'The verification code is 6 digits' },
    { label: 'Password', wrong: ['short'], right: 'correct horse', rule: 'Password must be at least 8 characters' },
  ])('checks the $label as the user types', async ({ label, wrong, right, rule }) => {
    renderRegister();
    for (const value of wrong) {
      type(label, value);
      expect(await screen.findByText(rule)).toBeTruthy();
    }
    type(label, right);
    await waitFor(() => expect(screen.queryByText(rule)).toBeNull());
  });

  it('says the two passwords are inconsistent, also when the first one changes afterwards', async () => {
    renderRegister();
    type('Password', 'correct horse');
    type('Confirm password', 'correct horsf');
    expect(await screen.findByText('The two passwords you entered are inconsistent')).toBeTruthy();
    type('Confirm password', 'correct horse');
    await waitFor(() => expect(screen.queryByText('The two passwords you entered are inconsistent')).toBeNull());
    type('Password', 'another password');
    expect(await screen.findByText('The two passwords you entered are inconsistent')).toBeTruthy();
  });

  it('shows the rules in Chinese too', async () => {
    act(() => setLanguage('zh'));
    renderRegister();
    type('用户名', 'a');
    type('确认密码', 'x');
    type('验证码', '1');
    expect(await screen.findByText('用户名长度为 2-20 个字符')).toBeTruthy();
    expect(await screen.findByText('两次输入的密码不一致')).toBeTruthy();
    expect(await screen.findByText('验证码为 6 位数字')).toBeTruthy();
  });

  it("fills the invite code in from ?invite= and locks it (the inviter is the link's)", async () => {
    renderRegister('/register?invite=ABCD1234');
    const field = screen.getByLabelText(/Invitation code/) as HTMLInputElement;
    expect(field.value).toBe('ABCD1234');
    expect(field.readOnly).toBe(true);
    expect(screen.getByLabelText('Filled in from the invite link')).toBeTruthy();
  });

  it('leaves the invite code open without a link, and requires one only when the server says so', async () => {
    providers = { github: false, google: false, invite_required: true };
    renderRegister('/register');
    expect((screen.getByLabelText(/Invitation code/) as HTMLInputElement).readOnly).toBe(false);
    await waitFor(() => expect(screen.getByText('Invitation code')).toBeTruthy()); // label loses "(optional)"
    type('Invitation code', 'X');
    type('Invitation code', '');
    expect(await screen.findByText('Please enter an invitation code')).toBeTruthy();
  });

  it('sends the code and counts down 60 s before a resend', async () => {
    renderRegister();
    type('E-mail', 'alice@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText(/Resend in \d+ s/)).toBeTruthy();
    const [request] = api.requestsTo('userCode');
    expect(request.form.get('email')).toBe('alice@example.com');
    expect(request.form.get('type')).toBe('register');
  });

  it('ends the wait when the e-mail address changes: the wait belongs to the address the code went to', async () => {
    renderRegister();
    type('E-mail', 'alice@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText(/Resend in \d+ s/)).toBeTruthy();
    type('E-mail', 'bob@example.com');
    const button = await screen.findByRole('button', { name: 'Send code' });
    expect(screen.queryByText(/Resend in \d+ s/)).toBeNull();
    // Back to the first address: its wait was ended too; a code can go to the new one at once.
    type('E-mail', 'alice@example.com');
    expect(screen.queryByText(/Resend in \d+ s/)).toBeNull();
    type('E-mail', 'bob@example.com');
    fireEvent.click(button);
    expect(await screen.findByText(/Resend in \d+ s/)).toBeTruthy();
    expect(api.requestsTo('userCode').map((r) => r.form.get('email'))).toEqual([
      'alice@example.com',
      'bob@example.com',
    ]);
  });

  it('registers, saves the session and goes to /', async () => {
    renderRegister('/register?invite=ABCD1234');
    fillValidForm();
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('home page')).toBeTruthy();
    expect(getAccessToken()).toBe('fresh-session');
    const [request] = api.requestsTo('userRegister');
    expect(request.form.get('invite_code')).toBe('ABCD1234');
    expect(request.form.get('confirm_password')).toBe('correct horse');
  });

  it('marks the field the server refused, with no other message', async () => {
    renderRegister();
    fillValidForm();
    type('Username', 'taken');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Username is reserved here')).toBeTruthy();
    expect(screen.queryByText(/Register failed/)).toBeNull();
    expect(shownMessages('error')).toEqual([]);
    expect(getAccessToken()).toBeNull();
  });

  it('tells a wrong code once, under the code field', async () => {
    api.on('userRegister', () => fail(400, 1004, 'Invalid or expired verification code', { error: 'CODE_INVALID' }));
    renderRegister();
    fillValidForm();
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Invalid or expired verification code', { selector: '.auth-error' })).toBeTruthy();
    expect(screen.getAllByText(/Invalid or expired verification code|Register failed/)).toHaveLength(1);
    expect(shownMessages('error')).toEqual([]);
  });

  it('says "Register failed, please try again" with the reason once for a refusal of no field', async () => {
    api.on('userRegister', () => fail(403, 1006, 'This account is disabled', { error: 'ACCOUNT_DISABLED' }));
    renderRegister();
    fillValidForm();
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() =>
      expect(shownMessages('error')).toEqual(['Register failed, please try again: This account is disabled']),
    );
    expect(document.querySelector('.auth-error')).toBeNull();
  });

  it('creates a Google account with the invite code of the form', async () => {
    providers = { github: false, google: true, invite_required: true };
    renderRegister('/register?invite=ABCD1234');
    await screen.findByRole('button', { name: /Sign in with Google/ });
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: window.location.origin,
          data: { source: OAUTH_MESSAGE_SOURCE, provider: 'google', code: 'g-code', state: 'g-state' },
        }),
      );
    });
    expect(await screen.findByText('home page')).toBeTruthy();
    expect(getAccessToken()).toBe('google-session');
    expect(api.requestsTo('userGoogleVerify')[0].form.get('invite_code')).toBe('ABCD1234');
  });
});
