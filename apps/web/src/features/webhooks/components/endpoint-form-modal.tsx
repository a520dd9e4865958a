import { Checkbox, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  WEBHOOK_EVENT_TYPES,
  ZWebhookCreateBody,
  type TWebhookCreateBody,
  type TWebhookEndpoint,
} from '@proxy/contract';
import { zodRule } from '../../../lib/form-rules';
import { markServerIssues } from '../../../lib/server-issues';

/** The add and edit dialog of an endpoint: URL, description, event checkboxes. `onSave` throws to keep it open. */
export function EndpointFormModal({
  endpoint,
  isOpen,
  isSaving,
  onSave,
  onClose,
}: {
  endpoint?: TWebhookEndpoint;
  isOpen: boolean;
  isSaving: boolean;
  onSave: (values: TWebhookCreateBody) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation('webhooks');
  const [form] = Form.useForm<TWebhookCreateBody>();
  const handleOk = async () => {
    let values: TWebhookCreateBody;
    try {
      values = await form.validateFields();
    } catch {
      return; // the form shows what is wrong
    }
    try {
      await onSave(values);
      form.resetFields();
    } catch (error) {
      markServerIssues(form, error, ['url', 'description', 'events']);
    }
  };
  return (
    <Modal
      open={isOpen}
      title={endpoint ? t('form.editTitle') : t('form.createTitle')}
      okText={t('form.save')}
      cancelText={t('form.cancel')}
      confirmLoading={isSaving}
      onOk={() => void handleOk()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<TWebhookCreateBody>
        form={form}
        layout="vertical"
        requiredMark={false}
        preserve={false}
        initialValues={
          endpoint
            ? { url: endpoint.url, description: endpoint.description, events: endpoint.events }
            : { url: '', description: '', events: [] }
        }
      >
        <Form.Item name="url" label={t('form.url')} rules={[zodRule(ZWebhookCreateBody.shape.url)]}>
          <Input placeholder={t('form.urlPlaceholder')} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="description"
          label={t('form.description')}
          rules={[zodRule(ZWebhookCreateBody.shape.description)]}
        >
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="events" label={t('form.events')} rules={[zodRule(ZWebhookCreateBody.shape.events)]}>
          <Checkbox.Group
            style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))', gap: 8 }}
          >
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <Checkbox key={type} value={type}>
                {t(`events.${type}`)}
              </Checkbox>
            ))}
          </Checkbox.Group>
        </Form.Item>
      </Form>
    </Modal>
  );
}
