import { Card, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TInventoryStockRow } from '@proxy/contract';
import { useInventoryStock } from '../api/inventory';

/** Stock per area and kind: the same counts the purchase and supply forms read. */
export function StockCard() {
  const { t } = useTranslation('admin-inventory');
  const stock = useInventoryStock();
  const area = (r: TInventoryStockRow) =>
    [r.country.toUpperCase(), r.state_name || r.state, r.city_name || r.city].filter(Boolean).join(' / ');
  return (
    <Card size="small" title={t('stock.title')} style={{ marginBottom: 16 }} data-testid="inventory-stock">
      <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
        {t('stock.hint')}
      </Typography.Paragraph>
      <Table<TInventoryStockRow>
        size="small"
        rowKey={(r) => `${r.kind}:${r.country}:${r.state}:${r.city}`}
        loading={stock.isFetching}
        dataSource={stock.data ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        scroll={{ x: 900 }}
        columns={[
          { title: t('fields.area'), key: 'area', render: (_, r) => area(r) },
          { title: t('fields.kind'), dataIndex: 'kind', render: (v: string) => t(`kinds.${v}`) },
          { title: t('stock.static'), dataIndex: 'static_available', align: 'right' },
          { title: t('stock.dynamic'), dataIndex: 'dynamic_available', align: 'right' },
          { title: t('stock.active'), dataIndex: 'active', align: 'right' },
          { title: t('stock.up'), dataIndex: 'up', align: 'right' },
          { title: t('stock.down'), dataIndex: 'down', align: 'right' },
          { title: t('stock.held'), dataIndex: 'held', align: 'right' },
          { title: t('stock.disabled'), dataIndex: 'disabled', align: 'right' },
        ]}
      />
    </Card>
  );
}
