import { useState } from 'react';
import { Button, Card, Empty, Flex, Segmented, Table, Typography, type TableColumnsType } from 'antd';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { WORK_ORDER_STATUSES, type TWorkOrder, type TWorkOrderStatus } from '@proxy/contract';
import { useIsPhone } from '../../../components/use-is-phone';
import { WorkOrderStatusTag } from '../../../entities/work-orders/work-order-status-tag';
import { usePaging } from '../../../lib/use-paging';
import { formatDateTimeMinutes } from '../../../lib/format';
import { useWorkOrderList } from '../api/work-order-list';
import { CancelWorkOrderButton } from './cancel-button';

/** /work-orders: the customer's work orders with status tags, a status filter, and a button to open one. */
export default function WorkOrdersPage() {
  const isPhone = useIsPhone();
  const { t } = useTranslation('work-orders');
  const { t: tc } = useTranslation('common');
  const navigate = useNavigate();
  const paging = usePaging();
  const [status, setStatus] = useState<TWorkOrderStatus | 'all'>('all');
  const list = useWorkOrderList({
    page: paging.page,
    pageSize: paging.pageSize,
    status: status === 'all' ? undefined : status,
  });

  const columns: TableColumnsType<TWorkOrder> = [
    { title: t('columns.id'), dataIndex: 'id', width: 80, render: (id: number) => `#${id}` },
    {
      title: t('columns.subject'),
      dataIndex: 'subject',
      ellipsis: true,
      render: (subject: string, order) => <Link to={`/work-orders/${order.id}`}>{subject}</Link>,
    },
    {
      title: t('columns.category'),
      dataIndex: 'category',
      width: 130,
      render: (category: string) => tc(`workOrder.category.${category}`),
    },
    {
      title: t('columns.status'),
      dataIndex: 'status',
      width: 110,
      render: (value: TWorkOrderStatus) => <WorkOrderStatusTag status={value} />,
    },
    { title: t('columns.updated'), dataIndex: 'updated_at', width: 170, render: formatDateTimeMinutes },
    {
      title: t('columns.actions'),
      key: 'actions',
      width: 180,
      render: (_, order) => (
        <Flex gap={8}>
          <Button size="small" onClick={() => void navigate(`/work-orders/${order.id}`)}>
            {t('view')}
          </Button>
          {(order.status === 'open' || order.status === 'answered') && (
            <CancelWorkOrderButton id={order.id} size="small" />
          )}
        </Flex>
      ),
    },
  ];

  return (
    <Card
      title={t('title')}
      extra={
        <Flex gap={8}>
          <Button
            icon={<ReloadOutlined />}
            loading={list.isFetching}
            onClick={() => void list.refetch()}
            aria-label={isPhone ? t('refresh') : undefined}
          >
            {isPhone ? null : t('refresh')}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate('/work-orders/new')}>
            {t('new')}
          </Button>
        </Flex>
      }
    >
      {/* The status filter scrolls by itself on a narrow screen rather than widening the page. */}
      <div style={{ overflowX: 'auto', marginBottom: 16 }}>
        <Segmented
          value={status}
          onChange={(value) => {
            setStatus(value as TWorkOrderStatus | 'all');
            paging.toFirstPage();
          }}
          options={[
            { label: t('filter.all'), value: 'all' },
            ...WORK_ORDER_STATUSES.map((s) => ({ label: tc(`workOrder.status.${s}`), value: s })),
          ]}
        />
      </div>
      <Table<TWorkOrder>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.records ?? []}
        loading={list.isFetching}
        scroll={{ x: 800 }}
        locale={{
          emptyText: (
            <Empty
              description={
                <Typography.Text type="secondary">{status === 'all' ? t('empty') : t('emptyFiltered')}</Typography.Text>
              }
            />
          ),
        }}
        pagination={paging.pagination(list.data?.total, {
          showSizeChanger: false,
          showTotal: (total) => t('total', { count: total }),
        })}
      />
    </Card>
  );
}
