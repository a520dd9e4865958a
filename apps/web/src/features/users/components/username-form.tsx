import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { ERRORS, ROUTES } from '@proxy/contract';
import { zodRule } from '../../../lib/form-rules';
import { showSuccess } from '../../../lib/message';
import { useUpdateUsername } from '../api/update-username';
import { markServerIssues } from '../../../lib/server-issues';

type TValues = { username: string };

/** Change-username form (2-20 characters, the register rule). */
export function UsernameForm({ currentName }: { currentName: string }) {
  const { t } = useTranslation('users');
  const [form] = Form.useForm<TValues>();
  const mutation = useUpdateUsername();

  const handleFinish = async ({ username }: TValues) => {
    try {
      await mutation.mutateAsync(username);
      showSuccess(t('username.success'));
    } catch (error) {
      markServerIssues(form, error, ['username'], { [ERRORS.USERNAME_TAKEN.code]: 'username' });
    }
  };

  return (
    <Form<TValues>
      form={form}
      layout="vertical"
      requiredMark={false}
      initialValues={{ username: currentName }}
      onFinish={(values) => void handleFinish(values)}
      style={{ maxWidth: 480 }}
    >
      <Form.Item
        name="username"
        label={t('username.label')}
        rules={[zodRule(ROUTES.userUpdateProfile.input.shape.username)]}
      >
        <Input placeholder={t('username.placeholder')} autoComplete="username" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={mutation.isPending}>
        {t('username.submit')}
      </Button>
    </Form>
  );
}
