import { Suspense, lazy, useCallback, useState } from 'react';
import { Button, Flex, Form, Input, Space, type FormRule } from 'antd';
import { LockOutlined, MailOutlined, SafetyOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ERRORS, validationMessage } from '@proxy/contract/light';
import type { TSession, TSignInResult, TTotpChallenge } from '@proxy/contract';
import { getLanguage } from '../../../lib/i18n';
import { showSuccess } from '../../../lib/message';
import { useOAuthProviders } from '../api/oauth-providers';
import { useRegister } from '../api/register';
import { useFinishSignIn } from '../hooks/use-finish-sign-in';
import { getConfirmPasswordRules, lazyZodRule } from '../../../lib/form-rules';
import { isTotpChallenge } from '@proxy/contract/light';
import { getSafeRedirect } from '../utils/redirect';
import { markServerIssues } from '../../../lib/server-issues';
import { AuthLayout } from './auth-layout';
import { OAuthButtons } from './oauth-buttons';
import { SendCodeButton } from '../../../components/send-code-button';

// The two-factor step (an existing account with two-factor on) is loaded only when asked for.
const TotpStep = lazy(() => import('./totp-step'));

type TRegisterValues = {
  username: string;
  email: string;
  code: string;
  password: string;
  confirm_password: string;
  invite_code?: string;
};

const REGISTER_FIELDS = ['username', 'email', 'code', 'password', 'confirm_password', 'invite_code'] as const;

/** /register: username, e-mail with a code, password twice and the invite code (spec sections 2, 4, 5). */
export default function RegisterPage() {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<TRegisterValues>();
  const [searchParams] = useSearchParams();
  const inviteFromLink = searchParams.get('invite') ?? '';
  const redirect = getSafeRedirect(searchParams);
  const providers = useOAuthProviders();
  const isInviteRequired = providers.data?.invite_required === true;
  const registerMutation = useRegister();
  const finishSignIn = useFinishSignIn();
  const [totpStep, setTotpStep] = useState<{ step: TTotpChallenge; isRemembered: boolean; redirect: string } | null>(null);
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
    () => ({ isRemembered: true, redirect, inviteCode: String(form.getFieldValue('invite_code') ?? '').trim() }),
    [form, redirect],
  );

  // Optional by default; the server says when this installation requires an invite.
  const inviteRules: FormRule[] = [
    ...(isInviteRequired ? [{ required: true, whitespace: true, message: validationMessage('inviteRequired', getLanguage()) }] : []),
    lazyZodRule((c) => c.ZRegisterForm.shape.invite_code),
  ];

  const handleFinish = async (values: TRegisterValues) => {
    try {
      const result = await registerMutation.mutateAsync({ ...values, invite_code: values.invite_code?.trim() ?? '' });
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
          <TotpStep step={totpStep.step} onSession={(session: TSession) => completeSignIn(session, totpStep)} onCancel={() => setTotpStep(null)} />
        </Suspense>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('register.title')} subtitle={t('register.subtitle')}>
      <Form<TRegisterValues>
        form={form}
        name="register"
        layout="vertical"
        requiredMark={false}
        initialValues={{ invite_code: inviteFromLink }}
        onFinish={handleFinish}
      >
        <Form.Item name="username" label={t('register.username')} rules={[lazyZodRule((c) => c.ZRegisterForm.shape.username)]}>
          <Input prefix={<UserOutlined />} placeholder={t('register.usernamePlaceholder')} autoComplete="username" />
        </Form.Item>
        <Form.Item htmlFor="register_email" label={t('register.email')}>
          <Space.Compact block>
            <Form.Item name="email" noStyle rules={[lazyZodRule((c) => c.ZRegisterForm.shape.email)]}>
              <Input prefix={<MailOutlined />} placeholder={t('register.emailPlaceholder')} autoComplete="email" />
            </Form.Item>
            <SendCodeButton form={form} type="register" />
          </Space.Compact>
        </Form.Item>
        <Form.Item name="code" label={t('register.code')} rules={[lazyZodRule((c) => c.ZRegisterForm.shape.code)]}>
          <Input prefix={<SafetyOutlined />} placeholder={t('register.codePlaceholder')} maxLength={6} inputMode="numeric" autoComplete="one-time-code" />
        </Form.Item>
        <Form.Item name="password" label={t('register.password')} rules={[lazyZodRule((c) => c.ZRegisterForm.shape.password)]}>
          <Input.Password prefix={<LockOutlined />} placeholder={t('register.passwordPlaceholder')} autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="confirm_password" label={t('register.confirmPassword')} dependencies={['password']} rules={getConfirmPasswordRules(form)}>
          <Input.Password prefix={<LockOutlined />} placeholder={t('register.confirmPasswordPlaceholder')} autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="invite_code" label={isInviteRequired ? t('register.inviteCode') : t('register.inviteCodeOptional')} rules={inviteRules}>
          {/* A code from an invite link is filled in and locked: the inviter is the link's. */}
          <Input
            prefix={<TeamOutlined />}
            placeholder={t('register.inviteCodePlaceholder')}
            readOnly={Boolean(inviteFromLink)}
            variant={inviteFromLink ? 'filled' : undefined}
            suffix={inviteFromLink ? <LockOutlined aria-label={t('register.inviteCodeLocked')} /> : undefined}
          />
        </Form.Item>
        <Form.Item style={{ marginBottom: 16 }}>
          <Button type="primary" htmlType="submit" block size="large" loading={registerMutation.isPending}>
            {t('register.submit')}
          </Button>
        </Form.Item>
      </Form>
      <OAuthButtons
        onSession={(result, context) => completeSignIn(result, { isRemembered: context.isRemembered, redirect: context.redirect })}
        getContext={getOAuthContext}
      />
      <Flex justify="center" gap={4}>
        <span>{t('register.hasAccount')}</span>
        <Link to="/login">{t('register.toLogin')}</Link>
      </Flex>
    </AuthLayout>
  );
}
