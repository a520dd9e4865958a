import { Suspense, lazy, useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { TLoginResult, TSession, TSignInResult, TTotpChallenge } from '@proxy/contract';
import { isProofChallenge, isTotpChallenge } from '@proxy/contract/light';
import { showSuccess } from '../../../lib/message';
import { useLogin } from '../api/login';
import { requestSignInLink } from '../api/login-link';
import { useFinishSignIn } from '../hooks/use-finish-sign-in';
import { getSafeRedirect } from '../utils/redirect';
import { solveProof } from '../utils/proof-of-work';
import { markServerIssues } from '../../../lib/server-issues';
import { AuthLayout } from './auth-layout';
import { OAuthButtons } from './oauth-buttons';
import { AuthButton, AuthCheckbox, Field } from '../ui/fields';
import { lazyZodCheck, useLightForm } from '../ui/light-form';

// The two-factor step is loaded only when an account asks for it.
const TotpStep = lazy(() => import('./totp-step'));

const LOGIN_FIELDS = ['email', 'password'] as const;

const LOGIN_RULES = {
  email: [lazyZodCheck((c) => c.ZLoginForm.shape.email)],
  password: [lazyZodCheck((c) => c.ZLoginForm.shape.password)],
};

/** /login: e-mail or username and password, remember me, GitHub and Google when enabled (spec section 2). */
export default function LoginPage() {
  const { t } = useTranslation('auth');
  const form = useLightForm({ rules: LOGIN_RULES });
  const [isRemembered, setIsRemembered] = useState(true);
  const rememberRef = useRef(isRemembered);
  rememberRef.current = isRemembered;
  const [searchParams] = useSearchParams();
  const redirect = getSafeRedirect(searchParams);
  const loginMutation = useLogin();
  const finishSignIn = useFinishSignIn();

  // Set when the account has two-factor on: the code step replaces the form.
  const [totpStep, setTotpStep] = useState<{ step: TTotpChallenge; isRemembered: boolean } | null>(null);

  const completeSignIn = useCallback(
    (result: TSignInResult, isRemembered: boolean) => {
      if (isTotpChallenge(result)) {
        setTotpStep({ step: result, isRemembered });
        return;
      }
      showSuccess(t('login.success'));
      finishSignIn(result, { isRemembered, redirect });
    },
    [finishSignIn, redirect, t],
  );

  // An invite link may lead here instead of /register: a new GitHub or Google account is then linked to it.
  const inviteCode = searchParams.get('invite') ?? '';
  const getContext = useCallback(
    () => ({ isRemembered: rememberRef.current, redirect, inviteCode }),
    [redirect, inviteCode],
  );

  // Set while the browser works out the proof an account under attack asks for (its password is not checked before).
  const [isProving, setIsProving] = useState(false);

  // "E-mail me a sign-in link": the way in past any throttle (the answer never says whether the account exists).
  const [linkState, setLinkState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const handleSendLink = async () => {
    if (!(await form.validateFields(['email']))) return;
    setLinkState('sending');
    try {
      await requestSignInLink({ email: form.getValue('email') });
      setLinkState('sent');
    } catch (error) {
      setLinkState('idle');
      markServerIssues(form, error, LOGIN_FIELDS);
    }
  };

  const handleFinish = async (values: Record<string, string>) => {
    const credentials = { email: values.email, password: values.password, remember: isRemembered };
    try {
      let result: TLoginResult = await loginMutation.mutateAsync(credentials);
      // The work asked may rise while others keep guessing: each answer names the work it wants.
      for (let round = 0; isProofChallenge(result) && round < 3; round += 1) {
        setIsProving(true);
        const nonce = await solveProof(result.challenge, result.bits);
        result = await loginMutation.mutateAsync({ ...credentials, proof: result.challenge, nonce });
      }
      setIsProving(false);
      if (isProofChallenge(result)) {
        form.setFields([{ name: 'password', errors: [t('login.proofFailed')] }]);
        return;
      }
      completeSignIn(result, isRemembered);
    } catch (error) {
      setIsProving(false);
      markServerIssues(form, error, LOGIN_FIELDS);
    }
  };

  if (totpStep) {
    return (
      <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')}>
        <Suspense fallback={null}>
          <TotpStep
            step={totpStep.step}
            onSession={(session: TSession) => completeSignIn(session, totpStep.isRemembered)}
            onCancel={() => setTotpStep(null)}
          />
        </Suspense>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')}>
      <form className="auth-form" noValidate onSubmit={form.onSubmit(handleFinish)}>
        <Field
          form={form}
          name="email"
          label={t('login.account')}
          icon="user"
          placeholder={t('login.accountPlaceholder')}
          autoComplete="username"
        />
        <Field
          form={form}
          name="password"
          label={t('login.password')}
          icon="lock"
          isPassword
          placeholder={t('login.passwordPlaceholder')}
          autoComplete="current-password"
        />
        <div className="auth-row">
          <AuthCheckbox checked={isRemembered} onChange={setIsRemembered}>
            {t('login.remember')}
          </AuthCheckbox>
          <Link to="/reset-password">{t('login.forgot')}</Link>
        </div>
        <div className="auth-submit">
          <AuthButton type="submit" variant="primary" isBlock isLoading={loginMutation.isPending || isProving}>
            {t('login.submit')}
          </AuthButton>
        </div>
        <div className="auth-stack">
          <AuthButton variant="link" isLoading={linkState === 'sending'} onClick={() => void handleSendLink()}>
            {t('login.sendLink')}
          </AuthButton>
          {linkState === 'sent' ? (
            <p className="auth-extra" role="status">
              {t('login.linkSent')}
            </p>
          ) : null}
        </div>
        {isProving ? (
          <p className="auth-extra" role="status">
            {t('login.proving')}
          </p>
        ) : null}
      </form>
      <OAuthButtons
        onSession={(session, context) => completeSignIn(session, context.isRemembered)}
        getContext={getContext}
      />
      <div className="auth-footer">
        <span>{t('login.noAccount')}</span>
        <Link to={redirect === '/' ? '/register' : `/register?redirect=${encodeURIComponent(redirect)}`}>
          {t('login.toRegister')}
        </Link>
      </div>
    </AuthLayout>
  );
}
