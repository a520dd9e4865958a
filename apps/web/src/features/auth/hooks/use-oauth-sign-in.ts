import { useCallback, useEffect, useRef, useState } from 'react';
import type { TOAuthProvider, TSignInResult } from '@proxy/contract';
import { showError } from '../../../lib/message';
import { translate } from '../../../lib/i18n';
import { getOAuthAuthorizeUrl, getOAuthRedirectUri } from '../api/oauth-authorize';
import { verifyOAuth } from '../api/oauth-verify';
import {
  OAUTH_CHANNEL_NAME,
  isOAuthMessage,
  markPopupSignIn,
  saveOAuthContext,
  type TOAuthContext,
  type TOAuthMessage,
} from '../utils/oauth-message';

const POPUP_FEATURES = 'width=520,height=680,menubar=no,toolbar=no,status=no';

type TOAuthSignInOptions = {
  /** Called with the session (or the two-factor step) once the provider's answer is verified. */
  onSession: (session: TSignInResult) => void;
  /** Read when a sign-in starts or finishes: "remember me", the page to open afterwards, the invite code. */
  getContext: () => TOAuthContext;
};

/**
 * GitHub and Google sign-in of the login page. GitHub leaves the page for the
 * provider and comes back to /oauth/callback/github. Google opens a popup; the
 * callback page inside it posts `{ code, state }` or `{ access_token }` back
 * here (to window.opener, or over a BroadcastChannel when the opener was
 * severed) and this page verifies it.
 */
export function useOAuthSignIn({ onSession, getContext }: TOAuthSignInOptions) {
  const [pending, setPending] = useState<TOAuthProvider | null>(null);
  const popupRef = useRef<Window | null>(null);
  const onSessionRef = useRef(onSession);
  const getContextRef = useRef(getContext);
  useEffect(() => {
    onSessionRef.current = onSession;
    getContextRef.current = getContext;
  }, [onSession, getContext]);

  useEffect(() => {
    // The same answer may arrive by postMessage and by the channel: verify it once.
    const handled = new Set<string>();
    const handleResult = async (data: TOAuthMessage) => {
      const { provider, code, state, access_token: accessToken, error } = data;
      const id = `${code ?? ''}|${state ?? ''}|${accessToken ?? ''}|${error ?? ''}`;
      if (handled.has(id)) return;
      handled.add(id);
      popupRef.current = null;
      if (error) {
        setPending(null);
        showError(translate('auth:oauth.failed'));
        return;
      }
      setPending(provider);
      const { inviteCode } = getContextRef.current();
      try {
        const session = await verifyOAuth(provider, {
          ...(code ? { code } : {}),
          ...(state ? { state } : {}),
          ...(accessToken ? { access_token: accessToken } : {}),
          redirect_uri: getOAuthRedirectUri(provider),
          ...(inviteCode ? { invite_code: inviteCode } : {}),
        });
        onSessionRef.current(session);
      } catch {
        // the request layer has shown why
      } finally {
        setPending(null);
      }
    };
    const handleMessage = (event: MessageEvent) => {
      if (event.origin === window.location.origin && isOAuthMessage(event.data)) void handleResult(event.data);
    };
    const handleChannel = (event: MessageEvent) => {
      if (isOAuthMessage(event.data)) void handleResult(event.data);
    };
    window.addEventListener('message', handleMessage);
    const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(OAUTH_CHANNEL_NAME);
    channel?.addEventListener('message', handleChannel);
    return () => {
      window.removeEventListener('message', handleMessage);
      channel?.close();
    };
  }, []);

  const startGitHub = useCallback(async () => {
    setPending('github');
    try {
      const { url } = await getOAuthAuthorizeUrl('github');
      saveOAuthContext(getContext());
      window.location.assign(url);
    } catch {
      setPending(null);
    }
  }, [getContext]);

  const startGoogle = useCallback(async () => {
    // Open the popup inside the click so blockers allow it, then point it at the provider.
    const popup = window.open('about:blank', 'oauth-google', POPUP_FEATURES);
    popupRef.current = popup;
    setPending('google');
    try {
      const { url, state } = await getOAuthAuthorizeUrl('google');
      if (popup && !popup.closed) {
        markPopupSignIn(state);
        popup.location.href = url;
        // The popup may be closed without an answer: stop waiting then.
        const timer = window.setInterval(() => {
          if (popup.closed) {
            window.clearInterval(timer);
            if (popupRef.current === popup) {
              popupRef.current = null;
              setPending(null);
            }
          }
        }, 500);
      } else {
        // Popup blocked: go through the same callback page in this window.
        saveOAuthContext(getContext());
        window.location.assign(url);
      }
    } catch {
      popup?.close();
      popupRef.current = null;
      setPending(null);
    }
  }, [getContext]);

  return { pending, startGitHub, startGoogle };
}
