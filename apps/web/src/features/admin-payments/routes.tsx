import { AccountBookOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Operator area: recharge orders of every customer, and USDT transfers that matched no order. */
export const adminPaymentsRoutes: TAppRoute[] = [
  {
    path: '/admin/payments',
    load: () => import('./components/payments-page'),
    access: 'admin',
    titleKey: 'admin-payments:title',
    menu: { order: 3, icon: <AccountBookOutlined /> },
  },
];
