import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DomainUsagePanel } from '../../../entities/usage-domains/domain-usage-view';

/** The proxy detail's "Domains" section: its traffic by target domain over 7, 30 or 90 UTC days, and the CSV. */
export function ProxyDomainsSection({ tokenId }: { tokenId: number }) {
  const { t } = useTranslation('dashboard', { keyPrefix: 'domainUsage' });
  return (
    <Flex vertical gap={8} data-testid="proxy-domains">
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('section')}
      </Typography.Title>
      <DomainUsagePanel tokenId={tokenId} />
    </Flex>
  );
}
