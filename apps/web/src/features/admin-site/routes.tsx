import { NotificationOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Operator area: the notice every customer sees once after signing in. */
export const adminSiteRoutes: TAppRoute[] = [
  {
    path: '/admin/notice',
    load: () => import('./components/notice-page'),
    access: 'admin',
    titleKey: 'admin-site:title',
    menu: { order: 8, icon: <NotificationOutlined /> },
  },
];
