import { useState } from 'react';
import { Button, Card, Flex, Result, Skeleton, Space, Switch, Table, Tag, Typography } from 'antd';
import { IntroAlert } from '../../../components/intro-alert';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  WEBHOOK_ENDPOINTS_MAX,
  type TWebhookCreateBody,
  type TWebhookDelivery,
  type TWebhookEndpoint,
} from '@proxy/contract';
import { formatDateTimeSeconds } from '../../../lib/format';
import { confirmAction, showError, showSuccess } from '../../../lib/message';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useRotateWebhookSecret,
  useTestWebhook,
  useUpdateWebhook,
  useWebhooks,
} from '../api/webhooks';
import { DeliveriesDrawer } from './deliveries-drawer';
import { EndpointFormModal } from './endpoint-form-modal';
import { SecretModal } from './secret-modal';

/** /developer/webhooks: the account's endpoints, their events, secrets, test pings and delivery logs. */
export default function WebhooksPage() {
  const { t } = useTranslation('webhooks');
  const { data, isPending, isError } = useWebhooks();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const rotate = useRotateWebhookSecret();
  const test = useTestWebhook();
  const [form, setForm] = useState<{ endpoint?: TWebhookEndpoint } | undefined>();
  const [secret, setSecret] = useState<string | undefined>();
  const [logOf, setLogOf] = useState<TWebhookEndpoint | undefined>();
  const records = data?.records ?? [];

  const handleSave = async (values: TWebhookCreateBody) => {
    if (form?.endpoint) {
      await update.mutateAsync({ id: form.endpoint.id, ...values });
      showSuccess(t('toggled'));
    } else {
      const created = await create.mutateAsync(values);
      setSecret(created.secret);
    }
    setForm(undefined);
  };

  const handleTest = async (endpoint: TWebhookEndpoint) => {
    let delivery: TWebhookDelivery;
    try {
      delivery = await test.mutateAsync(endpoint.id);
    } catch {
      return; // the request layer has shown why
    }
    if (delivery.status === 'succeeded')
      showSuccess(t('tested.succeeded', { code: delivery.response_code, ms: delivery.latency_ms }));
    else
      showError(
        t('tested.failed', {
          reason: delivery.response_code ? `HTTP ${delivery.response_code}` : delivery.response_excerpt,
        }),
      );
  };

  if (isError) return <Result status="error" title={t('loadFailed')} />;
  return (
    <Card
      title={t('heading')}
      extra={
        <Button type="primary" disabled={records.length >= WEBHOOK_ENDPOINTS_MAX} onClick={() => setForm({})}>
          {t('add')}
        </Button>
      }
    >
      <IntroAlert
        title={t('intro.title')}
        items={[
          t('intro.signing'),
          t('intro.dedup'),
          t('intro.limits', { max: WEBHOOK_ENDPOINTS_MAX }),
          <Link to="/api-docs#webhooks">{t('intro.docs')}</Link>,
        ]}
      />
      {isPending ? (
        <Skeleton active />
      ) : (
        <Table<TWebhookEndpoint>
          rowKey="id"
          dataSource={records}
          pagination={false}
          scroll={{ x: 900 }}
          locale={{ emptyText: t('empty') }}
          columns={[
            {
              title: t('columns.url'),
              key: 'url',
              render: (_, e) => (
                <>
                  <Typography.Text strong>{e.url}</Typography.Text>
                  {e.description && <div>{e.description}</div>}
                  {e.disabled_reason === 'failing' ? (
                    <Tag color="error">{t('status.disabledFailing')}</Tag>
                  ) : (
                    e.failing_since && (
                      <Tag color="warning">
                        {t('status.failing', { since: formatDateTimeSeconds(e.failing_since) })}
                      </Tag>
                    )
                  )}
                </>
              ),
            },
            {
              title: t('columns.events'),
              dataIndex: 'events',
              render: (events: string[]) => (
                <Flex wrap gap={4}>
                  {events.map((type) => (
                    <Tag key={type}>{t(`events.${type}`)}</Tag>
                  ))}
                </Flex>
              ),
            },
            {
              title: t('columns.enabled'),
              dataIndex: 'is_enabled',
              width: 80,
              render: (isOn: boolean, e) => (
                <Switch
                  checked={isOn}
                  aria-label={`${t('columns.enabled')}: ${e.url}`}
                  onChange={(checked) =>
                    void update.mutateAsync({ id: e.id, is_enabled: checked }).then(
                      () => showSuccess(t('toggled')),
                      () => undefined, // the request layer has shown why; the list reloads either way
                    )
                  }
                />
              ),
            },
            {
              title: t('columns.actions'),
              key: 'actions',
              render: (_, e) => (
                <Space wrap size={4}>
                  <Button
                    size="small"
                    loading={test.isPending && test.variables === e.id}
                    onClick={() => void handleTest(e)}
                  >
                    {t('actions.test')}
                  </Button>
                  <Button size="small" onClick={() => setLogOf(e)}>
                    {t('actions.deliveries')}
                  </Button>
                  <Button size="small" onClick={() => setForm({ endpoint: e })}>
                    {t('actions.edit')}
                  </Button>
                  <Button
                    size="small"
                    onClick={() =>
                      confirmAction({
                        title: t('confirm.rotate'),
                        onOk: async () => setSecret((await rotate.mutateAsync(e.id)).secret),
                      })
                    }
                  >
                    {t('actions.rotate')}
                  </Button>
                  <Button
                    size="small"
                    danger
                    onClick={() =>
                      confirmAction({
                        title: t('confirm.delete'),
                        isDanger: true,
                        onOk: async () => {
                          await remove.mutateAsync(e.id);
                          showSuccess(t('deleted'));
                        },
                      })
                    }
                  >
                    {t('actions.delete')}
                  </Button>
                </Space>
              ),
            },
          ]}
        />
      )}
      <EndpointFormModal
        key={form?.endpoint?.id ?? 'new'}
        endpoint={form?.endpoint}
        isOpen={form !== undefined}
        isSaving={create.isPending || update.isPending}
        onSave={handleSave}
        onClose={() => setForm(undefined)}
      />
      <SecretModal secret={secret} onClose={() => setSecret(undefined)} />
      <DeliveriesDrawer endpoint={logOf} onClose={() => setLogOf(undefined)} />
    </Card>
  );
}
