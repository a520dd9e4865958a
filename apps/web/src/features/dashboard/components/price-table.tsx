import { Card, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  IDC_IP_FEN_PER_MONTH,
  IDC_TRAFFIC_FEN_PER_GB,
  IP_MONTH_DAYS,
  RESIDENTIAL_TRAFFIC_TIERS_FEN,
  STATIC_IP_FEN_PER_DAY,
  STATIC_IP_FEN_PER_MONTH,
  DYNAMIC_IP_FEN_PER_DAY,
  TRAFFIC_MIN_GB,
  TRAFFIC_VALID_DAYS,
  formatFen,
  priceIpFen,
} from '@proxy/contract';

type TPriceRow = { key: string; product: string; traffic: string[]; ip: string[] };

/** The list prices of the contract's price catalogue (spec section 9; ARCHITECTURE.md, Proxies). */
export function PriceTable() {
  const { t } = useTranslation('dashboard');
  // Tiers are listed from the highest threshold; show them cheapest-last as customers read them.
  const residentialTraffic = [...RESIDENTIAL_TRAFFIC_TIERS_FEN]
    .reverse()
    .map((tier) =>
      tier.fromGb === 0
        ? t('prices.perGbUnder', { price: formatFen(tier.fenPerGb), gb: RESIDENTIAL_TRAFFIC_TIERS_FEN[1].fromGb })
        : t('prices.perGbFrom', { price: formatFen(tier.fenPerGb), gb: tier.fromGb }),
    );
  const rows: TPriceRow[] = [
    {
      key: 'static',
      product: t('products.static.name'),
      traffic: residentialTraffic,
      ip: [
        t('prices.perDay', { price: formatFen(STATIC_IP_FEN_PER_DAY) }),
        t('prices.perMonth', { price: formatFen(STATIC_IP_FEN_PER_MONTH), days: IP_MONTH_DAYS }),
      ],
    },
    {
      key: 'dynamic',
      product: t('products.dynamic.name'),
      traffic: residentialTraffic,
      ip: [t('prices.perDay', { price: formatFen(DYNAMIC_IP_FEN_PER_DAY) })],
    },
    {
      key: 'idc',
      product: t('products.idc.name'),
      traffic: [t('prices.perGb', { price: formatFen(IDC_TRAFFIC_FEN_PER_GB) })],
      ip: [
        t('prices.perMonth', { price: formatFen(IDC_IP_FEN_PER_MONTH), days: IP_MONTH_DAYS }),
        t('prices.extraDay', { price: formatFen(priceIpFen('idc', 1)) }),
      ],
    },
  ];
  const renderLines = (lines: string[]) => (
    <>
      {lines.map((line) => (
        <div key={line}>{line}</div>
      ))}
    </>
  );

  return (
    <Card title={t('prices.title')}>
      <Table<TPriceRow>
        rowKey="key"
        dataSource={rows}
        pagination={false}
        size="middle"
        scroll={{ x: 560 }}
        columns={[
          { key: 'product', title: t('prices.product'), dataIndex: 'product', render: (text: string) => <Typography.Text strong>{text}</Typography.Text> },
          { key: 'traffic', title: t('prices.byTraffic'), dataIndex: 'traffic', render: renderLines },
          { key: 'ip', title: t('prices.byIp'), dataIndex: 'ip', render: renderLines },
        ]}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
        {t('prices.note', { min: TRAFFIC_MIN_GB, days: TRAFFIC_VALID_DAYS })}
      </Typography.Paragraph>
    </Card>
  );
}
