import { FundOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Operator area: the economics of pools and exits (cost, revenue, margin, reconciliation), right after the pools. */
export const adminEconomicsRoutes: TAppRoute[] = [
  {
    path: '/admin/economics',
    load: () => import('./components/economics-page'),
    access: 'admin',
    titleKey: 'admin-economics:title',
    menu: { order: 4.6, icon: <FundOutlined /> },
  },
];
