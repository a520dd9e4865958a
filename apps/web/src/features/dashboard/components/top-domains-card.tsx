import { Card } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useDomainUsage } from '../../../entities/usage-domains/domain-usage-api';
import { DomainUsageState } from '../../../entities/usage-domains/domain-usage-view';

/** Domains the card lists; the rest of the period is "other" here and listed in full on /usage/domains. */
export const TOP_DOMAINS_SHOWN = 10;

/** The account's 10 target domains with the most traffic over the last 7 UTC days, with a link to all of them. */
export function TopDomainsCard() {
  const { t } = useTranslation('dashboard', { keyPrefix: 'domainUsage' });
  const usage = useDomainUsage({ days: 7 });
  return (
    <Card
      title={t('title')}
      extra={
        <Link to="/usage/domains" data-testid="top-domains-more">
          {t('more')}
        </Link>
      }
      data-testid="top-domains-card"
    >
      <DomainUsageState usage={usage} limit={TOP_DOMAINS_SHOWN} />
    </Card>
  );
}
