import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { DomainUsagePanel } from '../../../entities/usage-domains/domain-usage-view';

/** The proxy detail's "Domains" section: its traffic by target domain over 7, 30 or 90 UTC days, and the CSV. */
export function ProxyDomainsSection({ tokenId }: { tokenId: number }) {
  const { t } = useTranslation('dashboard', { keyPrefix: 'domainUsage' });
  return (
    <Card size="small" title={t('section')} data-testid="proxy-domains">
      <DomainUsagePanel tokenId={tokenId} />
    </Card>
  );
}
