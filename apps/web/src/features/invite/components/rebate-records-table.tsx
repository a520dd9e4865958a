import { useState } from 'react';
import { Empty, Flex, Table, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatYuan, type TRebateRecord, type TRebateStatus } from '@proxy/contract';
import { RebateStatusSelect, RebateStatusTag } from '../../../entities/invite/rebate-status';
import { formatDateTimeSeconds } from '../../../lib/format';
import { usePaging } from '../../../lib/use-paging';
import { useRebateRecords } from '../api/invite';

/** My rebates, newest first, filtered by state. */
export function RebateRecordsTable() {
  const { t } = useTranslation('invite');
  const paging = usePaging();
  const [status, setStatus] = useState<TRebateStatus | undefined>();
  const records = useRebateRecords({ page: paging.page, page_size: paging.pageSize, status });
  const columns: TableColumnsType<TRebateRecord> = [
    { title: t('columns.invitee'), dataIndex: 'invitee' },
    { title: t('columns.chargeAmount'), dataIndex: 'charge_amount', render: (value: number) => formatYuan(value) },
    { title: t('columns.rebateAmount'), dataIndex: 'rebate_amount', render: (value: number) => formatYuan(value) },
    {
      title: t('columns.status'),
      dataIndex: 'status',
      render: (_, r) => <RebateStatusTag status={r.status} reason={r.reason} />,
    },
    {
      title: t('columns.processedTime'),
      dataIndex: 'processed_time',
      render: formatDateTimeSeconds,
    },
  ];
  return (
    <Flex vertical gap={12}>
      <RebateStatusSelect
        value={status}
        onChange={(value) => {
          setStatus(value);
          paging.toFirstPage();
        }}
      />
      <Table<TRebateRecord>
        rowKey="id"
        columns={columns}
        dataSource={records.data?.records ?? []}
        loading={records.isFetching}
        locale={{ emptyText: <Empty description={status ? t('empty.rebatesFiltered') : t('empty.rebates')} /> }}
        pagination={paging.pagination(records.data?.total, { showTotal: (total) => t('total', { count: total }) })}
        scroll={{ x: 'max-content' }}
      />
    </Flex>
  );
}
