import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import { setLanguage } from '../../../lib/i18n';
import { clearToken, getAccessToken } from '../../../lib/session';
import { fail } from '../../../test/api-stub';
import { api } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import LoginLinkPage from './login-link-page';

function renderLink(path: string) {
  return renderAt(
    path,
    [
      { path: '/login/link', element: <LoginLinkPage /> },
      { path: '/', element: <div>home page</div> },
      { path: '/login', element: <div>login page</div> },
    ],
    { withoutAntd: true },
  );
}

describe('sign-in link page', () => {
  it('spends the token of the fragment once and opens the console', async () => {
    clearToken();
    api.on('userLoginLinkFinish', (req) =>
      req.form.get('token') === 'tok-1'
        ? { token: 'link-session', expires_in: 216000, is_new_user: false }
        : fail(400, 1061, 'This sign-in link is wrong, used or expired; ask for a new one', {
            error: 'SIGN_IN_LINK_INVALID',
          }),
    );
    renderLink('/login/link#tok-1');
    expect(await screen.findByText('home page')).toBeTruthy();
    expect(getAccessToken()).toBe('link-session');
    expect(api.requestsTo('userLoginLinkFinish')).toHaveLength(1);
  });

  it('says so when the link is used or expired, in either language', async () => {
    clearToken();
    api.on('userLoginLinkFinish', () =>
      fail(400, 1061, 'This sign-in link is wrong, used or expired; ask for a new one', {
        error: 'SIGN_IN_LINK_INVALID',
      }),
    );
    act(() => setLanguage('zh'));
    renderLink('/login/link#old');
    expect(await screen.findByText('登录链接无效、已使用或已过期，请重新获取')).toBeTruthy();
    expect(getAccessToken()).toBeNull();
    act(() => setLanguage('en'));
    expect(await screen.findByText('This sign-in link is wrong, used or expired; ask for a new one')).toBeTruthy();
  });
});
