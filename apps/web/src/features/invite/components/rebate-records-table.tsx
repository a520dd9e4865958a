import { useState } from 'react';
import { Empty, Flex, Table, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatYuan, type TRebateRecord, type TRebateStatus } from '@proxy/contract';
import { RebateStatusSelect, RebateStatusTag } from '../../../entities/rebates/rebate-status';
import { formatDateTimeSeconds } from '../../../lib/format';
import { useRebateRecords } from '../api/invite';

/** My rebates, newest first, filtered by state. */
export function RebateRecordsTable() {
  const { t } = useTranslation('invite');
  const [paging, setPaging] = useState({ page: 1, page_size: 10 });
  const [status, setStatus] = useState<TRebateStatus | undefined>();
  const records = useRebateRecords({ ...paging, status });
  const columns: TableColumnsType<TRebateRecord> = [
    { title: t('columns.invitee'), dataIndex: 'invitee' },
    { title: t('columns.chargeAmount'), dataIndex: 'charge_amount', render: (value: number) => formatYuan(value) },
    { title: t('columns.rebateAmount'), dataIndex: 'rebate_amount', render: (value: number) => formatYuan(value) },
    { title: t('columns.status'), dataIndex: 'status', render: (_, r) => <RebateStatusTag status={r.status} reason={r.reason} /> },
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
          setPaging((p) => ({ ...p, page: 1 }));
        }}
      />
      <Table<TRebateRecord>
        rowKey="id"
        columns={columns}
        dataSource={records.data?.records ?? []}
        loading={records.isFetching}
        locale={{ emptyText: <Empty description={status ? t('empty.rebatesFiltered') : t('empty.rebates')} /> }}
        pagination={{
          current: paging.page,
          pageSize: paging.page_size,
          total: records.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => t('total', { count: total }),
          onChange: (page, pageSize) => setPaging({ page: pageSize === paging.page_size ? page : 1, page_size: pageSize }),
        }}
        scroll={{ x: 'max-content' }}
      />
    </Flex>
  );
}
