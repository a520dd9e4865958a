import { TeamOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Operator area: accounts (search, one account's page with balance adjustment, status and role). */
export const adminUsersRoutes: TAppRoute[] = [
  {
    path: '/admin/users',
    load: () => import('./components/users-page'),
    access: 'admin',
    titleKey: 'admin-users:title',
    menu: { order: 2, icon: <TeamOutlined /> },
  },
  {
    path: '/admin/users/:id',
    load: () => import('./components/user-page'),
    access: 'admin',
    titleKey: 'admin-users:userTitle',
  },
];
