import { CloudServerOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Operator area: import upstream exits while the server runs. */
export const adminInventoryRoutes: TAppRoute[] = [
  {
    path: '/admin/inventory',
    load: () => import('./components/inventory-page'),
    access: 'admin',
    titleKey: 'admin-inventory:title',
    menu: { order: 4, icon: <CloudServerOutlined /> },
  },
];
