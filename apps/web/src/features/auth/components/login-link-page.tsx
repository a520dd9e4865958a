import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { TSession, TTotpChallenge } from '@proxy/contract';
import { isTotpChallenge } from '@proxy/contract/light';
import { saveSession } from '../../../lib/session';
import { finishSignInLink } from '../api/login-link';
import { AuthButton } from '../ui/fields';
import { Icon } from '../ui/icons';

// The two-factor step is loaded only when the account asks for it.
const TotpStep = lazy(() => import('./totp-step'));

/**
 * /login/link#<token>, where an e-mailed sign-in link leads: spends the link
 * (the token sits in the fragment, which no server sees) and opens the console,
 * through the two-factor step when the account has it on.
 */
export default function LoginLinkPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const location = useLocation();
  const [hasFailed, setHasFailed] = useState(false);
  const [totpStep, setTotpStep] = useState<TTotpChallenge | null>(null);
  // A link works once: never spend it twice (React runs effects twice in development).
  const hasStartedRef = useRef(false);

  useEffect(() => {
    if (hasStartedRef.current) return;
    hasStartedRef.current = true;
    const token = location.hash.replace(/^#/, '');
    if (!token) {
      setHasFailed(true);
      return;
    }
    finishSignInLink({ token })
      .then((result) => {
        if (isTotpChallenge(result)) {
          setTotpStep(result);
          return;
        }
        saveSession(result.token, { remember: false });
        navigate('/', { replace: true });
      })
      .catch(() => setHasFailed(true));
    // Runs once per page: the token in the URL is read a single time.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <main className="auth-page" style={{ alignItems: 'center', justifyContent: 'center', padding: 24 }}>
      {totpStep ? (
        <div className="auth-card" style={{ maxWidth: 400 }}>
          <Suspense fallback={null}>
            <TotpStep
              step={totpStep}
              onSession={(session: TSession) => {
                saveSession(session.token, { remember: false });
                void navigate('/', { replace: true });
              }}
              onCancel={() => void navigate('/login', { replace: true })}
            />
          </Suspense>
        </div>
      ) : hasFailed ? (
        <div className="auth-result auth-result-error">
          <Icon name="closeCircle" />
          <h1>{t('link.failed')}</h1>
          <AuthButton variant="primary" onClick={() => void navigate('/login', { replace: true })}>
            {t('oauth.backToLogin')}
          </AuthButton>
        </div>
      ) : (
        <div role="status" style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 16 }}>
          <span className="light-spinner" aria-hidden="true" />
          <span>{t('link.working')}</span>
        </div>
      )}
    </main>
  );
}
