import { useEffect, useRef } from 'react';
import { Button, Card, Flex, Form, InputNumber, Result, Skeleton, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import {
  USAGE_LOG_RETENTION_MAX,
  USAGE_LOG_RETENTION_MIN,
  ZUsageLogSettingsBody,
  type TUsageLogSettings,
} from '@proxy/contract';
import { zodRule } from '../../../lib/form-rules';
import { showSuccess } from '../../../lib/message';
import { markServerIssues } from '../../../lib/server-issues';
import { useSaveUsageLogSettings, useUsageLogSettings } from '../api/usage-log-settings';

function UsageLogForm({ settings }: { settings: TUsageLogSettings }) {
  const { t } = useTranslation('users', { keyPrefix: 'usageLog' });
  const [form] = Form.useForm<TUsageLogSettings>();
  const mutation = useSaveUsageLogSettings();

  const handleFinish = async (values: TUsageLogSettings) => {
    try {
      await mutation.mutateAsync(values);
      showSuccess(t('saved'));
    } catch (error) {
      markServerIssues(form, error, ['retention_days']);
    }
  };

  return (
    <Form<TUsageLogSettings>
      form={form}
      layout="inline"
      requiredMark={false}
      initialValues={settings}
      onFinish={(values) => void handleFinish(values)}
      style={{ rowGap: 8 }}
    >
      <Form.Item name="enabled" valuePropName="checked" label={t('enabled')}>
        <Switch data-testid="usage-log-enabled" />
      </Form.Item>
      <Form.Item
        name="retention_days"
        label={t('retention')}
        extra={t('retentionHelp')}
        rules={[zodRule(ZUsageLogSettingsBody.shape.retention_days)]}
      >
        <InputNumber min={USAGE_LOG_RETENTION_MIN} max={USAGE_LOG_RETENTION_MAX} precision={0} style={{ width: 120 }} />
      </Form.Item>
      <Form.Item
        name="domain_usage_enabled"
        valuePropName="checked"
        label={t('domainUsage')}
        extra={t('domainUsageHelp')}
        // Its help is a sentence: the item may not grow past the card (an inline form's items do not shrink).
        style={{ maxWidth: '100%' }}
      >
        <Switch data-testid="domain-usage-enabled" />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" loading={mutation.isPending} data-testid="usage-log-save">
          {t('save')}
        </Button>
      </Form.Item>
    </Form>
  );
}

/** Anchor of the card: other screens link to /user-center#usage-settings. */
export const USAGE_SETTINGS_ANCHOR = 'usage-settings';

/**
 * The user centre's usage settings card: opt in to the per-connection log and choose how long it is kept, and turn
 * the usage by target domain off or on. Scrolled into view when the address names its anchor.
 */
export function UsageLogCard() {
  const { t } = useTranslation('users', { keyPrefix: 'usageLog' });
  const { data, isPending, isError } = useUsageLogSettings();
  const { hash } = useLocation();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (hash === `#${USAGE_SETTINGS_ANCHOR}`) box.current?.scrollIntoView?.({ block: 'start' });
  }, [hash]);
  return (
    <Card title={t('title')} id={USAGE_SETTINGS_ANCHOR} ref={box}>
      <Flex vertical gap={8}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('intro')}
        </Typography.Paragraph>
        {isError ? (
          <Result status="warning" title={t('loadFailed')} />
        ) : isPending || !data ? (
          <Skeleton active paragraph={{ rows: 1 }} />
        ) : (
          <UsageLogForm settings={data} />
        )}
      </Flex>
    </Card>
  );
}
