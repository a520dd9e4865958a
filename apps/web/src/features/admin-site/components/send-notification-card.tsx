import { Button, Card, Col, Form, Input, InputNumber, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { confirmAction, showSuccess } from '../../../lib/message';
import { markServerIssues } from '../../../lib/server-issues';
import { useSendNotification } from '../api/notice';

type TSendForm = {
  user_id?: number | null;
  title_zh: string;
  title_en: string;
  content_zh: string;
  content_en: string;
};

/** A notification (the bell) to one customer by id, or to every active account when no id is given. */
export function SendNotificationCard() {
  const { t } = useTranslation('admin-site');
  const [form] = Form.useForm<TSendForm>();
  const send = useSendNotification();
  const required = [{ required: true, whitespace: true, message: t('required') }];

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const userId = values.user_id ?? undefined;
    confirmAction({
      title: userId === undefined ? t('send.confirmAll') : t('send.confirmOne', { id: userId }),
      onOk: async () => {
        try {
          const result = await send.mutateAsync({ ...values, user_id: userId });
          showSuccess(t('send.done', { count: result.sent }));
          form.resetFields();
        } catch (error) {
          markServerIssues(form, error, ['user_id', 'title_zh', 'title_en', 'content_zh', 'content_en']);
        }
      },
    });
  };

  return (
    <Card title={t('send.title')}>
      <Form<TSendForm>
        form={form}
        name="send"
        layout="vertical"
        onFinish={() => void submit()}
        data-testid="send-notification-form"
      >
        <Form.Item name="user_id" label={t('send.userId')} extra={t('send.userIdHint')}>
          <InputNumber<number> min={1} precision={0} style={{ width: 220 }} />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} lg={12}>
            <Form.Item name="title_zh" label={t('titleZh')} rules={required}>
              <Input maxLength={100} showCount />
            </Form.Item>
            <Form.Item name="content_zh" label={t('contentZh')} rules={required}>
              <Input.TextArea maxLength={2000} showCount autoSize={{ minRows: 3, maxRows: 8 }} />
            </Form.Item>
          </Col>
          <Col xs={24} lg={12}>
            <Form.Item name="title_en" label={t('titleEn')} rules={required}>
              <Input maxLength={100} showCount />
            </Form.Item>
            <Form.Item name="content_en" label={t('contentEn')} rules={required}>
              <Input.TextArea maxLength={2000} showCount autoSize={{ minRows: 3, maxRows: 8 }} />
            </Form.Item>
          </Col>
        </Row>
        <Button type="primary" htmlType="submit" loading={send.isPending} data-testid="send-notification">
          {t('send.submit')}
        </Button>
      </Form>
    </Card>
  );
}
