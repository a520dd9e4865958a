import { useEffect } from 'react';
import { Alert, Button, Card, Col, Flex, Form, Input, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTimeMinutes } from '../../../lib/format';
import { confirmAction, showSuccess } from '../../../lib/message';
import { markServerIssues } from '../../../lib/server-issues';
import { useCurrentNotice, usePublishNotice } from '../api/notice';
import { ClaimsCard } from './claims-card';
import { SendNotificationCard } from './send-notification-card';

type TNoticeForm = { title_zh: string; title_en: string; content_zh: string; content_en: string };
const FIELDS = ['title_zh', 'title_en', 'content_zh', 'content_en'] as const;

/**
 * /admin/notice: notifications to customers, the notice dialog's text in Chinese and English, and the marketing
 * figures every page shows. Publishing
 * makes a new notice, so every customer sees it once more, "do not show
 * again" included.
 */
export default function NoticePage() {
  const { t } = useTranslation('admin-site');
  const [form] = Form.useForm<TNoticeForm>();
  const current = useCurrentNotice();
  const publish = usePublishNotice();

  useEffect(() => {
    if (current.data) form.setFieldsValue(current.data);
  }, [current.data, form]);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    confirmAction({
      title: t('confirm'),
      content: t('confirmText'),
      onOk: async () => {
        try {
          await publish.mutateAsync(values);
          showSuccess(t('published'));
        } catch (error) {
          markServerIssues(form, error, FIELDS);
        }
      },
    });
  };
  const required = [{ required: true, whitespace: true, message: t('required') }];

  return (
    <Flex vertical gap={16}>
      <Card title={t('noticeCard')} loading={current.isPending}>
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="notice-current"
          title={current.data ? t('current', { time: formatDateTimeMinutes(current.data.published_at) }) : t('none')}
        />
        <Form<TNoticeForm>
          form={form}
          name="notice"
          layout="vertical"
          onFinish={() => void submit()}
          data-testid="notice-form"
        >
          <Row gutter={16}>
            <Col xs={24} lg={12}>
              <Typography.Title level={5}>中文</Typography.Title>
              <Form.Item name="title_zh" label={t('titleZh')} rules={required}>
                <Input maxLength={100} showCount />
              </Form.Item>
              <Form.Item name="content_zh" label={t('contentZh')} rules={required}>
                <Input.TextArea maxLength={4000} showCount autoSize={{ minRows: 6, maxRows: 16 }} />
              </Form.Item>
            </Col>
            <Col xs={24} lg={12}>
              <Typography.Title level={5}>English</Typography.Title>
              <Form.Item name="title_en" label={t('titleEn')} rules={required}>
                <Input maxLength={100} showCount />
              </Form.Item>
              <Form.Item name="content_en" label={t('contentEn')} rules={required}>
                <Input.TextArea maxLength={4000} showCount autoSize={{ minRows: 6, maxRows: 16 }} />
              </Form.Item>
            </Col>
          </Row>
          <Button type="primary" htmlType="submit" loading={publish.isPending} data-testid="notice-publish">
            {t('publish')}
          </Button>
        </Form>
      </Card>
      <SendNotificationCard />
      <ClaimsCard />
    </Flex>
  );
}
