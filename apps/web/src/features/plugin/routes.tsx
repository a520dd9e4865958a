import { ChromeOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Browser plugin download, in the tools group (spec section 2, menu order 99). */
export const pluginRoutes: TAppRoute[] = [
  {
    path: '/tools/plugin',
    load: () => import('./components/plugin-page'),
    access: 'protected',
    titleKey: 'plugin:title',
    // The tools group (98.91-98.94: IP quality, plugin, downloads, webhooks) sits after work orders and before the IP lists.
    menu: { order: 98.92, group: 'tools', icon: <ChromeOutlined /> },
  },
];
