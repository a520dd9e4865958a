import { InboxOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Operator area: the supply (restock) queue — take, complete with the allocation, fail with a reason. */
export const adminSupplyRoutes: TAppRoute[] = [
  {
    path: '/admin/supply',
    load: () => import('./components/supply-queue-page'),
    access: 'admin',
    titleKey: 'admin-supply:title',
    menu: { order: 20, icon: <InboxOutlined /> },
  },
];
