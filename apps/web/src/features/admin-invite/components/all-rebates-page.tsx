import { useState } from 'react';
import { Card, Empty, Flex, Table, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatYuan, type TAdminRebateRecord, type TRebateStatus } from '@proxy/contract';
import { RebateReasonText, RebateStatusSelect, RebateStatusTag } from '../../../entities/invite/rebate-status';
import { formatDateTimeSeconds } from '../../../lib/format';
import { usePaging } from '../../../lib/use-paging';
import { useAllRebates } from '../api/admin-invite';

function Account(props: { email: string; id: number }) {
  const { t } = useTranslation('admin-invite');
  return (
    <Flex vertical>
      <Typography.Text>{props.email}</Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('userId', { id: props.id })}
      </Typography.Text>
    </Flex>
  );
}

/** /admin/invite/rebates: every rebate, newest first, by state, with what a reversed recharge took back and what it could not. */
export default function AllRebatesPage() {
  const { t } = useTranslation('admin-invite');
  const paging = usePaging(20);
  const [status, setStatus] = useState<TRebateStatus | undefined>();
  const list = useAllRebates({ page: paging.page, page_size: paging.pageSize, status });
  const columns: TableColumnsType<TAdminRebateRecord> = [
    { title: t('columns.createdAt'), dataIndex: 'created_at', render: formatDateTimeSeconds },
    {
      title: t('columns.inviter'),
      dataIndex: 'inviter_email',
      render: (_, r) => <Account email={r.inviter_email} id={r.inviter_id} />,
    },
    {
      title: t('columns.invitee'),
      dataIndex: 'invitee_email',
      render: (_, r) => <Account email={r.invitee_email} id={r.invitee_id} />,
    },
    {
      title: t('columns.order'),
      dataIndex: 'order_id',
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    { title: t('columns.chargeAmount'), dataIndex: 'charge_amount', render: (v: number) => formatYuan(v) },
    { title: t('columns.rebateAmount'), dataIndex: 'rebate_amount', render: (v: number) => formatYuan(v) },
    { title: t('columns.ruleVersion'), dataIndex: 'rule_version' },
    {
      title: t('columns.status'),
      dataIndex: 'status',
      render: (_, r) => (
        <Flex vertical gap={2}>
          <RebateStatusTag status={r.status} reason={null} />
          {r.reason && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              <RebateReasonText reason={r.reason} />
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    {
      title: t('columns.reversal'),
      dataIndex: 'reversed_amount',
      render: (_, r) =>
        r.reason === 'recharge_reversed' && r.processed_time && (r.reversed_amount > 0 || r.shortfall_amount > 0) ? (
          <Flex vertical>
            <Typography.Text>{t('reversed', { amount: formatYuan(r.reversed_amount) })}</Typography.Text>
            {r.shortfall_amount > 0 && (
              <Typography.Text type="danger">
                {t('shortfall', { amount: formatYuan(r.shortfall_amount) })}
              </Typography.Text>
            )}
          </Flex>
        ) : (
          '—'
        ),
    },
    { title: t('columns.processedTime'), dataIndex: 'processed_time', render: formatDateTimeSeconds },
  ];
  return (
    <Card title={t('rebatesTitle')}>
      <Flex vertical gap={12}>
        <RebateStatusSelect
          value={status}
          onChange={(value) => {
            setStatus(value);
            paging.toFirstPage();
          }}
        />
        <Table<TAdminRebateRecord>
          rowKey="id"
          columns={columns}
          dataSource={list.data?.records ?? []}
          loading={list.isFetching}
          locale={{ emptyText: <Empty description={t('emptyRebates')} /> }}
          pagination={paging.pagination(list.data?.total, {
            showSizeChanger: undefined,
            showTotal: (total) => t('total', { count: total }),
          })}
          scroll={{ x: 'max-content' }}
        />
      </Flex>
    </Card>
  );
}
