import { CustomerServiceOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Operator area: the work-order queue and one work order's conversation. */
export const adminWorkOrderRoutes: TAppRoute[] = [
  {
    path: '/admin/work-orders',
    load: () => import('./components/queue-page'),
    access: 'admin',
    titleKey: 'admin-work-orders:title',
    menu: { order: 5, icon: <CustomerServiceOutlined /> },
  },
  {
    path: '/admin/work-orders/:id',
    load: () => import('./components/admin-work-order-page'),
    access: 'admin',
    titleKey: 'admin-work-orders:detail.title',
  },
];
