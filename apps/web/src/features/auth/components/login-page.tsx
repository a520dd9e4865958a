import { Suspense, lazy, useCallback, useState } from 'react';
import { Button, Checkbox, Flex, Form, Input } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { TSession, TSignInResult, TTotpChallenge } from '@proxy/contract';
import { lazyZodRule } from '../../../lib/form-rules';
import { isTotpChallenge } from '@proxy/contract/light';
import { showSuccess } from '../../../lib/message';
import { useLogin } from '../api/login';
import { useFinishSignIn } from '../hooks/use-finish-sign-in';
import { getSafeRedirect } from '../utils/redirect';
import { markServerIssues } from '../../../lib/server-issues';
import { AuthLayout } from './auth-layout';
import { OAuthButtons } from './oauth-buttons';

// The two-factor step is loaded only when an account asks for it.
const TotpStep = lazy(() => import('./totp-step'));

type TLoginValues = { email: string; password: string; remember: boolean };

const LOGIN_FIELDS = ['email', 'password'] as const;

/** /login: e-mail or username and password, remember me, GitHub and Google when enabled (spec section 2). */
export default function LoginPage() {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<TLoginValues>();
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
  const getContext = useCallback(() => ({ isRemembered: form.getFieldValue('remember') !== false, redirect, inviteCode }), [form, redirect, inviteCode]);

  const handleFinish = async (values: TLoginValues) => {
    try {
      const session = await loginMutation.mutateAsync({
        email: values.email,
        password: values.password,
        remember: values.remember,
      });
      completeSignIn(session, values.remember);
    } catch (error) {
      markServerIssues(form, error, LOGIN_FIELDS);
    }
  };

  if (totpStep) {
    return (
      <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')}>
        <Suspense fallback={null}>
          <TotpStep step={totpStep.step} onSession={(session: TSession) => completeSignIn(session, totpStep.isRemembered)} onCancel={() => setTotpStep(null)} />
        </Suspense>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')}>
      <Form<TLoginValues> form={form} layout="vertical" requiredMark={false} initialValues={{ remember: true }} onFinish={handleFinish} size="large">
        <Form.Item name="email" label={t('login.account')} rules={[lazyZodRule((c) => c.ZLoginForm.shape.email)]}>
          <Input prefix={<UserOutlined />} placeholder={t('login.accountPlaceholder')} autoComplete="username" />
        </Form.Item>
        <Form.Item name="password" label={t('login.password')} rules={[lazyZodRule((c) => c.ZLoginForm.shape.password)]}>
          <Input.Password prefix={<LockOutlined />} placeholder={t('login.passwordPlaceholder')} autoComplete="current-password" />
        </Form.Item>
        <Flex justify="space-between" align="center" style={{ marginBottom: 24 }}>
          <Form.Item name="remember" valuePropName="checked" noStyle>
            <Checkbox>{t('login.remember')}</Checkbox>
          </Form.Item>
          <Link to="/reset-password">{t('login.forgot')}</Link>
        </Flex>
        <Form.Item style={{ marginBottom: 16 }}>
          <Button type="primary" htmlType="submit" block loading={loginMutation.isPending}>
            {t('login.submit')}
          </Button>
        </Form.Item>
      </Form>
      <OAuthButtons onSession={(session, context) => completeSignIn(session, context.isRemembered)} getContext={getContext} />
      <Flex justify="center" gap={4}>
        <span>{t('login.noAccount')}</span>
        <Link to={redirect === '/' ? '/register' : `/register?redirect=${encodeURIComponent(redirect)}`}>{t('login.toRegister')}</Link>
      </Flex>
    </AuthLayout>
  );
}
