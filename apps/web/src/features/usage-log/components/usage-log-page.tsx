import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Flex,
  Form,
  Input,
  Result,
  Select,
  Statistic,
  Table,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import { DownloadOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import {
  TOKEN_TEST_REASONS,
  USAGE_LOG_OUTCOMES,
  type TTokenTestReason,
  type TUsageLogEntry,
  type TUsageLogOutcome,
} from '@proxy/contract';
import { ApiError } from '../../../lib/api-client';
import { formatBytes, formatDateTimeSeconds } from '../../../lib/format';
import { getLanguage } from '../../../lib/i18n';
import { usePaging } from '../../../lib/use-paging';
import { useExportUsageLog, useUsageLog, type TUsageLogFilters } from '../api/usage-log';

type TFilterValues = { range?: [Dayjs, Dayjs] | null; target?: string; outcome?: TUsageLogOutcome };

const OUTCOME_COLORS: Record<TUsageLogOutcome, string> = { closed: 'green', refused: 'orange', cut: 'red' };

/** /proxy/usage-log/:id: a proxy's connections with filters (window, target, outcome), totals and the CSV export. */
export default function UsageLogPage() {
  const { t } = useTranslation('usage-log');
  const { id } = useParams();
  const tokenId = Number(id);
  const [form] = Form.useForm<TFilterValues>();
  const [filters, setFilters] = useState<TUsageLogFilters>({});
  const paging = usePaging(20);
  const log = useUsageLog(tokenId, filters, paging.page, paging.pageSize);
  const exporting = useExportUsageLog();
  const lang = getLanguage();

  const apply = () => {
    const values = form.getFieldsValue();
    const [from, to] = values.range ?? [];
    setFilters({
      from: from?.toISOString(),
      to: to?.toISOString(),
      target: values.target?.trim() || undefined,
      outcome: values.outcome,
    });
    paging.toFirstPage();
  };
  const reset = () => {
    form.resetFields();
    apply();
  };

  const isNotFound = log.error instanceof ApiError && log.error.status === 404;
  if (!Number.isSafeInteger(tokenId) || tokenId <= 0 || isNotFound)
    return <Result status="404" title={t('notFound')} />;

  const reasonText = (reason: string) => TOKEN_TEST_REASONS[reason as TTokenTestReason]?.[lang] ?? reason;
  const columns: TableColumnsType<TUsageLogEntry> = [
    { title: t('columns.started'), dataIndex: 'started_at', width: 170, render: formatDateTimeSeconds },
    { title: t('columns.ended'), dataIndex: 'ended_at', width: 170, render: formatDateTimeSeconds },
    {
      title: t('columns.protocol'),
      dataIndex: 'protocol',
      width: 100,
      render: (p: TUsageLogEntry['protocol']) => t(`protocol.${p}`),
    },
    { title: t('columns.source'), dataIndex: 'source_ip', width: 150 },
    {
      title: t('columns.target'),
      key: 'target',
      ellipsis: true,
      render: (_, r) => `${r.target_host}:${r.target_port}`,
    },
    {
      title: t('columns.up'),
      dataIndex: 'bytes_up',
      width: 120,
      align: 'right',
      render: (n: number) => <span data-testid="bytes-up">{n}</span>,
    },
    {
      title: t('columns.down'),
      dataIndex: 'bytes_down',
      width: 120,
      align: 'right',
      render: (n: number) => <span data-testid="bytes-down">{n}</span>,
    },
    {
      title: t('columns.uncharged'),
      dataIndex: 'uncharged_bytes',
      width: 130,
      align: 'right',
      render: (n: number) => <span data-testid="bytes-uncharged">{n}</span>,
    },
    {
      title: t('columns.outcome'),
      key: 'outcome',
      width: 220,
      render: (_, r) => (
        <Flex gap={4} wrap align="center">
          <Tag color={OUTCOME_COLORS[r.outcome]}>{t(`outcome.${r.outcome}`)}</Tag>
          {r.uncharged_bytes > 0 && (
            <Tooltip title={t('notCharged.hint')}>
              <Tag color="gold" data-testid="not-charged-tag">
                {t('notCharged.tag')}
              </Tag>
            </Tooltip>
          )}
          {r.reason && <Typography.Text type="secondary">{reasonText(r.reason)}</Typography.Text>}
        </Flex>
      ),
    },
  ];

  const totals = log.data?.totals;
  const stat = (key: 'up' | 'down' | 'bytes' | 'uncharged', bytes: number | undefined) => (
    <Tooltip title={bytes === undefined ? undefined : t('totals.exact', { bytes })}>
      <Statistic title={t(`totals.${key}`)} value={bytes === undefined ? '-' : formatBytes(bytes)} />
    </Tooltip>
  );

  return (
    <Card
      title={t('heading', { id: tokenId })}
      extra={
        <Flex gap={8}>
          <Button icon={<ReloadOutlined />} loading={log.isFetching} onClick={() => void log.refetch()}>
            {t('refresh')}
          </Button>
          <Button
            type="primary"
            icon={<DownloadOutlined />}
            loading={exporting.isPending}
            onClick={() => exporting.mutate({ tokenId, filters })}
            disabled={!totals?.connections}
          >
            {t('export.button')}
          </Button>
        </Flex>
      }
    >
      <Flex vertical gap={16}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('intro')}
        </Typography.Paragraph>
        {log.data && !log.data.enabled && (
          <Alert type="info" showIcon title={t('off')} action={<Link to="/user-center">{t('offLink')}</Link>} />
        )}
        <Form form={form} layout="inline" onFinish={apply} style={{ rowGap: 8 }} aria-label={t('title')}>
          <Form.Item name="range" label={t('filters.range')}>
            <DatePicker.RangePicker showTime style={{ width: 360 }} />
          </Form.Item>
          <Form.Item name="target" label={t('filters.target')}>
            <Input allowClear placeholder={t('filters.targetPlaceholder')} style={{ width: 200 }} maxLength={255} />
          </Form.Item>
          <Form.Item name="outcome" label={t('filters.outcome')}>
            <Select
              allowClear
              placeholder={t('filters.all')}
              style={{ width: 140 }}
              options={USAGE_LOG_OUTCOMES.map((o) => ({ value: o, label: t(`outcome.${o}`) }))}
            />
          </Form.Item>
          <Form.Item>
            <Flex gap={8}>
              <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
                {t('filters.search')}
              </Button>
              <Button onClick={reset}>{t('filters.reset')}</Button>
            </Flex>
          </Form.Item>
        </Form>
        <Flex gap={32} wrap data-testid="usage-log-totals" data-bytes={totals?.bytes ?? ''}>
          <Statistic title={t('totals.connections')} value={totals?.connections ?? '-'} />
          {stat('up', totals?.bytes_up)}
          {stat('down', totals?.bytes_down)}
          {stat('bytes', totals?.bytes)}
          {stat('uncharged', totals?.uncharged_bytes)}
        </Flex>
        {log.isError && !log.data ? (
          <Result status="warning" title={t('loadFailed')} />
        ) : (
          <div data-testid="usage-log-table">
            <Table<TUsageLogEntry>
              rowKey="id"
              size="small"
              loading={log.isPending && log.fetchStatus !== 'idle'}
              columns={columns}
              dataSource={log.data?.records ?? []}
              pagination={paging.pagination(log.data?.total)}
              scroll={{ x: 1250 }}
            />
          </div>
        )}
      </Flex>
    </Card>
  );
}
