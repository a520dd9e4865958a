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
    menu: { order: 99, group: 'tools', icon: <DownloadOutlined /> },
  },
];
