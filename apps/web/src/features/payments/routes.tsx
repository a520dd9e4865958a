import { WalletOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Top up, bills and the statement, menu order 97 (spec section 2). */
export const paymentsRoutes: TAppRoute[] = [
  {
    path: '/charge',
    load: () => import('./components/payments-page'),
    access: 'protected',
    titleKey: 'payments:title',
    menu: { order: 97, icon: <WalletOutlined /> },
  },
];
