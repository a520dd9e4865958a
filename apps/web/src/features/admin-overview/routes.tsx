import { DashboardOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Operator area: the overview, the first entry of the operator menu (where /admin leads). */
export const adminOverviewRoutes: TAppRoute[] = [
  {
    path: '/admin/overview',
    load: () => import('./components/overview-page'),
    access: 'admin',
    titleKey: 'admin-overview:title',
    menu: { order: 0, icon: <DashboardOutlined /> },
  },
];
