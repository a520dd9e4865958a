import { useState } from 'react';
import { Button, Card, Empty, Flex, Select, Space, Table, type TableColumnsType } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { SUPPLY_STATUSES, formatYuan, type TSupplyRequest, type TSupplyStatus } from '@proxy/contract';
import { formatDateTimeMinutes } from '../../../lib/format';
import { confirmAction, showSuccess } from '../../../lib/message';
import { usePaging } from '../../../lib/use-paging';
import { useRevokeSupply } from '../api/revoke-supply';
import { useSupplyList } from '../api/supply-list';
import { SupplyDetailDrawer } from './supply-detail-drawer';
import { SupplyStatusTag } from './supply-status-tag';

/** The user's requests with status tags, a status filter, the detail and revoke for pending ones. */
export function SupplyHistory() {
  const { t } = useTranslation('supply');
  const paging = usePaging();
  const [status, setStatus] = useState<TSupplyStatus | undefined>();
  const [detailId, setDetailId] = useState<number | null>(null);
  const list = useSupplyList({ page: paging.page, pageSize: paging.pageSize, status });
  const revoke = useRevokeSupply();

  const askRevoke = (row: TSupplyRequest) =>
    confirmAction({
      title: t('revoke.confirmTitle', { id: row.request_id }),
      content: t('revoke.confirmContent', { cost: formatYuan(row.cost) }),
      isDanger: true,
      onOk: async () => {
        try {
          await revoke.mutateAsync(row.request_id);
          showSuccess(t('revoke.done', { cost: formatYuan(row.cost) }));
        } catch {
          // "Revoke failed" and the reason are toasted by the request layer.
        }
      },
    });

  const columns: TableColumnsType<TSupplyRequest> = [
    { title: t('history.columns.id'), dataIndex: 'request_id', width: 100 },
    {
      title: t('history.columns.type'),
      dataIndex: 'type',
      render: (_, row) => `${t(`form.products.${row.product}`)} · ${t(`form.types.${row.type}`)}`,
    },
    {
      title: t('history.columns.amount'),
      dataIndex: 'amount',
      render: (_, row) => t(`amount.${row.type}`, { amount: row.amount }),
    },
    {
      title: t('history.columns.region'),
      dataIndex: 'region',
      render: (_, row) => `${row.region_name} (${row.region})`,
    },
    { title: t('history.columns.waitDays'), dataIndex: 'wait_days', width: 100 },
    { title: t('history.columns.cost'), dataIndex: 'cost', render: (value: number) => formatYuan(value) },
    {
      title: t('history.columns.status'),
      dataIndex: 'status',
      render: (value: TSupplyStatus) => <SupplyStatusTag status={value} />,
    },
    { title: t('history.columns.submitTime'), dataIndex: 'submit_time', render: formatDateTimeMinutes },
    {
      title: t('history.columns.completedTime'),
      dataIndex: 'completed_time',
      render: formatDateTimeMinutes,
    },
    {
      title: t('history.columns.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space size={4}>
          <Button size="small" type="link" onClick={() => setDetailId(row.request_id)}>
            {t('history.detail')}
          </Button>
          {row.status === 'pending' || row.status === 'processing' ? (
            <Button
              size="small"
              type="link"
              danger
              onClick={() => askRevoke(row)}
              data-testid={`supply-revoke-${row.request_id}`}
            >
              {t('history.revoke')}
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('history.title')}
      style={{ marginTop: 16 }}
      extra={
        <Flex gap={8}>
          <Select<TSupplyStatus | ''>
            style={{ width: 150 }}
            value={status ?? ''}
            onChange={(value) => {
              setStatus(value || undefined);
              paging.toFirstPage();
            }}
            options={[
              { value: '', label: t('history.allStatuses') },
              ...SUPPLY_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) })),
            ]}
            aria-label={t('history.columns.status')}
          />
          <Button icon={<ReloadOutlined />} loading={list.isFetching} onClick={() => void list.refetch()}>
            {t('history.refresh')}
          </Button>
        </Flex>
      }
    >
      <Table<TSupplyRequest>
        rowKey="request_id"
        size="middle"
        columns={columns}
        dataSource={list.data?.records ?? []}
        loading={list.isFetching}
        locale={{ emptyText: <Empty description={t('history.empty')} /> }}
        scroll={{ x: 1100 }}
        data-testid="supply-history"
        pagination={paging.pagination(list.data?.total, { showTotal: (total) => t('history.total', { count: total }) })}
      />
      <SupplyDetailDrawer id={detailId} onClose={() => setDetailId(null)} />
    </Card>
  );
}
