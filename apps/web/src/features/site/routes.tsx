import { FileTextOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Terms of service, menu order 100 (spec section 2). */
export const siteRoutes: TAppRoute[] = [
  {
    path: '/terms',
    load: () => import('./components/terms-page'),
    access: 'protected',
    titleKey: 'site:title',
    menu: { order: 100, icon: <FileTextOutlined /> },
  },
];
