import { useEffect } from 'react';
import { Alert, Form, Input, InputNumber, Modal, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { fenToYuan, yuanToFen, type TInventoryNode } from '@proxy/contract';
import { showSuccess } from '../../../lib/message';
import { getErrorMessage, markServerIssues } from '../../../lib/server-issues';
import { useUpdateNode } from '../api/inventory';

type TForm = {
  country: string;
  state: string;
  city: string;
  host: string;
  port: number;
  username: string;
  password: string;
  status: 'active' | 'disabled';
  /** The exit's cost per day in yuan (sent as fen). */
  cost_yuan: number;
};

const FIELDS = ['country', 'state', 'city', 'host', 'port', 'username', 'password', 'status'] as const;

/** Edit an upstream exit: area, endpoint, credentials (an empty password keeps the stored one), status, cost per day. */
export function NodeEditModal({ node, onClose }: { node: TInventoryNode | null; onClose: () => void }) {
  const { t } = useTranslation('admin-inventory');
  const [form] = Form.useForm<TForm>();
  const update = useUpdateNode();

  useEffect(() => {
    update.reset();
    if (node) {
      form.setFieldsValue({
        country: node.country,
        state: node.state_name || node.state,
        city: node.city_name || node.city,
        host: node.host,
        port: node.port,
        username: node.username ?? '',
        password: '',
        status: node.status,
        cost_yuan: fenToYuan(node.cost_per_day_fen),
      });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the form follows the node being edited
  }, [node, form]);

  const save = async () => {
    if (!node) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const username = values.username.trim() || null;
    const saved = await update
      .mutateAsync({
        id: node.id,
        country: values.country,
        state: values.state ?? '',
        city: values.city ?? '',
        host: values.host,
        port: values.port,
        username,
        ...(values.password ? { password: values.password } : {}),
        status: values.status,
        cost_per_day_fen: yuanToFen(values.cost_yuan ?? 0),
      })
      .catch((error: unknown) => {
        markServerIssues(form, error, FIELDS);
        return null;
      });
    if (!saved) return;
    showSuccess(t('edit.saved'));
    onClose();
  };

  // Field problems (400) are marked on the fields; other refusals (a pinned exit, a duplicate) are shown above the form.
  const refusal =
    update.error && (update.error as { code?: number }).code !== 400 ? getErrorMessage(update.error) : null;

  return (
    <Modal
      open={node !== null}
      title={t('edit.title', { id: node?.id })}
      okText={t('edit.save')}
      cancelText={t('cancel')}
      confirmLoading={update.isPending}
      onOk={() => void save()}
      onCancel={onClose}
      destroyOnHidden
    >
      {refusal && (
        <Alert type="error" showIcon title={refusal} style={{ marginBottom: 12 }} data-testid="edit-refusal" />
      )}
      <Form<TForm> form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="country"
          label={t('fields.country')}
          rules={[{ required: true, pattern: /^[a-zA-Z]{2}$/, message: t('edit.countryRule') }]}
        >
          <Input maxLength={2} style={{ width: 100 }} />
        </Form.Item>
        <Form.Item name="state" label={t('fields.state')}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="city" label={t('fields.city')}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item
          name="host"
          label={t('fields.host')}
          rules={[{ required: true, whitespace: true, message: t('edit.hostRule') }]}
        >
          <Input maxLength={253} />
        </Form.Item>
        <Form.Item
          name="port"
          label={t('fields.port')}
          rules={[{ required: true, type: 'integer', min: 1, max: 65535, message: t('edit.portRule') }]}
        >
          <InputNumber min={1} max={65535} precision={0} style={{ width: 140 }} />
        </Form.Item>
        <Form.Item name="username" label={t('fields.user')}>
          <Input maxLength={200} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('fields.password')}
          extra={<Typography.Text type="secondary">{t('edit.passwordHint')}</Typography.Text>}
        >
          <Input.Password maxLength={200} autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="status" label={t('fields.status')}>
          <Select
            style={{ width: 160 }}
            options={[
              { value: 'active', label: t('status.active') },
              { value: 'disabled', label: t('status.disabled') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="cost_yuan"
          label={t('fields.costPerDay')}
          extra={<Typography.Text type="secondary">{t('edit.costHint')}</Typography.Text>}
        >
          <InputNumber<number> min={0} max={1_000_000} precision={2} prefix="¥" style={{ width: 160 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
