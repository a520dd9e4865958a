import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { ERRORS, ZChangePasswordForm } from '@proxy/contract';
import { showSuccess } from '../../../lib/message';
import { useChangePassword } from '../../../entities/users/change-password';
import { getConfirmPasswordRules, zodRule } from '../../../lib/form-rules';
import { markServerIssues } from '../../../lib/server-issues';

type TValues = { current_password: string; password: string; confirm_password: string };

const fields = ZChangePasswordForm.shape;

/**
 * Change-password form: current, new (at least 8) and confirmation; other sessions are signed out. `currentLabel`
 * names the current password otherwise (the one-time password of a required change); `onChanged` follows a success.
 */
export function PasswordForm(props: { currentLabel?: string; onChanged?: () => void } = {}) {
  const { t } = useTranslation('users');
  const [form] = Form.useForm<TValues>();
  const mutation = useChangePassword();

  const handleFinish = async (values: TValues) => {
    try {
      await mutation.mutateAsync(values);
      showSuccess(t('password.success'));
      form.resetFields();
      props.onChanged?.();
    } catch (error) {
      markServerIssues(form, error, ['current_password', 'password', 'confirm_password'], {
        [ERRORS.PASSWORD_INCORRECT.code]: 'current_password',
        [ERRORS.PASSWORD_UNCHANGED.code]: 'password',
      });
    }
  };

  return (
    <Form<TValues>
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={(values) => void handleFinish(values)}
      style={{ maxWidth: 480 }}
    >
      <Form.Item
        name="current_password"
        label={props.currentLabel ?? t('password.current')}
        rules={[zodRule(fields.current_password)]}
      >
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item name="password" label={t('password.new')} rules={[zodRule(fields.password)]}>
        <Input.Password autoComplete="new-password" placeholder={t('password.newPlaceholder')} />
      </Form.Item>
      <Form.Item
        name="confirm_password"
        label={t('password.confirm')}
        dependencies={['password']}
        rules={getConfirmPasswordRules(form)}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={mutation.isPending}>
        {t('password.submit')}
      </Button>
    </Form>
  );
}
