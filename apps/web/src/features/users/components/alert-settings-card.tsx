import { Button, Card, Checkbox, Flex, Form, InputNumber, Result, Skeleton, Switch, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ALERT_KINDS, USAGE_THRESHOLDS, ZAlertSettings, type TAlertKind, type TAlertSettings } from '@proxy/contract';
import { zodRule } from '../../../lib/form-rules';
import { showSuccess } from '../../../lib/message';
import { markServerIssues } from '../../../lib/server-issues';
import { useAlertSettings, useSaveAlertSettings } from '../api/alert-settings';

type TValues = Omit<TAlertSettings, 'balance_low_yuan'> & { is_balance_on: boolean; balance_low_yuan: number | null };

/** The form over loaded settings: thresholds, the balance threshold and each kind's channels. */
function AlertSettingsForm({ settings }: { settings: TAlertSettings }) {
  const { t } = useTranslation('users', { keyPrefix: 'alerts' });
  const [form] = Form.useForm<TValues>();
  const mutation = useSaveAlertSettings();
  const isBalanceOn = Form.useWatch('is_balance_on', form) ?? settings.balance_low_yuan !== null;

  const handleFinish = async ({ is_balance_on, balance_low_yuan, ...rest }: TValues) => {
    try {
      await mutation.mutateAsync({ ...rest, balance_low_yuan: is_balance_on ? balance_low_yuan : null });
      showSuccess(t('saved'));
    } catch (error) {
      markServerIssues(form, error, ['usage_thresholds', 'balance_low_yuan']);
    }
  };

  const channelSwitch = (kind: TAlertKind, channel: 'console' | 'email') => (
    <Form.Item name={['channels', kind, channel]} valuePropName="checked" noStyle>
      <Switch size="small" aria-label={`${t(`kind.${kind}`)}: ${t(`channels.${channel}`)}`} />
    </Form.Item>
  );

  return (
    <Form<TValues>
      form={form}
      layout="vertical"
      requiredMark={false}
      initialValues={{ ...settings, is_balance_on: settings.balance_low_yuan !== null }}
      onFinish={(values) => void handleFinish(values)}
    >
      <Form.Item name="usage_thresholds" label={t('usage.label')} extra={t('usage.help')}>
        <Checkbox.Group options={USAGE_THRESHOLDS.map((n) => ({ label: `${n} %`, value: n }))} />
      </Form.Item>
      <Flex gap={12} align="start" wrap>
        <Form.Item name="is_balance_on" valuePropName="checked" label={t('balance.switch')}>
          <Switch />
        </Form.Item>
        <Form.Item
          name="balance_low_yuan"
          label={t('balance.label')}
          rules={
            isBalanceOn
              ? [{ required: true, message: t('balance.label') }, zodRule(ZAlertSettings.shape.balance_low_yuan)]
              : []
          }
        >
          <InputNumber
            min={0.01}
            max={1_000_000}
            step={1}
            precision={2}
            disabled={!isBalanceOn}
            style={{ width: 180 }}
          />
        </Form.Item>
      </Flex>
      <Table
        size="small"
        pagination={false}
        rowKey="kind"
        style={{ marginBottom: 16 }}
        dataSource={ALERT_KINDS.map((kind) => ({ kind }))}
        columns={[
          { title: t('channels.kind'), dataIndex: 'kind', render: (kind: TAlertKind) => t(`kind.${kind}`) },
          {
            title: t('channels.console'),
            key: 'console',
            width: 120,
            render: (_, { kind }) => channelSwitch(kind, 'console'),
          },
          {
            title: t('channels.email'),
            key: 'email',
            width: 120,
            render: (_, { kind }) => channelSwitch(kind, 'email'),
          },
        ]}
      />
      <Button type="primary" htmlType="submit" loading={mutation.isPending}>
        {t('save')}
      </Button>
    </Form>
  );
}

/** The user centre's alert settings card (issue 20): what alerts, and on which channels. */
export function AlertSettingsCard() {
  const { t } = useTranslation('users', { keyPrefix: 'alerts' });
  const { data, isPending, isError } = useAlertSettings();
  return (
    <Card title={t('title')}>
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      <Typography.Paragraph type="secondary" data-testid="alert-webhooks-hint">
        {t('webhooks')}{' '}
        <Link to="/developer/webhooks" style={{ textDecoration: 'underline' }}>
          {t('webhooksLink')}
        </Link>
      </Typography.Paragraph>
      {isError ? (
        <Result status="warning" title={t('loadFailed')} />
      ) : isPending || !data ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : (
        <AlertSettingsForm settings={data} />
      )}
    </Card>
  );
}
