import { useState } from 'react';
import { Flex, Table, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { LEDGER_REASONS, formatYuan, type TLedgerLine, type TLedgerReason } from '@proxy/contract';
import { formatDateTimeSeconds, formatSignedYuan } from '../../../lib/format';
import { useLedger, type TLedgerFilters } from '../api/ledger';
import { FilterBar, type TFilterBarValues } from './filter-bar';
import { usePaging } from '../../../lib/use-paging';

/** A signed movement: green when money comes in, red when it goes out. */
function SignedAmount(props: { yuan: number }) {
  if (props.yuan === 0) return <Typography.Text type="secondary">-</Typography.Text>;
  return <Typography.Text type={props.yuan > 0 ? 'success' : 'danger'}>{formatSignedYuan(props.yuan)}</Typography.Text>;
}

/** The statement: every movement of the balance with the balance after it, filtered by reason and days. */
export function LedgerTab() {
  const { t } = useTranslation('payments');
  const [filters, setFilters] = useState<TLedgerFilters>({});
  const paging = usePaging();
  const ledger = useLedger({ ...filters, page: paging.page, page_size: paging.pageSize });
  const isFiltered = Object.values(filters).some(Boolean);

  const apply = (values: TFilterBarValues<TLedgerReason>) => {
    setFilters({ reason: values.choice, from: values.from, to: values.to });
    paging.toFirstPage();
  };

  const columns: TableColumnsType<TLedgerLine> = [
    { key: 'time', title: t('ledger.time'), render: (_, line) => formatDateTimeSeconds(line.created_at) },
    { key: 'reason', title: t('ledger.reason'), render: (_, line) => t(`common:ledgerReasons.${line.reason}`) },
    {
      key: 'amount',
      title: t('ledger.amount'),
      align: 'right',
      render: (_, line) => <SignedAmount yuan={line.amount} />,
    },
    {
      key: 'balance',
      title: t('ledger.balanceAfter'),
      align: 'right',
      render: (_, line) => formatYuan(line.balance_after),
    },
    {
      key: 'frozen',
      title: t('ledger.frozenAmount'),
      align: 'right',
      render: (_, line) => <SignedAmount yuan={line.frozen_amount} />,
    },
    {
      key: 'frozenAfter',
      title: t('ledger.frozenAfter'),
      align: 'right',
      render: (_, line) => formatYuan(line.frozen_after),
    },
    { key: 'reference', title: t('ledger.reference'), render: (_, line) => line.reference ?? '-' },
  ];

  return (
    <Flex vertical gap={16}>
      <FilterBar<TLedgerReason>
        name="ledger"
        ariaLabel={t('ledger.filters')}
        choiceLabel={t('ledger.reason')}
        choices={LEDGER_REASONS.map((r) => ({ value: r, label: t(`common:ledgerReasons.${r}`) }))}
        onApply={apply}
      />
      <Table<TLedgerLine>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={ledger.data?.records ?? []}
        loading={ledger.isFetching && !ledger.data}
        scroll={{ x: 'max-content' }}
        pagination={paging.pagination(ledger.data?.total)}
        locale={{ emptyText: isFiltered ? t('ledger.noMatch') : t('ledger.empty') }}
      />
    </Flex>
  );
}
