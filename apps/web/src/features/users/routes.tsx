import { UserOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** The user center, menu order 98 (spec section 2). */
export const usersRoutes: TAppRoute[] = [
  {
    path: '/user-center',
    load: () => import('./components/users-page'),
    access: 'protected',
    titleKey: 'users:title',
    menu: { order: 98, icon: <UserOutlined /> },
  },
];
