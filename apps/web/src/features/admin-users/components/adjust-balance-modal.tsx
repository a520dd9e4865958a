import { useState } from 'react';
import { Alert, Form, Input, Modal, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatYuan } from '@proxy/contract';
import { markServerIssues } from '../../../lib/server-issues';
import { showSuccess } from '../../../lib/message';
import { useAdjustBalance } from '../api/admin-users';

type TAdjustForm = { kind: 'credit' | 'debit'; amount: string; reason: string };

/**
 * Credit or debit an account with a mandatory reason. One request id per
 * opening of the dialog: pressing OK again after a lost answer moves the
 * money once (the server answers the first adjustment).
 */
export function AdjustBalanceModal(props: { userId: number; balance: number; isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation('admin-users');
  const [form] = Form.useForm<TAdjustForm>();
  const [requestId, setRequestId] = useState(() => crypto.randomUUID());
  const adjust = useAdjustBalance(props.userId);

  const close = () => {
    form.resetFields();
    setRequestId(crypto.randomUUID());
    props.onClose();
  };

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return; // the form shows what is missing
    try {
      const result = await adjust.mutateAsync({
        kind: values.kind,
        amount: values.amount.trim(),
        reason: values.reason.trim(),
        request_id: requestId,
      });
      showSuccess(t('adjust.done', { balance: formatYuan(result.balance) }));
      close();
    } catch (error) {
      markServerIssues(form, error, ['amount', 'reason', 'kind']);
    }
  };

  return (
    <Modal
      open={props.isOpen}
      title={t('adjust.title')}
      okText={t('adjust.ok')}
      cancelText={t('cancel')}
      confirmLoading={adjust.isPending}
      onOk={() => void submit()}
      onCancel={close}
      destroyOnHidden
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        title={t('adjust.hint', { balance: formatYuan(props.balance) })}
      />
      <Form<TAdjustForm> form={form} layout="vertical" initialValues={{ kind: 'credit' }} data-testid="adjust-form">
        <Form.Item name="kind" label={t('adjust.kind')} rules={[{ required: true }]}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'credit', label: t('adjust.credit') },
              { value: 'debit', label: t('adjust.debit') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="amount"
          label={t('adjust.amount')}
          rules={[
            { required: true, message: t('adjust.amountRequired') },
            { pattern: /^(0|[1-9]\d{0,9})(\.\d{1,2})?$/, message: t('adjust.amountFormat') },
          ]}
        >
          <Input prefix="¥" inputMode="decimal" maxLength={13} />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('adjust.reason')}
          rules={[{ required: true, whitespace: true, message: t('adjust.reasonRequired') }]}
        >
          <Input.TextArea maxLength={200} showCount autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
