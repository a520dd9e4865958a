import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { clearToken, getAccessToken, getTokenRecord } from '../../../lib/session';
import { fail } from '../../../test/api-stub';
import { api } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { OAUTH_CHANNEL_NAME, markPopupSignIn, saveOAuthContext } from '../utils/oauth-message';
import OAuthCallbackPage from './oauth-callback-page';

// Signed out, with a server that accepts one GitHub code.
beforeEach(() => {
  clearToken();
  api.on('userGithubVerify', (req) =>
    req.form.get('code') === 'good-code'
      ? { token: 'github-session', expires_in: 216000, is_new_user: true }
      : fail(400, 1010, 'Google or GitHub sign-in failed, please try again', { error: 'OAUTH_FAILED' }),
  );
});

function renderCallback(path: string) {
  return renderAt(path, [
    { path: '/oauth/callback/:provider', element: <OAuthCallbackPage /> },
    { path: '/', element: <div>home page</div> },
    { path: '/proxy/isp/static', element: <div>static proxies page</div> },
    { path: '/login', element: <div>login page</div> },
  ]);
}

/** Stands in for the console window that opened the Google popup. */
function setOpener(opener: unknown) {
  Object.defineProperty(window, 'opener', { value: opener, configurable: true, writable: true });
}

afterEach(() => {
  setOpener(null);
  vi.restoreAllMocks();
});

describe('OAuth callback page', () => {
  it('posts the code and state to the console window that opened it, then closes', async () => {
    const postMessage = vi.fn();
    setOpener({ closed: false, location: { origin: window.location.origin }, postMessage });
    const close = vi.spyOn(window, 'close').mockImplementation(() => {});
    renderCallback('/oauth/callback/google?code=abc&state=xyz');
    await vi.waitFor(() => expect(close).toHaveBeenCalled());
    expect(postMessage).toHaveBeenCalledTimes(1);
    expect(postMessage).toHaveBeenCalledWith(
      expect.objectContaining({ provider: 'google', code: 'abc', state: 'xyz' }),
      window.location.origin,
    );
    // The popup never signs in by itself: the opener verifies.
    expect(api.requests).toHaveLength(0);
    expect(getAccessToken()).toBeNull();
  });

  it('posts a Google access token from the URL fragment', async () => {
    const postMessage = vi.fn();
    setOpener({ closed: false, location: { origin: window.location.origin }, postMessage });
    vi.spyOn(window, 'close').mockImplementation(() => {});
    renderCallback('/oauth/callback/google#access_token=tok123&token_type=Bearer');
    await vi.waitFor(() => expect(postMessage).toHaveBeenCalled());
    expect(postMessage.mock.calls[0][0]).toMatchObject({ provider: 'google', access_token: 'tok123' });
    expect(postMessage.mock.calls[0][0].error).toBeUndefined();
  });

  it('does not hand the code to a window of another site', async () => {
    const postMessage = vi.fn();
    setOpener({
      closed: false,
      get location(): Location {
        throw new DOMException('cross-origin', 'SecurityError');
      },
      postMessage,
    });
    renderCallback('/oauth/callback/github?code=good-code&state=s1');
    expect(await screen.findByText('home page')).toBeTruthy();
    expect(postMessage).not.toHaveBeenCalled();
  });

  it('without an opener, verifies itself, saves the session and opens the saved page', async () => {
    saveOAuthContext({ isRemembered: false, redirect: '/proxy/isp/static' });
    renderCallback('/oauth/callback/github?code=good-code&state=s1');
    expect(await screen.findByText('static proxies page')).toBeTruthy();
    expect(getAccessToken()).toBe('github-session');
    expect(getTokenRecord()?.kind).toBe('session');
    const [request] = api.requestsTo('userGithubVerify');
    expect(request.form.get('state')).toBe('s1');
    expect(request.form.get('redirect_uri')).toBe(`${window.location.origin}/oauth/callback/github`);
  });

  it('says "Google or GitHub sign-in failed, please try again" when verification fails', async () => {
    renderCallback('/oauth/callback/github?code=bad-code&state=s1');
    expect((await screen.findAllByText('Google or GitHub sign-in failed, please try again')).length).toBeGreaterThan(0);
    expect(getAccessToken()).toBeNull();
  });

  it('fails without calling the API when the provider answered an error', async () => {
    renderCallback('/oauth/callback/github?error=access_denied&state=s1');
    expect(await screen.findByText('Google or GitHub sign-in failed, please try again')).toBeTruthy();
    expect(api.requests).toHaveLength(0);
  });

  it('answers over a BroadcastChannel when the popup lost its opener on the way back', async () => {
    markPopupSignIn('popup-state');
    const close = vi.spyOn(window, 'close').mockImplementation(() => {});
    const received: unknown[] = [];
    const listener = new BroadcastChannel(OAUTH_CHANNEL_NAME);
    listener.onmessage = (event) => received.push(event.data);
    try {
      renderCallback('/oauth/callback/google?code=c1&state=popup-state');
      await vi.waitFor(() => expect(received).toHaveLength(1));
      expect(received[0]).toMatchObject({ provider: 'google', code: 'c1', state: 'popup-state' });
      expect(close).toHaveBeenCalled();
      expect(await screen.findByText('Signed in: you can close this window.')).toBeTruthy();
      expect(api.requests).toHaveLength(0);
    } finally {
      listener.close();
    }
  });
});
