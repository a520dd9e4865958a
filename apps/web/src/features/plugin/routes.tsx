import { ChromeOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Browser plugin download, in the tools group (spec section 2, menu order 99). */
export const pluginRoutes: TAppRoute[] = [
  {
    path: '/tools/plugin',
    load: () => import('./components/plugin-page'),
    access: 'protected',
    titleKey: 'plugin:title',
    menu: { order: 99, group: 'tools', icon: <ChromeOutlined /> },
  },
];
