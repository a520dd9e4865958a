import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ERRORS } from '@proxy/contract/light';
import { showSuccess } from '../../../lib/message';
import { useResetPassword } from '../api/reset-password';
import { markServerIssues } from '../../../lib/server-issues';
import { AuthButton } from '../ui/fields';
import { confirmPasswordChecks, lazyZodCheck, useLightForm } from '../ui/light-form';
import { AuthLayout } from './auth-layout';
import { EmailCodePasswordFields } from './email-code-password-fields';

const RESET_FIELDS = ['email', 'code', 'password', 'confirm_password'] as const;

const RESET_RULES = {
  email: [lazyZodCheck((c) => c.ZResetPasswordForm.shape.email)],
  code: [lazyZodCheck((c) => c.ZResetPasswordForm.shape.code)],
  password: [lazyZodCheck((c) => c.ZResetPasswordForm.shape.password)],
  confirm_password: confirmPasswordChecks(),
};
const DEPENDENCIES = { confirm_password: ['password'] };

/** /reset-password: e-mail, a code sent to it, the new password twice (spec section 5). */
export default function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const form = useLightForm({ rules: RESET_RULES, dependencies: DEPENDENCIES });
  const navigate = useNavigate();
  const resetMutation = useResetPassword();

  const handleFinish = async (values: Record<string, string>) => {
    try {
      await resetMutation.mutateAsync({
        email: values.email,
        code: values.code,
        password: values.password,
        confirm_password: values.confirm_password,
      });
      showSuccess(t('reset.success'));
      navigate('/login', { replace: true });
    } catch (error) {
      markServerIssues(form, error, RESET_FIELDS, { [ERRORS.CODE_INVALID.code]: 'code' });
    }
  };

  return (
    <AuthLayout title={t('reset.title')} subtitle={t('reset.subtitle')}>
      <form className="auth-form" noValidate onSubmit={form.onSubmit(handleFinish)}>
        <EmailCodePasswordFields form={form} section="reset" />
        <div className="auth-submit">
          <AuthButton type="submit" variant="primary" isBlock isLoading={resetMutation.isPending}>
            {t('reset.submit')}
          </AuthButton>
        </div>
      </form>
      <div className="auth-footer">
        <Link to="/login">{t('reset.backToLogin')}</Link>
      </div>
    </AuthLayout>
  );
}
