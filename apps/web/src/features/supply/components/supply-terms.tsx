import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The supply terms: what is frozen, when it is refunded, how allocation works. */
export function SupplyTerms() {
  const { t } = useTranslation('supply');
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 16 }}
      title={t('terms.title')}
      description={
        <Typography.Paragraph style={{ marginBottom: 0 }} data-testid="supply-terms">
          <ul style={{ paddingInlineStart: 18, margin: 0 }}>
            <li>{t('terms.frozen')}</li>
            <li>{t('terms.success')}</li>
            <li>{t('terms.refund')}</li>
            <li>{t('terms.revoke')}</li>
          </ul>
        </Typography.Paragraph>
      }
    />
  );
}
