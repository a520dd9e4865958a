import { Button, Card, Descriptions, Flex, Form, Input, Popconfirm, Result, Skeleton, Typography } from 'antd';
import { ArrowLeftOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ROUTES, WORK_ORDER_CONTENT_MAX } from '@proxy/contract';
import { WorkOrderConversation } from '../../../entities/work-orders/work-order-conversation';
import { WorkOrderStatusTag } from '../../../entities/work-orders/work-order-status-tag';
import { useIsPhone } from '../../../components/use-is-phone';
import { zodRule } from '../../../lib/form-rules';
import { formatDateTimeMinutes } from '../../../lib/format';
import { showSuccess } from '../../../lib/message';
import { markServerIssues } from '../../../lib/server-issues';
import { useAdminWorkOrder } from '../api/admin-work-order';
import { useCloseWorkOrder } from '../api/close';
import { useOperatorReply } from '../api/reply';

/** The operator's reply form: the customer gets a notification and an e-mail. */
function ReplyForm({ id }: { id: number }) {
  const { t } = useTranslation('admin-work-orders');
  const [form] = Form.useForm<{ content?: string }>();
  const reply = useOperatorReply();
  const handleFinish = async ({ content }: { content?: string }) => {
    try {
      await reply.mutateAsync({ id, content: content ?? '' });
      form.resetFields();
      showSuccess(t('reply.done'));
    } catch (error) {
      markServerIssues(form, error, ['content']);
    }
  };
  return (
    <Form form={form} layout="vertical" onFinish={(values) => void handleFinish(values)}>
      <Form.Item
        name="content"
        label={t('reply.label')}
        rules={[zodRule(ROUTES.adminWorkOrderReply.input.shape.content)]}
      >
        <Input.TextArea rows={4} maxLength={WORK_ORDER_CONTENT_MAX} placeholder={t('reply.placeholder')} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={reply.isPending}>
        {t('reply.submit')}
      </Button>
    </Form>
  );
}

/** /admin/work-orders/:id: a work order with its customer and conversation; reply and close while it is open or answered. */
export default function AdminWorkOrderPage() {
  const { t } = useTranslation('admin-work-orders');
  const { t: tc } = useTranslation('common');
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const order = useAdminWorkOrder(id);
  const close = useCloseWorkOrder();
  const isPhone = useIsPhone();
  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate('/admin/work-orders')}>
      {t('detail.back')}
    </Button>
  );

  if (!Number.isInteger(id) || id <= 0 || order.isError)
    return <Result status="warning" title={t('detail.notFound')} extra={back} />;
  if (!order.data) return <Skeleton active />;
  const data = order.data;
  const isActive = data.status === 'open' || data.status === 'answered';
  // On a phone the actions go above the details: beside the title they would widen the page.
  const actions = (
    <Flex gap={8} wrap>
      {back}
      <Button icon={<ReloadOutlined />} loading={order.isFetching} onClick={() => void order.refetch()}>
        {t('refresh')}
      </Button>
      {isActive && (
        <Popconfirm
          title={t('close.confirm')}
          okText={t('close.button')}
          cancelText={t('close.keep')}
          // eslint-disable-next-line @typescript-eslint/no-misused-promises -- antd's Popconfirm awaits it (OK spins until it settles), though typed void; it settles its own failures
          onConfirm={async () => {
            try {
              await close.mutateAsync(data.id);
              showSuccess(t('close.done'));
            } catch {
              // the request layer has shown why
            }
          }}
        >
          <Button danger loading={close.isPending}>
            {t('close.button')}
          </Button>
        </Popconfirm>
      )}
    </Flex>
  );

  return (
    <Flex vertical gap={16}>
      <Card
        title={
          <Flex gap={8} align="center" wrap>
            <Typography.Text type="secondary">#{data.id}</Typography.Text>
            <span>{data.subject}</span>
            <WorkOrderStatusTag status={data.status} />
          </Flex>
        }
        extra={isPhone ? null : actions}
      >
        {isPhone ? <div style={{ marginBottom: 16 }}>{actions}</div> : null}
        <Descriptions size="small" column={{ xs: 1, sm: 2, md: 3 }}>
          <Descriptions.Item
            label={t('columns.customer')}
          >{`${data.username} (${data.user_email}, ID ${data.user_id})`}</Descriptions.Item>
          <Descriptions.Item label={t('columns.category')}>
            {tc(`workOrder.category.${data.category}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t('detail.created')}>{formatDateTimeMinutes(data.created_at)}</Descriptions.Item>
          {data.token_id !== null && <Descriptions.Item label={t('detail.tokenId')}>{data.token_id}</Descriptions.Item>}
          {data.supply_request_id !== null && (
            <Descriptions.Item label={t('detail.supplyRequestId')}>{data.supply_request_id}</Descriptions.Item>
          )}
        </Descriptions>
      </Card>
      <Card title={t('detail.conversation')}>
        <WorkOrderConversation messages={data.messages} viewer="operator" />
      </Card>
      <Card>
        {isActive ? (
          <ReplyForm id={data.id} />
        ) : (
          <Typography.Text type="secondary">{t('detail.ended')}</Typography.Text>
        )}
      </Card>
    </Flex>
  );
}
