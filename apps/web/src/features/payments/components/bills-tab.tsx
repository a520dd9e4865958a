import { useState } from 'react';
import { Button, Flex, Table, type TableColumnsType } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PAYMENT_STATUSES, formatYuan, type TPayOrder, type TPaymentStatus } from '@proxy/contract';
import { formatDateTimeSeconds } from '../../../lib/format';
import { showSuccess } from '../../../lib/message';
import { useExportPayRecords } from '../api/export-records';
import { usePayRecords, type TBillFilters } from '../api/pay-records';
import { CancelOrderButton } from './cancel-order-button';
import { CheckPaymentButton } from './check-payment-button';
import { FilterBar, type TFilterBarValues } from './filter-bar';
import { OrderDetailDrawer } from './order-detail-drawer';
import { OrderStatusTags } from './payment-status-tag';
import { usePaging } from '../../../lib/use-paging';

/** The bills: every field of a recharge order (spec section 3), status and date filters, paging, CSV export and an order's details. */
export function BillsTab() {
  const { t } = useTranslation('payments');
  const [filters, setFilters] = useState<TBillFilters>({});
  const paging = usePaging();
  const [detail, setDetail] = useState<TPayOrder | null>(null);
  const records = usePayRecords({ ...filters, page: paging.page, page_size: paging.pageSize });
  const exporter = useExportPayRecords();
  const isFiltered = Object.values(filters).some(Boolean);

  const apply = (values: TFilterBarValues<TPaymentStatus>) => {
    setFilters({ status: values.choice, from: values.from, to: values.to });
    paging.toFirstPage();
  };

  const handleExport = () => exporter.mutate(filters, { onSuccess: () => showSuccess(t('bills.exported')) });

  const columns: TableColumnsType<TPayOrder> = [
    { key: 'order_id', title: t('fields.orderId'), dataIndex: 'order_id' },
    {
      key: 'status',
      title: t('fields.status'),
      render: (_, order) => <OrderStatusTags order={order} />,
    },
    { key: 'date', title: t('fields.date'), dataIndex: 'date' },
    { key: 'description', title: t('fields.description'), dataIndex: 'description' },
    { key: 'created_at', title: t('fields.createdAt'), render: (_, order) => formatDateTimeSeconds(order.created_at) },
    { key: 'price', title: t('fields.price'), align: 'right', render: (_, order) => formatYuan(order.price) },
    { key: 'value', title: t('fields.value'), align: 'right', render: (_, order) => formatYuan(order.value) },
    { key: 'gift', title: t('fields.gift'), align: 'right', render: (_, order) => formatYuan(order.gift) },
    { key: 'fee', title: t('fields.fee'), align: 'right', render: (_, order) => formatYuan(order.fee) },
    {
      key: 'actions',
      title: t('fields.actions'),
      fixed: 'right',
      render: (_, order) => (
        <Flex gap={4}>
          <Button
            size="small"
            type="link"
            onClick={() => setDetail(order)}
            aria-label={t('bills.detailsOf', { id: order.order_id })}
          >
            {t('bills.details')}
          </Button>
          {(order.status === 'pending' || order.status === 'timeout') && (
            <CheckPaymentButton orderId={order.order_id} size="small" type="link" />
          )}
          {order.status === 'pending' && <CancelOrderButton orderId={order.order_id} size="small" type="link" />}
        </Flex>
      ),
    },
  ];

  return (
    <Flex vertical gap={16}>
      <FilterBar<TPaymentStatus>
        name="bills"
        ariaLabel={t('bills.filters')}
        choiceLabel={t('bills.status')}
        choices={PAYMENT_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
        onApply={apply}
        extra={
          <Button icon={<DownloadOutlined />} loading={exporter.isPending} onClick={handleExport}>
            {t('bills.export')}
          </Button>
        }
      />
      <Table<TPayOrder>
        rowKey="order_id"
        size="middle"
        columns={columns}
        dataSource={records.data?.records ?? []}
        loading={records.isFetching && !records.data}
        scroll={{ x: 'max-content' }}
        pagination={paging.pagination(records.data?.total)}
        locale={{ emptyText: isFiltered ? t('bills.noMatch') : t('bills.empty') }}
      />
      <OrderDetailDrawer order={detail} onClose={() => setDetail(null)} />
    </Flex>
  );
}
