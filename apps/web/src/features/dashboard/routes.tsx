import { DashboardOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** The introduction page at "/", menu order 1 (spec section 2). */
export const dashboardRoutes: TAppRoute[] = [
  {
    path: '/',
    load: () => import('./components/dashboard-page'),
    access: 'protected',
    titleKey: 'dashboard:title',
    menu: { order: 1, icon: <DashboardOutlined /> },
  },
];
