import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DomainUsagePanel } from '../../../entities/usage-domains/domain-usage-view';

/** /usage/domains: the account's traffic by target domain (up to 100 domains and "other"), period switch and CSV. */
export default function DomainsPage() {
  const { t } = useTranslation('dashboard', { keyPrefix: 'domainUsage' });
  return (
    <Card title={t('pageTitle')}>
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      <DomainUsagePanel />
    </Card>
  );
}
