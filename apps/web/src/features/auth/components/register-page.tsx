import { Suspense, lazy, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ERRORS, validationMessage } from '@proxy/contract/light';
import type { TSession, TSignInResult, TTotpChallenge } from '@proxy/contract';
import { getLanguage } from '../../../lib/i18n';
import { showSuccess } from '../../../lib/message';
import { useOAuthProviders } from '../api/oauth-providers';
import { useRegister } from '../api/register';
import { useFinishSignIn } from '../hooks/use-finish-sign-in';
import { isTotpChallenge } from '@proxy/contract/light';
import { getSafeRedirect } from '../utils/redirect';
import { markServerIssues } from '../../../lib/server-issues';
import { AuthLayout } from './auth-layout';
import { EmailCodePasswordFields } from './email-code-password-fields';
import { OAuthButtons } from './oauth-buttons';
import { AuthButton, Field } from '../ui/fields';
import { Icon } from '../ui/icons';
import { confirmPasswordChecks, lazyZodCheck, useLightForm, type TLightRule } from '../ui/light-form';

// The two-factor step (an existing account with two-factor on) is loaded only when asked for.
const TotpStep = lazy(() => import('./totp-step'));

const REGISTER_RULES = {
  username: [lazyZodCheck((c) => c.ZRegisterForm.shape.username)],
  email: [lazyZodCheck((c) => c.ZRegisterForm.shape.email)],
  code: [lazyZodCheck((c) => c.ZRegisterForm.shape.code)],
  password: [lazyZodCheck((c) => c.ZRegisterForm.shape.password)],
  confirm_password: confirmPasswordChecks(),
};
const DEPENDENCIES = { confirm_password: ['password'] };

const REGISTER_FIELDS = ['username', 'email', 'code', 'password', 'confirm_password', 'invite_code'] as const;

/** /register: username, e-mail with a code, password twice and the invite code (spec sections 2, 4, 5). */
export default function RegisterPage() {
  const { t } = useTranslation('auth');
  const [searchParams] = useSearchParams();
  const inviteFromLink = searchParams.get('invite') ?? '';
  const redirect = getSafeRedirect(searchParams);
  const providers = useOAuthProviders();
  const isInviteRequired = providers.data?.invite_required === true;
  // The invite code is optional by default; the server says when this installation requires one.
  const rules = useMemo(() => {
    const inviteRules: TLightRule[] = [
      ...(isInviteRequired
        ? [
            (value: string) => {
              if (!value.trim()) throw new Error(validationMessage('inviteRequired', getLanguage()));
            },
          ]
        : []),
      lazyZodCheck((c) => c.ZRegisterForm.shape.invite_code),
    ];
    return { ...REGISTER_RULES, invite_code: inviteRules };
  }, [isInviteRequired]);
  const form = useLightForm({ rules, initialValues: { invite_code: inviteFromLink }, dependencies: DEPENDENCIES });
  const registerMutation = useRegister();
  const finishSignIn = useFinishSignIn();
  const [totpStep, setTotpStep] = useState<{ step: TTotpChallenge; isRemembered: boolean; redirect: string } | null>(
    null,
  );
  const completeSignIn = useCallback(
    (result: TSignInResult, context: { isRemembered: boolean; redirect: string }) => {
      if (isTotpChallenge(result)) {
        setTotpStep({ step: result, ...context });
        return;
      }
      showSuccess(result.is_new_user ? t('register.success') : t('register.existingAccount'));
      finishSignIn(result, context);
    },
    [finishSignIn, t],
  );
  // GitHub and Google create the account too: they take the invite code typed (or prefilled) here.
  const getOAuthContext = useCallback(
    () => ({ isRemembered: true, redirect, inviteCode: form.getValue('invite_code').trim() }),
    [form, redirect],
  );

  const handleFinish = async (values: Record<string, string>) => {
    try {
      const result = await registerMutation.mutateAsync({
        username: values.username,
        email: values.email,
        code: values.code,
        password: values.password,
        confirm_password: values.confirm_password,
        invite_code: values.invite_code?.trim() ?? '',
      });
      completeSignIn(result, { isRemembered: true, redirect });
    } catch (error) {
      // A refusal about a field is shown under it; any other is the request layer's "Register failed" toast.
      markServerIssues(form, error, REGISTER_FIELDS, {
        [ERRORS.CODE_INVALID.code]: 'code',
        [ERRORS.USERNAME_TAKEN.code]: 'username',
        [ERRORS.EMAIL_TAKEN.code]: 'email',
        [ERRORS.INVITE_CODE_INVALID.code]: 'invite_code',
      });
    }
  };

  if (totpStep) {
    return (
      <AuthLayout title={t('register.title')}>
        <Suspense fallback={null}>
          <TotpStep
            step={totpStep.step}
            onSession={(session: TSession) => completeSignIn(session, totpStep)}
            onCancel={() => setTotpStep(null)}
          />
        </Suspense>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('register.title')} subtitle={t('register.subtitle')}>
      <form className="auth-form" noValidate onSubmit={form.onSubmit(handleFinish)}>
        <Field
          form={form}
          name="username"
          label={t('register.username')}
          icon="user"
          placeholder={t('register.usernamePlaceholder')}
          autoComplete="username"
        />
        <EmailCodePasswordFields form={form} section="register" />
        {/* A code from an invite link is filled in and locked: the inviter is the link's. */}
        <Field
          form={form}
          name="invite_code"
          label={isInviteRequired ? t('register.inviteCode') : t('register.inviteCodeOptional')}
          icon="team"
          placeholder={t('register.inviteCodePlaceholder')}
          readOnly={Boolean(inviteFromLink)}
          suffix={
            inviteFromLink ? (
              <Icon name="lock" role="img" aria-hidden={false} aria-label={t('register.inviteCodeLocked')} />
            ) : undefined
          }
        />
        <div className="auth-submit">
          <AuthButton type="submit" variant="primary" isBlock isLoading={registerMutation.isPending}>
            {t('register.submit')}
          </AuthButton>
        </div>
      </form>
      <OAuthButtons
        onSession={(result, context) =>
          completeSignIn(result, { isRemembered: context.isRemembered, redirect: context.redirect })
        }
        getContext={getOAuthContext}
      />
      <div className="auth-footer">
        <span>{t('register.hasAccount')}</span>
        <Link to="/login">{t('register.toLogin')}</Link>
      </div>
    </AuthLayout>
  );
}
