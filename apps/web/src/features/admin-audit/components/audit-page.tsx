import { useState } from 'react';
import { Button, Card, Empty, Flex, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TAuditEntry } from '@proxy/contract';
import { formatDateTimeSeconds } from '../../../lib/format';
import { usePaging } from '../../../lib/use-paging';
import { useAuditList, type TAuditFilters } from '../api/audit-list';
import { AuditFilters } from './audit-filters';

const DEFAULT_PAGE_SIZE = 20;

function hasFilters(filters: TAuditFilters): boolean {
  return Object.values(filters).some((value) => value !== undefined);
}

/** The call's input in full, with the caller's address (the expanded row). */
function EntryDetails(props: { entry: TAuditEntry }) {
  const { t } = useTranslation('admin-audit');
  return (
    <Flex vertical gap={8} data-testid={`audit-details-${props.entry.id}`}>
      <Typography.Text type="secondary">
        {t('details.request')}: <Typography.Text code>{`${props.entry.method} ${props.entry.path}`}</Typography.Text> ·{' '}
        {t('details.ip')}: <Typography.Text code>{props.entry.ip}</Typography.Text>
      </Typography.Text>
      <Typography.Text type="secondary">{t('details.input')}:</Typography.Text>
      <pre style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {JSON.stringify(props.entry.input, null, 2)}
      </pre>
    </Flex>
  );
}

/** /admin/audit: every operator call that changed data, newest first, with filters and paging. */
export default function AuditPage() {
  const { t } = useTranslation('admin-audit');
  const paging = usePaging(DEFAULT_PAGE_SIZE);
  const [filters, setFilters] = useState<TAuditFilters>({});
  const list = useAuditList({ page: paging.page, pageSize: paging.pageSize, filters });

  const columns: TableColumnsType<TAuditEntry> = [
    {
      title: t('columns.time'),
      dataIndex: 'created_at',
      width: 170,
      render: formatDateTimeSeconds,
    },
    {
      title: t('columns.operator'),
      dataIndex: 'operator_email',
      render: (_, entry) => (
        <Flex vertical>
          <Typography.Text>{entry.operator_email}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('operatorId', { id: entry.operator_id })}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('columns.route'),
      dataIndex: 'route',
      render: (_, entry) => (
        <Flex vertical>
          <Typography.Text code>{entry.route}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>{`${entry.method} ${entry.path}`}</Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('columns.target'),
      dataIndex: 'target_id',
      width: 110,
      render: (value: string | null) => value ?? '—',
    },
    {
      title: t('columns.result'),
      dataIndex: 'result',
      width: 200,
      render: (_, entry) =>
        entry.result === 'ok' ? (
          <Tag color="success">{t('result.ok')}</Tag>
        ) : (
          <Flex gap={4} align="center" wrap>
            <Tag color="error">{t('result.error')}</Tag>
            {entry.error_code ? <Typography.Text code>{entry.error_code}</Typography.Text> : null}
          </Flex>
        ),
    },
    {
      title: t('columns.input'),
      dataIndex: 'input',
      ellipsis: true,
      render: (value: TAuditEntry['input']) => (
        <Typography.Text code style={{ whiteSpace: 'nowrap' }} data-testid="audit-input">
          {JSON.stringify(value)}
        </Typography.Text>
      ),
    },
  ];

  const emptyText = list.isError ? (
    <Empty description={t('loadFailed')}>
      <Button onClick={() => void list.refetch()}>{t('retry')}</Button>
    </Empty>
  ) : (
    <Empty description={hasFilters(filters) ? t('emptyFiltered') : t('empty')} />
  );

  return (
    <Card
      title={t('title')}
      extra={
        <Button icon={<ReloadOutlined />} loading={list.isFetching} onClick={() => void list.refetch()}>
          {t('refresh')}
        </Button>
      }
    >
      <AuditFilters
        onChange={(next) => {
          setFilters(next);
          paging.toFirstPage();
        }}
      />
      <Table<TAuditEntry>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.records ?? []}
        loading={list.isFetching}
        expandable={{ expandedRowRender: (entry) => <EntryDetails entry={entry} /> }}
        locale={{ emptyText }}
        scroll={{ x: 1000 }}
        pagination={paging.pagination(list.data?.total, { showTotal: (total) => t('total', { count: total }) })}
      />
    </Card>
  );
}
