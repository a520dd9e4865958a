import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUserInfo } from '../../../lib/user-info';
import { BalanceCards } from './balance-cards';
import { PriceTable } from './price-table';
import { ProductOverview } from './product-overview';

/** / : the introduction page with balance, trial credit, product overview and list prices. */
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
      <ProductOverview />
      <PriceTable />
    </Flex>
  );
}
