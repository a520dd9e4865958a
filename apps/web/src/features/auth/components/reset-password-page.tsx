import { Button, Flex, Form, Input, Space } from 'antd';
import { LockOutlined, MailOutlined, SafetyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ERRORS } from '@proxy/contract/light';
import { showSuccess } from '../../../lib/message';
import { useResetPassword } from '../api/reset-password';
import { getConfirmPasswordRules, lazyZodRule } from '../../../lib/form-rules';
import { markServerIssues } from '../../../lib/server-issues';
import { AuthLayout } from './auth-layout';
import { SendCodeButton } from '../../../components/send-code-button';

type TResetValues = { email: string; code: string; password: string; confirm_password: string };

const RESET_FIELDS = ['email', 'code', 'password', 'confirm_password'] as const;

/** /reset-password: e-mail, a code sent to it, the new password twice (spec section 5). */
export default function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<TResetValues>();
  const navigate = useNavigate();
  const resetMutation = useResetPassword();

  const handleFinish = async (values: TResetValues) => {
    try {
      await resetMutation.mutateAsync(values);
      showSuccess(t('reset.success'));
      navigate('/login', { replace: true });
    } catch (error) {
      markServerIssues(form, error, RESET_FIELDS, { [ERRORS.CODE_INVALID.code]: 'code' });
    }
  };

  return (
    <AuthLayout title={t('reset.title')} subtitle={t('reset.subtitle')}>
      <Form<TResetValues> form={form} name="reset" layout="vertical" requiredMark={false} onFinish={handleFinish}>
        <Form.Item htmlFor="reset_email" label={t('reset.email')}>
          <Space.Compact block>
            <Form.Item name="email" noStyle rules={[lazyZodRule((c) => c.ZResetPasswordForm.shape.email)]}>
              <Input prefix={<MailOutlined />} placeholder={t('reset.emailPlaceholder')} autoComplete="email" />
            </Form.Item>
            <SendCodeButton form={form} type="reset" />
          </Space.Compact>
        </Form.Item>
        <Form.Item name="code" label={t('reset.code')} rules={[lazyZodRule((c) => c.ZResetPasswordForm.shape.code)]}>
          <Input prefix={<SafetyOutlined />} placeholder={t('reset.codePlaceholder')} maxLength={6} inputMode="numeric" autoComplete="one-time-code" />
        </Form.Item>
        <Form.Item name="password" label={t('reset.password')} rules={[lazyZodRule((c) => c.ZResetPasswordForm.shape.password)]}>
          <Input.Password prefix={<LockOutlined />} placeholder={t('reset.passwordPlaceholder')} autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="confirm_password" label={t('reset.confirmPassword')} dependencies={['password']} rules={getConfirmPasswordRules(form)}>
          <Input.Password prefix={<LockOutlined />} placeholder={t('reset.confirmPasswordPlaceholder')} autoComplete="new-password" />
        </Form.Item>
        <Form.Item style={{ marginBottom: 16 }}>
          <Button type="primary" htmlType="submit" block size="large" loading={resetMutation.isPending}>
            {t('reset.submit')}
          </Button>
        </Form.Item>
      </Form>
      <Flex justify="center">
        <Link to="/login">{t('reset.backToLogin')}</Link>
      </Flex>
    </AuthLayout>
  );
}
