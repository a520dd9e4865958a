import { DashboardOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** The introduction page at "/", menu order 1 (spec section 2), and the account's domains page it links to. */
export const dashboardRoutes: TAppRoute[] = [
  {
    path: '/',
    load: () => import('./components/dashboard-page'),
    access: 'protected',
    titleKey: 'dashboard:title',
    menu: { order: 1, icon: <DashboardOutlined /> },
  },
  {
    // The account's usage by target domain in full (from the dashboard's top domains card).
    path: '/usage/domains',
    load: () => import('./components/domains-page'),
    access: 'protected',
    titleKey: 'dashboard:domainUsage.pageTitle',
  },
];
