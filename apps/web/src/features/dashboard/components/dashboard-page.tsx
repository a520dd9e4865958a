import { Col, Flex, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUserInfo } from '../../../entities/users/user-info';
import { ActiveProxiesCard } from './active-proxies-card';
import { BalanceCards } from './balance-cards';
import { ExpiringCard } from './expiring-card';
import { PriceTable } from './price-table';
import { ProductOverview } from './product-overview';
import { SpendChartCard } from './spend-chart-card';
import { TopDomainsCard } from './top-domains-card';
import { TrafficChartCard } from './traffic-chart-card';

/**
 * / : the statistics dashboard (introduction page): balance and trial credit,
 * active proxies by kind, spend and traffic over time, the top target domains,
 * proxies expiring soon,
 * then the product overview and list prices.
 */
export default function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const { data: user } = useUserInfo();
  return (
    <Flex vertical gap={16}>
      <div>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {user ? t('welcome', { name: user.name }) : t('title')}
        </Typography.Title>
        <Typography.Text type="secondary">{t('subtitle')}</Typography.Text>
      </div>
      <BalanceCards />
      <ActiveProxiesCard />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <SpendChartCard />
        </Col>
        <Col xs={24} xl={12}>
          <TrafficChartCard />
        </Col>
      </Row>
      <TopDomainsCard />
      <ExpiringCard />
      <ProductOverview />
      <PriceTable />
    </Flex>
  );
}
