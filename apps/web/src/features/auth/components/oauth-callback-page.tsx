import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import type { TOAuthProvider, TSession, TTotpChallenge } from '@proxy/contract';
import { OAUTH_PROVIDERS, isTotpChallenge } from '@proxy/contract/light';
import { saveSession } from '../../../lib/session';
import { getOAuthRedirectUri } from '../api/oauth-authorize';
import { verifyOAuth } from '../api/oauth-verify';
import { OAUTH_CHANNEL_NAME, readOAuthResult, takeOAuthContext, takePopupSignIn } from '../utils/oauth-message';
import { AuthButton } from '../ui/fields';
import { Icon } from '../ui/icons';

/** Spinner of the page while the provider's answer is checked. */
function Spinner() {
  return <span className="light-spinner" aria-hidden="true" />;
}

// The two-factor step is loaded only when the account asks for it.
const TotpStep = lazy(() => import('./totp-step'));

function isProvider(value: string | undefined): value is TOAuthProvider {
  return (OAUTH_PROVIDERS as readonly string[]).includes(value ?? '');
}

/** The console window that opened this page as a popup, if any (same origin only). */
function getConsoleOpener(): Window | null {
  const opener = window.opener as Window | null;
  if (!opener || opener === window || opener.closed) return null;
  try {
    return opener.location.origin === window.location.origin ? opener : null;
  } catch {
    return null; // another site opened us: never hand it the code
  }
}

/**
 * /oauth/callback/:provider, where GitHub and Google send the browser back.
 * In the Google popup it posts the answer to the console window and closes
 * (over a BroadcastChannel when the opener reference was severed);
 * on its own (GitHub, or a blocked popup) it verifies, signs in and opens the
 * wanted page.
 */
export default function OAuthCallbackPage() {
  const { t } = useTranslation('auth');
  const { provider } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const [hasFailed, setHasFailed] = useState(false);
  const [isHandedOver, setIsHandedOver] = useState(false);
  const [totpStep, setTotpStep] = useState<{ step: TTotpChallenge; isRemembered: boolean; redirect: string } | null>(
    null,
  );
  // The code is single-use: never verify twice (React runs effects twice in development).
  const hasStartedRef = useRef(false);

  useEffect(() => {
    if (hasStartedRef.current) return;
    hasStartedRef.current = true;
    if (!isProvider(provider)) {
      setHasFailed(true);
      return;
    }
    const result = readOAuthResult(provider, location);
    const opener = getConsoleOpener();
    if (opener) {
      opener.postMessage(result, window.location.origin);
      window.close();
      return;
    }
    if (typeof BroadcastChannel !== 'undefined' && takePopupSignIn(result.state)) {
      // The popup of a login page that lost its opener on the way back: answer over the channel.
      const channel = new BroadcastChannel(OAUTH_CHANNEL_NAME);
      channel.postMessage(result);
      channel.close();
      setIsHandedOver(true);
      window.close();
      return;
    }
    const context = takeOAuthContext();
    if (result.error) {
      setHasFailed(true);
      return;
    }
    verifyOAuth(provider, {
      ...(result.code ? { code: result.code } : {}),
      ...(result.state ? { state: result.state } : {}),
      ...(result.access_token ? { access_token: result.access_token } : {}),
      redirect_uri: getOAuthRedirectUri(provider),
      ...(context.inviteCode ? { invite_code: context.inviteCode } : {}),
    })
      .then((result) => {
        if (isTotpChallenge(result)) {
          setTotpStep({ step: result, isRemembered: context.isRemembered, redirect: context.redirect });
          return;
        }
        saveSession(result.token, { remember: context.isRemembered });
        navigate(context.redirect, { replace: true });
      })
      .catch(() => setHasFailed(true));
    // Runs once per page: the answer in the URL is read a single time.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <main className="auth-page" style={{ alignItems: 'center', justifyContent: 'center', padding: 24 }}>
      {totpStep ? (
        <div className="auth-card" style={{ maxWidth: 400 }}>
          <Suspense fallback={<Spinner />}>
            <TotpStep
              step={totpStep.step}
              onSession={(session: TSession) => {
                saveSession(session.token, { remember: totpStep.isRemembered });
                navigate(totpStep.redirect, { replace: true });
              }}
              onCancel={() => void navigate('/login', { replace: true })}
            />
          </Suspense>
        </div>
      ) : isHandedOver ? (
        <div className="auth-result auth-result-success">
          <Icon name="checkCircle" />
          <h1>{t('oauth.handedOver')}</h1>
        </div>
      ) : hasFailed ? (
        <div className="auth-result auth-result-error">
          <Icon name="closeCircle" />
          <h1>{t('oauth.failed')}</h1>
          <AuthButton variant="primary" onClick={() => void navigate('/login', { replace: true })}>
            {t('oauth.backToLogin')}
          </AuthButton>
        </div>
      ) : (
        <div role="status" style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 16 }}>
          <Spinner />
          <span>{t('oauth.working')}</span>
        </div>
      )}
    </main>
  );
}
