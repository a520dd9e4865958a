import { CustomerServiceOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Work orders in the user's area of the menu (after the user center): the list, a new order, one conversation. */
export const workOrderRoutes: TAppRoute[] = [
  {
    path: '/work-orders',
    load: () => import('./components/work-orders-page'),
    access: 'protected',
    titleKey: 'work-orders:title',
    menu: { order: 98.5, icon: <CustomerServiceOutlined /> },
  },
  {
    path: '/work-orders/new',
    load: () => import('./components/new-work-order-page'),
    access: 'protected',
    titleKey: 'work-orders:create.title',
  },
  {
    path: '/work-orders/:id',
    load: () => import('./components/work-order-page'),
    access: 'protected',
    titleKey: 'work-orders:detail.title',
  },
];
