import { Alert, Button, Card, Descriptions, Skeleton } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatFen } from '@proxy/contract';

/** The live fee of the form, the available balance and what is left of it after freezing; a top-up link when it is short. */
export function FeeCard(props: {
  feeFen: number | null;
  availableFen: number | undefined;
  frozenFen: number | undefined;
  isShort: boolean;
}) {
  const { t } = useTranslation('supply');
  const { feeFen, availableFen, frozenFen } = props;
  const after = feeFen !== null && availableFen !== undefined ? availableFen - feeFen : undefined;
  return (
    <Card title={t('fee.title')} size="small">
      {availableFen === undefined ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : (
        <Descriptions column={1} size="small">
          <Descriptions.Item label={t('fee.cost')}>
            <strong data-testid="supply-fee">{feeFen === null ? '—' : formatFen(feeFen)}</strong>
          </Descriptions.Item>
          <Descriptions.Item label={t('fee.available')}>
            <span data-testid="supply-available">{formatFen(availableFen)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('fee.after')}>
            <span data-testid="supply-after">{after === undefined ? '—' : formatFen(after)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('fee.frozen')}>
            <span data-testid="supply-frozen">{formatFen(frozenFen ?? 0)}</span>
          </Descriptions.Item>
        </Descriptions>
      )}
      {props.isShort || (after !== undefined && after < 0) ? (
        <Alert
          type="warning"
          showIcon
          title={t('fee.short')}
          action={
            <Link to="/charge" data-testid="top-up-link">
              <Button size="small" tabIndex={-1}>
                {t('fee.topUp')}
              </Button>
            </Link>
          }
        />
      ) : null}
    </Card>
  );
}
