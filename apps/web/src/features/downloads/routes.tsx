import { DownloadOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Software download, in the tools group, for the role "user" (spec sections 2 and 6). */
export const downloadsRoutes: TAppRoute[] = [
  {
    path: '/tools/software',
    load: () => import('./components/downloads-page'),
    loadRefusal: () => import('./components/downloads-refusal'),
    access: 'protected',
    titleKey: 'downloads:title',
    roles: ['user'],
    // The tools group (98.91-98.94: IP quality, plugin, downloads, webhooks) sits after work orders and before the IP lists.
    menu: { order: 98.93, group: 'tools', icon: <DownloadOutlined /> },
  },
];
