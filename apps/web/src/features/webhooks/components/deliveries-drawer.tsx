import { Button, Drawer, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TWebhookDelivery, TWebhookDeliveryStatus, TWebhookEndpoint } from '@proxy/contract';
import { formatDateTimeSeconds, formatMilliseconds } from '../../../lib/format';
import { showSuccess } from '../../../lib/message';
import { usePaging } from '../../../lib/use-paging';
import { DELIVERIES_PAGE_SIZE, useResendDelivery, useWebhookDeliveries } from '../api/deliveries';

const STATUS_COLOURS: Record<TWebhookDeliveryStatus, string> = {
  pending: 'processing',
  succeeded: 'success',
  failed: 'error',
};

/** An endpoint's delivery log: status, attempts, response code, latency, the answer's start; "Resend" per row. */
export function DeliveriesDrawer({
  endpoint,
  onClose,
}: {
  endpoint: TWebhookEndpoint | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation('webhooks', { keyPrefix: 'deliveries' });
  const { t: tEvents } = useTranslation('webhooks', { keyPrefix: 'events' });
  const paging = usePaging(DELIVERIES_PAGE_SIZE);
  const { data, isFetching, refetch } = useWebhookDeliveries(endpoint?.id, paging.page);
  const resend = useResendDelivery();
  return (
    <Drawer
      open={endpoint !== undefined}
      onClose={onClose}
      width={Math.min(1000, window.innerWidth)}
      title={t('title', { url: endpoint?.url ?? '' })}
      extra={
        <Button onClick={() => void refetch()} loading={isFetching}>
          {t('refresh')}
        </Button>
      }
    >
      <Table<TWebhookDelivery>
        size="small"
        rowKey="id"
        loading={isFetching}
        dataSource={data?.records ?? []}
        scroll={{ x: 900 }}
        pagination={paging.pagination(data?.total, { showSizeChanger: false, showTotal: undefined })}
        columns={[
          {
            title: t('event'),
            key: 'event',
            render: (_, d) => (
              <>
                <div>{d.event_type === 'ping' ? 'ping' : tEvents(d.event_type)}</div>
                <Typography.Text type="secondary" copyable style={{ fontSize: 12 }}>
                  {d.event_id}
                </Typography.Text>
              </>
            ),
          },
          {
            title: t('status'),
            dataIndex: 'status',
            render: (s: TWebhookDeliveryStatus) => <Tag color={STATUS_COLOURS[s]}>{t(`statuses.${s}`)}</Tag>,
          },
          { title: t('attempts'), dataIndex: 'attempts', width: 90 },
          { title: t('code'), dataIndex: 'response_code', width: 90, render: (c: number | null) => c ?? '-' },
          {
            title: t('latency'),
            dataIndex: 'latency_ms',
            width: 90,
            render: (ms: number | null) => (ms === null ? '-' : formatMilliseconds(ms)),
          },
          {
            title: t('excerpt'),
            dataIndex: 'response_excerpt',
            render: (text: string) => (
              <Typography.Text ellipsis={{ tooltip: text }} style={{ maxWidth: 220 }}>
                {text || '-'}
              </Typography.Text>
            ),
          },
          {
            title: t('time'),
            key: 'time',
            render: (_, d) => (
              <>
                <div>{d.last_attempt_at ? formatDateTimeSeconds(d.last_attempt_at) : '-'}</div>
                {d.status === 'pending' && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('next')}: {d.next_attempt_at ? formatDateTimeSeconds(d.next_attempt_at) : '-'}
                  </Typography.Text>
                )}
              </>
            ),
          },
          {
            title: '',
            key: 'resend',
            render: (_, d) => (
              <Button
                size="small"
                onClick={() =>
                  void resend.mutateAsync(d.id).then(
                    () => showSuccess(t('resent')),
                    () => undefined, // the request layer has shown why
                  )
                }
              >
                {t('resend')}
              </Button>
            ),
          },
        ]}
      />
    </Drawer>
  );
}
