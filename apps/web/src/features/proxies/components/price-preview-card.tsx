import { Alert, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatFen, IP_MONTH_DAYS, TRAFFIC_VALID_DAYS } from '@proxy/contract';
import type { TPricePreview } from '../utils/price-preview';
import type { TBilling } from '../utils/screens';
import { TopUpLink } from './top-up-link';

/** The live total of the purchase form, the balance and whether it is enough. */
export function PricePreviewCard(props: {
  preview: TPricePreview;
  billing: TBilling;
  quantity: number | null | undefined;
  balanceFen: number | undefined;
  isLoadingPrices: boolean;
  /** The user follows the "Top up" link to /charge (the drawer closes). */
  onTopUp?: () => void;
}) {
  const { t } = useTranslation('proxies');
  const { preview, balanceFen } = props;
  const isShort = preview !== null && balanceFen !== undefined && preview.totalFen > balanceFen;
  const unitKey = props.billing === 'traffic' ? 'price.unitTraffic' : 'price.unitIp';
  return (
    <div data-testid="price-preview">
      <Descriptions
        size="small"
        column={1}
        bordered
        items={[
          {
            key: 'unit',
            label: t(unitKey),
            children: preview ? formatFen(preview.unitFen) : '-',
          },
          { key: 'quantity', label: t('buy.quantity'), children: props.quantity ?? '-' },
          ...(preview?.totalGb !== undefined
            ? [{ key: 'gb', label: t('price.totalGb'), children: `${preview.totalGb} GB` }]
            : []),
          {
            key: 'total',
            label: t('price.total'),
            children: (
              <Typography.Text
                strong
                type={isShort ? 'danger' : undefined}
                style={{ fontSize: 18 }}
                data-testid="price-total"
              >
                {preview ? formatFen(preview.totalFen) : props.isLoadingPrices ? t('price.loading') : '-'}
              </Typography.Text>
            ),
          },
          {
            key: 'balance',
            label: t('price.balance'),
            children: <span data-testid="price-balance">{balanceFen === undefined ? '-' : formatFen(balanceFen)}</span>,
          },
          {
            key: 'after',
            label: t('price.balanceAfter'),
            children: preview && balanceFen !== undefined && !isShort ? formatFen(balanceFen - preview.totalFen) : '-',
          },
        ]}
      />
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0', fontSize: 12 }}>
        {props.billing === 'traffic'
          ? t('price.noteTraffic', { days: TRAFFIC_VALID_DAYS })
          : t('price.noteIp', { days: IP_MONTH_DAYS })}
      </Typography.Paragraph>
      {isShort && (
        <Alert
          style={{ marginTop: 12 }}
          type="error"
          showIcon
          data-testid="insufficient-balance"
          title={t('price.insufficient', { total: formatFen(preview.totalFen), balance: formatFen(balanceFen) })}
          action={<TopUpLink onFollow={props.onTopUp} />}
        />
      )}
    </div>
  );
}
