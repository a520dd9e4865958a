import { TagsOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Operator area: the price catalogue and the recharge options, versioned with an effective time, and the payment method switches. */
export const adminPricingRoutes: TAppRoute[] = [
  {
    path: '/admin/prices',
    load: () => import('./components/pricing-page'),
    access: 'admin',
    titleKey: 'admin-pricing:title',
    menu: { order: 6, icon: <TagsOutlined /> },
  },
];
