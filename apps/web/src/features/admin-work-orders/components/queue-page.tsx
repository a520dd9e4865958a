import { useState } from 'react';
import { Button, Card, Empty, Flex, Segmented, Table, Typography, type TableColumnsType } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { WORK_ORDER_STATUSES, type TAdminWorkOrder, type TWorkOrderStatus } from '@proxy/contract';
import { WorkOrderStatusTag } from '../../../entities/work-orders/work-order-status-tag';
import { usePaging } from '../../../lib/use-paging';
import { formatDateTimeMinutes } from '../../../lib/format';
import { useQueue } from '../api/queue';

/** /admin/work-orders: every customer's work orders, open first and the longest waiting first, with a status filter. */
export default function QueuePage() {
  const { t } = useTranslation('admin-work-orders');
  const { t: tc } = useTranslation('common');
  const navigate = useNavigate();
  const paging = usePaging(20);
  const [status, setStatus] = useState<TWorkOrderStatus | 'all'>('open');
  const queue = useQueue({
    page: paging.page,
    pageSize: paging.pageSize,
    status: status === 'all' ? undefined : status,
  });

  const columns: TableColumnsType<TAdminWorkOrder> = [
    { title: t('columns.id'), dataIndex: 'id', width: 80, render: (id: number) => `#${id}` },
    {
      title: t('columns.subject'),
      dataIndex: 'subject',
      ellipsis: true,
      render: (subject: string, order) => <Link to={`/admin/work-orders/${order.id}`}>{subject}</Link>,
    },
    {
      title: t('columns.customer'),
      dataIndex: 'user_email',
      render: (_, order) => (
        <Flex vertical>
          <Typography.Text>{order.username}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {order.user_email} · ID {order.user_id}
          </Typography.Text>
        </Flex>
      ),
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
      width: 100,
      render: (_, order) => (
        <Button size="small" type="primary" ghost onClick={() => void navigate(`/admin/work-orders/${order.id}`)}>
          {t('open')}
        </Button>
      ),
    },
  ];

  return (
    <Card
      title={t('title')}
      extra={
        <Button icon={<ReloadOutlined />} loading={queue.isFetching} onClick={() => void queue.refetch()}>
          {t('refresh')}
        </Button>
      }
    >
      <Segmented
        style={{ marginBottom: 16 }}
        value={status}
        onChange={(value) => {
          setStatus(value as TWorkOrderStatus | 'all');
          paging.toFirstPage();
        }}
        options={[
          ...WORK_ORDER_STATUSES.map((s) => ({ label: tc(`workOrder.status.${s}`), value: s })),
          { label: t('filter.all'), value: 'all' },
        ]}
      />
      <Table<TAdminWorkOrder>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={queue.data?.records ?? []}
        loading={queue.isFetching}
        scroll={{ x: 900 }}
        locale={{ emptyText: <Empty description={t('empty')} /> }}
        pagination={paging.pagination(queue.data?.total, {
          showSizeChanger: false,
          showTotal: (total) => t('total', { count: total }),
        })}
      />
    </Card>
  );
}
