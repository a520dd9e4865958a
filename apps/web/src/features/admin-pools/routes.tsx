import { ClusterOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Operator area: upstream pools (providers whose username chooses the area), right after the inventory. */
export const adminPoolsRoutes: TAppRoute[] = [
  {
    path: '/admin/pools',
    load: () => import('./components/pools-page'),
    access: 'admin',
    titleKey: 'admin-pools:title',
    menu: { order: 4.5, icon: <ClusterOutlined /> },
  },
];
