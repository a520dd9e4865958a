import { useState } from 'react';
import { Button, Card, Flex, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatFen, type TAdminPrice, type TPriceKey } from '@proxy/contract';
import { formatDateTimeMinutes } from '../../../lib/format';
import { useAdminChargeOptions, useAdminPrices } from '../api/admin-pricing';
import { ChargeOptionsCard } from './charge-options-card';
import { FairUseCard } from './fair-use-card';
import { PriceEditModal, PriceHistoryDrawer } from './price-dialogs';

/**
 * /admin/prices: the price catalogue (each key's price in effect, its version,
 * its list price and what is scheduled; a change is a new version from now or
 * a chosen time, with a history per key), then the recharge options and the
 * payment method switches, and the fair-use traffic of IP-billed dynamic proxies.
 */
export default function PricingPage() {
  const { t } = useTranslation('admin-pricing');
  const prices = useAdminPrices();
  const chargeOptions = useAdminChargeOptions();
  const [editing, setEditing] = useState<TAdminPrice | null>(null);
  const [historyKey, setHistoryKey] = useState<TPriceKey | null>(null);

  const columns: TableColumnsType<TAdminPrice> = [
    { title: t('columns.product'), dataIndex: 'key', render: (key: TPriceKey) => t(`keys.${key}`) },
    {
      title: t('columns.price'),
      dataIndex: 'amount_fen',
      render: (v: number, r) => (
        <Typography.Text strong data-testid={`price-${r.key}`}>
          {formatFen(v)} {t(`units.${r.key}`)}
        </Typography.Text>
      ),
    },
    {
      title: t('columns.version'),
      dataIndex: 'version_id',
      render: (v: number) => (v === 0 ? <Tag>{t('listVersion')}</Tag> : v),
    },
    { title: t('columns.since'), dataIndex: 'effective_at', render: formatDateTimeMinutes },
    { title: t('columns.listPrice'), dataIndex: 'default_fen', render: (v: number) => formatFen(v) },
    {
      title: t('columns.scheduled'),
      dataIndex: 'scheduled',
      render: (scheduled: TAdminPrice['scheduled']) =>
        scheduled.length === 0
          ? '—'
          : scheduled.map((v) => (
              <Tag key={v.id} color="gold">
                {t('scheduledAt', { price: formatFen(v.amount_fen), time: formatDateTimeMinutes(v.effective_at) })}
              </Tag>
            )),
    },
    {
      title: t('columns.actions'),
      key: 'actions',
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" onClick={() => setEditing(r)} data-testid={`edit-${r.key}`}>
            {t('edit')}
          </Button>
          <Button type="link" onClick={() => setHistoryKey(r.key)} data-testid={`history-${r.key}`}>
            {t('history')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Flex vertical gap={16}>
      <Card title={t('pricesTitle')}>
        <Typography.Paragraph type="secondary">{t('pricesHint')}</Typography.Paragraph>
        <Table<TAdminPrice>
          rowKey="key"
          columns={columns}
          dataSource={prices.data?.prices ?? []}
          loading={prices.isFetching}
          pagination={false}
          scroll={{ x: 'max-content' }}
        />
      </Card>
      <ChargeOptionsCard state={chargeOptions.data} loading={chargeOptions.isFetching} />
      <FairUseCard />
      <PriceEditModal price={editing} onClose={() => setEditing(null)} />
      <PriceHistoryDrawer priceKey={historyKey} onClose={() => setHistoryKey(null)} />
    </Flex>
  );
}
