import { Button, Card, Flex, Form, Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  ROUTES,
  WORK_ORDER_CATEGORIES,
  WORK_ORDER_CONTENT_MAX,
  WORK_ORDER_SUBJECT_MAX,
  type TWorkOrderCategory,
} from '@proxy/contract';
import { zodRule } from '../../../lib/form-rules';
import { showSuccess } from '../../../lib/message';
import { markServerIssues } from '../../../lib/server-issues';
import { useCreateWorkOrder } from '../api/create-work-order';
import { AttachmentPicker, isUploading, uploadedIds, type TPickedImage } from './attachment-picker';

type TValues = {
  category?: TWorkOrderCategory;
  subject?: string;
  content?: string;
  token_id?: number | null;
  supply_request_id?: number | null;
  attachments?: TPickedImage[];
};

const FIELDS = ROUTES.workOrderCreate.input.shape;

/** /work-orders/new: the new-order form (category, subject, description, related proxy or supply request, images). */
export default function NewWorkOrderPage() {
  const { t } = useTranslation('work-orders');
  const { t: tc } = useTranslation('common');
  const navigate = useNavigate();
  const [form] = Form.useForm<TValues>();
  const attachments = Form.useWatch('attachments', form);
  const create = useCreateWorkOrder();

  const handleFinish = async (values: TValues) => {
    try {
      const order = await create.mutateAsync({
        category: values.category!,
        subject: values.subject ?? '',
        content: values.content ?? '',
        ...(values.token_id ? { token_id: values.token_id } : {}),
        ...(values.supply_request_id ? { supply_request_id: values.supply_request_id } : {}),
        attachment_ids: uploadedIds(values.attachments),
      });
      showSuccess(t('create.done', { id: order.id }));
      // The page stays in the page cache: the next new order starts empty.
      form.resetFields();
      navigate(`/work-orders/${order.id}`);
    } catch (error) {
      markServerIssues(form, error, ['category', 'subject', 'content', 'token_id', 'supply_request_id']);
    }
  };

  return (
    <Card title={t('create.title')}>
      <Form<TValues>
        form={form}
        layout="vertical"
        onFinish={(values) => void handleFinish(values)}
        style={{ maxWidth: 720 }}
        initialValues={{ attachments: [] }}
      >
        <Form.Item name="category" label={t('create.category')} rules={[zodRule(FIELDS.category)]}>
          <Select
            placeholder={t('create.categoryPlaceholder')}
            options={WORK_ORDER_CATEGORIES.map((c) => ({ value: c, label: tc(`workOrder.category.${c}`) }))}
          />
        </Form.Item>
        <Form.Item name="subject" label={t('create.subject')} rules={[zodRule(FIELDS.subject)]}>
          <Input placeholder={t('create.subjectPlaceholder')} maxLength={WORK_ORDER_SUBJECT_MAX} showCount />
        </Form.Item>
        <Form.Item name="content" label={t('create.content')} rules={[zodRule(FIELDS.content)]}>
          <Input.TextArea
            placeholder={t('create.contentPlaceholder')}
            rows={6}
            maxLength={WORK_ORDER_CONTENT_MAX}
            showCount
          />
        </Form.Item>
        <Flex gap={16} wrap>
          <Form.Item name="token_id" label={t('create.tokenId')} tooltip={t('create.tokenIdHelp')}>
            <InputNumber min={1} precision={0} style={{ width: 200 }} placeholder={t('create.optional')} />
          </Form.Item>
          <Form.Item name="supply_request_id" label={t('create.supplyRequestId')}>
            <InputNumber min={1} precision={0} style={{ width: 200 }} placeholder={t('create.optional')} />
          </Form.Item>
        </Flex>
        <Form.Item name="attachments" label={t('attachments.label')} extra={t('attachments.help')}>
          <AttachmentPicker />
        </Form.Item>
        <Flex gap={8}>
          <Button type="primary" htmlType="submit" loading={create.isPending} disabled={isUploading(attachments)}>
            {t('create.submit')}
          </Button>
          <Button onClick={() => void navigate('/work-orders')}>{t('create.back')}</Button>
        </Flex>
      </Form>
    </Card>
  );
}
