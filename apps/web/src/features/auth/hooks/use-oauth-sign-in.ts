import { useCallback, useEffect, useRef, useState } from 'react';
import type { TOAuthProvider, TSession } from '@proxy/contract';
import { showError } from '../../../lib/message';
import { translate } from '../../../lib/i18n';
import { getOAuthAuthorizeUrl, getOAuthRedirectUri } from '../api/oauth-authorize';
import { verifyOAuth } from '../api/oauth-verify';
import { isOAuthMessage, saveOAuthContext, type TOAuthContext } from '../utils/oauth-message';

const POPUP_FEATURES = 'width=520,height=680,menubar=no,toolbar=no,status=no';

type TOAuthSignInOptions = {
  /** Called with the session once the provider's answer is verified. */
  onSession: (session: TSession) => void;
  /** Read when a sign-in starts: "remember me" and the page to open afterwards. */
  getContext: () => TOAuthContext;
};

/**
 * GitHub and Google sign-in of the login page. GitHub leaves the page for the
 * provider and comes back to /oauth/callback/github. Google opens a popup; the
 * callback page inside it posts `{ code, state }` or `{ access_token }` back
 * here and this page verifies it.
 */
export function useOAuthSignIn({ onSession, getContext }: TOAuthSignInOptions) {
  const [pending, setPending] = useState<TOAuthProvider | null>(null);
  const popupRef = useRef<Window | null>(null);
  const onSessionRef = useRef(onSession);
  useEffect(() => {
    onSessionRef.current = onSession;
  }, [onSession]);

  useEffect(() => {
    const handleMessage = async (event: MessageEvent) => {
      if (event.origin !== window.location.origin || !isOAuthMessage(event.data)) return;
      const { provider, code, state, access_token: accessToken, error } = event.data;
      popupRef.current = null;
      if (error) {
        setPending(null);
        showError(translate('auth:oauth.failed'));
        return;
      }
      setPending(provider);
      try {
        const session = await verifyOAuth(provider, {
          ...(code ? { code } : {}),
          ...(state ? { state } : {}),
          ...(accessToken ? { access_token: accessToken } : {}),
          redirect_uri: getOAuthRedirectUri(provider),
        });
        onSessionRef.current(session);
      } catch {
        showError(translate('auth:oauth.failed'));
      } finally {
        setPending(null);
      }
    };
    window.addEventListener('message', handleMessage);
    return () => window.removeEventListener('message', handleMessage);
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
      const { url } = await getOAuthAuthorizeUrl('google');
      if (popup && !popup.closed) {
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
