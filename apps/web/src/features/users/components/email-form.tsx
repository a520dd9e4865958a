import { Button, Form, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ERRORS, ROUTES } from '@proxy/contract';
import { zodRule } from '../../../lib/form-rules';
import { showSuccess } from '../../../lib/message';
import { useChangeEmail } from '../api/change-email';
import { markServerIssues } from '../../../lib/server-issues';
import { SendCodeButton } from '../../../components/send-code-button';

type TValues = { email: string; code: string };

const fields = ROUTES.userChangeEmail.input.shape;

/** Change-e-mail form: the new address proves itself with a code sent to it. */
export function EmailForm({ currentEmail }: { currentEmail: string }) {
  const { t } = useTranslation('users');
  const [form] = Form.useForm<TValues>();
  const mutation = useChangeEmail();

  const handleFinish = async (values: TValues) => {
    try {
      await mutation.mutateAsync(values);
      showSuccess(t('email.success'));
      form.resetFields();
    } catch (error) {
      markServerIssues(form, error, ['email', 'code'], {
        [ERRORS.CODE_INVALID.code]: 'code',
        [ERRORS.EMAIL_TAKEN.code]: 'email',
        [ERRORS.EMAIL_UNCHANGED.code]: 'email',
      });
    }
  };

  return (
    <Form<TValues>
      form={form}
      name="change_email"
      layout="vertical"
      requiredMark={false}
      onFinish={(values) => void handleFinish(values)}
      style={{ maxWidth: 480 }}
    >
      <Typography.Paragraph type="secondary">{t('email.current', { email: currentEmail })}</Typography.Paragraph>
      <Form.Item htmlFor="change_email_email" label={t('email.label')}>
        <Space.Compact block>
          <Form.Item name="email" noStyle rules={[zodRule(fields.email)]}>
            <Input placeholder={t('email.placeholder')} autoComplete="email" />
          </Form.Item>
          <SendCodeButton form={form} type="change_email" />
        </Space.Compact>
      </Form.Item>
      <Form.Item name="code" label={t('email.code')} rules={[zodRule(fields.code)]}>
        <Input
          placeholder={t('email.codePlaceholder')}
          maxLength={6}
          inputMode="numeric"
          autoComplete="one-time-code"
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={mutation.isPending}>
        {t('email.submit')}
      </Button>
    </Form>
  );
}
