import { Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TEconomicsReport, TEconomicsRow } from '@proxy/contract';
import { formatBytes, formatFen } from '../../../lib/format';

/** Money of a row: a negative margin in red with its flag. */
export function Margin({ fen, isNegative, testId }: { fen: number; isNegative: boolean; testId?: string }) {
  const { t } = useTranslation('admin-economics');
  if (!isNegative) return <span data-testid={testId}>{formatFen(fen)}</span>;
  return (
    <span data-testid={testId}>
      <Typography.Text type="danger">{formatFen(fen)}</Typography.Text> <Tag color="error">{t('negative')}</Tag>
    </span>
  );
}

// What a row is about, by the report's grouping; the sold-not-carried line says so first.
function KeyCell({ row, groupBy }: { row: TEconomicsRow; groupBy: TEconomicsReport['group_by'] }) {
  const { t } = useTranslation('admin-economics');
  const sold = row.line === 'sold_not_carried' ? <Tag color="gold">{t('line.sold_not_carried')}</Tag> : null;
  let text: string;
  if (groupBy === 'day') text = row.day ?? '';
  else if (groupBy === 'product')
    text = [
      t(`category.${row.category ?? 'none'}`),
      t(`product.${row.product ?? 'none'}`),
      t(`billing.${row.billing ?? 'none'}`),
    ].join(' · ');
  else if (groupBy === 'area') text = row.country ? row.country.toUpperCase() : t('area.none');
  else if (row.carrier_kind === null) text = '';
  else if (row.carrier_kind === 'none') text = t('carrier.none');
  else text = `${t(`carrier.${row.carrier_kind}`)} · ${row.carrier_name ?? `#${row.carrier_id}`}`;
  return (
    <span>
      {sold}
      {text}
    </span>
  );
}

const keyOf = (row: TEconomicsRow) =>
  [row.line, row.day, row.carrier_kind, row.carrier_id, row.category, row.product, row.billing, row.country].join('|');

/**
 * The report's rows with a totals line; money in yuan, bytes in binary units. Uncharged bytes (lost to a failure
 * before the target answered) are apart from the bytes: they cost like any byte through a pool and earn nothing.
 */
export function EconomicsTable({ report, isLoading }: { report: TEconomicsReport | undefined; isLoading: boolean }) {
  const { t } = useTranslation('admin-economics');
  const groupBy = report?.group_by ?? 'day';
  const totals = report?.totals;
  return (
    <Table<TEconomicsRow>
      rowKey={keyOf}
      size="small"
      loading={isLoading}
      dataSource={report?.rows ?? []}
      pagination={false}
      scroll={{ x: 880 }}
      data-testid="economics-table"
      columns={[
        { title: t(`groupBy.${groupBy}`), key: 'key', render: (_, row) => <KeyCell row={row} groupBy={groupBy} /> },
        { title: t('columns.bytes'), dataIndex: 'bytes', align: 'right', render: (b: number) => formatBytes(b) },
        {
          title: t('columns.uncharged'),
          dataIndex: 'uncharged_bytes',
          align: 'right',
          render: (b: number) => (b > 0 ? formatBytes(b) : '–'),
        },
        { title: t('columns.cost'), dataIndex: 'cost_fen', align: 'right', render: (f: number) => formatFen(f) },
        { title: t('columns.revenue'), dataIndex: 'revenue_fen', align: 'right', render: (f: number) => formatFen(f) },
        {
          title: t('columns.margin'),
          key: 'margin',
          align: 'right',
          render: (_, row) => <Margin fen={row.margin_fen} isNegative={row.is_negative} />,
        },
      ]}
      summary={() =>
        totals ? (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0}>
              <strong>{t('total')}</strong>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={1} align="right">
              {formatBytes(totals.bytes)}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={2} align="right">
              <span data-testid="total-uncharged">{formatBytes(totals.uncharged_bytes)}</span>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={3} align="right">
              {formatFen(totals.cost_fen)}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={4} align="right">
              {formatFen(totals.revenue_fen)}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={5} align="right">
              <Margin fen={totals.margin_fen} isNegative={totals.is_negative} testId="total-margin" />
            </Table.Summary.Cell>
          </Table.Summary.Row>
        ) : null
      }
    />
  );
}
