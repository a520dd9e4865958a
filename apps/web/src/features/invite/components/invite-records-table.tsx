import { Empty, Table, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatYuan, type TInviteRecord } from '@proxy/contract';
import { formatDateTimeSeconds } from '../../../lib/format';
import { usePaging } from '../../../lib/use-paging';
import { useInviteRecords } from '../api/invite';

/** The accounts I invited, newest first, with their rebates. */
export function InviteRecordsTable() {
  const { t } = useTranslation('invite');
  const paging = usePaging();
  const records = useInviteRecords({ page: paging.page, page_size: paging.pageSize });
  const columns: TableColumnsType<TInviteRecord> = [
    { title: t('columns.invitee'), dataIndex: 'invitee' },
    { title: t('columns.registerTime'), dataIndex: 'register_time', render: formatDateTimeSeconds },
    { title: t('columns.rebateCount'), dataIndex: 'rebate_count' },
    { title: t('columns.totalRebate'), dataIndex: 'total_rebate', render: (value: number) => formatYuan(value) },
  ];
  return (
    <Table<TInviteRecord>
      rowKey={(r) => `${r.invitee}-${r.register_time}`}
      columns={columns}
      dataSource={records.data?.records ?? []}
      loading={records.isFetching}
      locale={{ emptyText: <Empty description={t('empty.invitees')} /> }}
      pagination={paging.pagination(records.data?.total, { showTotal: (total) => t('total', { count: total }) })}
      scroll={{ x: 'max-content' }}
    />
  );
}
