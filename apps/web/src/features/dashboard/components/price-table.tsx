import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_PRICE_CATALOGUE,
  IP_MONTH_DAYS,
  RESIDENTIAL_TRAFFIC_TIERS_FEN,
  TRAFFIC_MIN_GB,
  TRAFFIC_VALID_DAYS,
  formatFen,
  priceIpFen,
} from '@proxy/contract';
import { usePriceCatalogue } from '../../../entities/pricing/price-catalogue';
import { LightTable } from '../../../components/light-table';

type TPriceRow = { key: string; product: string; traffic: string[]; ip: string[] };

/** The list prices of the contract's price catalogue (spec section 9; ARCHITECTURE.md, Proxies). */
export function PriceTable() {
  const { t } = useTranslation('dashboard');
  // The prices the server charges (operators may change them); the list prices until they load.
  const prices = usePriceCatalogue().data ?? DEFAULT_PRICE_CATALOGUE;
  const tierFen = [
    prices.residential_traffic_tier0_fen,
    prices.residential_traffic_tier1_fen,
    prices.residential_traffic_tier2_fen,
  ];
  const tierFromGb = [...RESIDENTIAL_TRAFFIC_TIERS_FEN].reverse().map((tier) => tier.fromGb);
  const residentialTraffic = tierFromGb.map((fromGb, i) =>
    fromGb === 0
      ? t('prices.perGbUnder', { price: formatFen(tierFen[i]), gb: tierFromGb[1] })
      : t('prices.perGbFrom', { price: formatFen(tierFen[i]), gb: fromGb }),
  );
  const rows: TPriceRow[] = [
    {
      key: 'static',
      product: t('products.static.name'),
      traffic: residentialTraffic,
      ip: [
        t('prices.perDay', { price: formatFen(prices.static_ip_day_fen) }),
        t('prices.perMonth', { price: formatFen(prices.static_ip_month_fen), days: IP_MONTH_DAYS }),
      ],
    },
    {
      key: 'dynamic',
      product: t('products.dynamic.name'),
      traffic: residentialTraffic,
      ip: [t('prices.perDay', { price: formatFen(prices.dynamic_ip_day_fen) })],
    },
    {
      key: 'idc',
      product: t('products.idc.name'),
      traffic: [t('prices.perGb', { price: formatFen(prices.idc_traffic_fen) })],
      ip: [
        t('prices.perMonth', { price: formatFen(prices.idc_ip_month_fen), days: IP_MONTH_DAYS }),
        t('prices.extraDay', { price: formatFen(priceIpFen('idc', 1, prices)) }),
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
      <LightTable<TPriceRow>
        title={t('prices.title')}
        rowKey={(r) => r.key}
        rows={rows}
        minWidth={560}
        columns={[
          {
            key: 'product',
            title: t('prices.product'),
            render: (r) => <Typography.Text strong>{r.product}</Typography.Text>,
          },
          { key: 'traffic', title: t('prices.byTraffic'), render: (r) => renderLines(r.traffic) },
          { key: 'ip', title: t('prices.byIp'), render: (r) => renderLines(r.ip) },
        ]}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
        {t('prices.note', { min: TRAFFIC_MIN_GB, days: TRAFFIC_VALID_DAYS })}
      </Typography.Paragraph>
    </Card>
  );
}
