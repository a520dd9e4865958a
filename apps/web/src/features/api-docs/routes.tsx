import { ApiOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** API docs: current token, proxy API and area API (spec section 2, menu order 100, sign-in required). */
export const apiDocsRoutes: TAppRoute[] = [
  {
    path: '/api-docs',
    load: () => import('./components/api-docs-page'),
    access: 'protected',
    titleKey: 'api-docs:title',
    menu: { order: 100, icon: <ApiOutlined /> },
  },
];
