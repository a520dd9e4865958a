import { Button, Card, Descriptions, Flex, Form, Input, Result, Skeleton, Typography } from 'antd';
import { ArrowLeftOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ROUTES, WORK_ORDER_CONTENT_MAX } from '@proxy/contract';
import { WorkOrderConversation } from '../../../entities/work-orders/work-order-conversation';
import { WorkOrderStatusTag } from '../../../entities/work-orders/work-order-status-tag';
import { zodRule } from '../../../lib/form-rules';
import { formatDateTimeMinutes } from '../../../lib/format';
import { showSuccess } from '../../../lib/message';
import { markServerIssues } from '../../../lib/server-issues';
import { useWorkOrder } from '../api/work-order-detail';
import { useReplyToWorkOrder } from '../api/reply-work-order';
import { AttachmentPicker, isUploading, uploadedIds, type TPickedImage } from './attachment-picker';
import { CancelWorkOrderButton } from './cancel-button';

type TReplyValues = { content?: string; attachments?: TPickedImage[] };

/** The reply form under an open or answered work order. */
function ReplyForm({ id }: { id: number }) {
  const { t } = useTranslation('work-orders');
  const [form] = Form.useForm<TReplyValues>();
  const attachments = Form.useWatch('attachments', form);
  const reply = useReplyToWorkOrder();

  const handleFinish = async (values: TReplyValues) => {
    try {
      await reply.mutateAsync({ id, content: values.content ?? '', attachment_ids: uploadedIds(values.attachments) });
      form.resetFields();
      showSuccess(t('reply.done'));
    } catch (error) {
      markServerIssues(form, error, ['content']);
    }
  };

  return (
    <Form<TReplyValues>
      form={form}
      layout="vertical"
      onFinish={(values) => void handleFinish(values)}
      initialValues={{ attachments: [] }}
    >
      <Form.Item name="content" label={t('reply.label')} rules={[zodRule(ROUTES.workOrderReply.input.shape.content)]}>
        <Input.TextArea rows={4} maxLength={WORK_ORDER_CONTENT_MAX} placeholder={t('reply.placeholder')} />
      </Form.Item>
      <Form.Item name="attachments" label={t('attachments.label')} extra={t('attachments.help')}>
        <AttachmentPicker />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={reply.isPending} disabled={isUploading(attachments)}>
        {t('reply.submit')}
      </Button>
    </Form>
  );
}

/** /work-orders/:id: one work order, its conversation, the reply form and the cancel button while it is open or answered. */
export default function WorkOrderPage() {
  const { t } = useTranslation('work-orders');
  const { t: tc } = useTranslation('common');
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const order = useWorkOrder(id);
  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate('/work-orders')}>
      {t('detail.back')}
    </Button>
  );

  if (!Number.isInteger(id) || id <= 0 || order.isError) {
    return <Result status="warning" title={t('detail.notFound')} extra={back} />;
  }
  if (!order.data) return <Skeleton active />;
  const data = order.data;
  const isActive = data.status === 'open' || data.status === 'answered';

  return (
    <Flex vertical gap={16}>
      <Card
        title={
          <Flex gap={8} align="center" wrap>
            <Typography.Text type="secondary">#{data.id}</Typography.Text>
            <span data-testid="work-order-subject">{data.subject}</span>
            <WorkOrderStatusTag status={data.status} />
          </Flex>
        }
        extra={
          <Flex gap={8}>
            {back}
            <Button icon={<ReloadOutlined />} loading={order.isFetching} onClick={() => void order.refetch()}>
              {t('refresh')}
            </Button>
            {isActive && <CancelWorkOrderButton id={data.id} />}
          </Flex>
        }
      >
        <Descriptions size="small" column={{ xs: 1, sm: 2, md: 4 }}>
          <Descriptions.Item label={t('columns.category')}>
            {tc(`workOrder.category.${data.category}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t('detail.created')}>{formatDateTimeMinutes(data.created_at)}</Descriptions.Item>
          {data.token_id !== null && <Descriptions.Item label={t('create.tokenId')}>{data.token_id}</Descriptions.Item>}
          {data.supply_request_id !== null && (
            <Descriptions.Item label={t('create.supplyRequestId')}>{data.supply_request_id}</Descriptions.Item>
          )}
        </Descriptions>
      </Card>
      <Card title={t('detail.conversation')}>
        <WorkOrderConversation messages={data.messages} viewer="customer" />
      </Card>
      <Card>
        {isActive ? (
          <ReplyForm id={data.id} />
        ) : (
          <Typography.Text type="secondary">{t(`detail.ended.${data.status}`)}</Typography.Text>
        )}
      </Card>
    </Flex>
  );
}
