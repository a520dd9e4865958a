import { DownloadOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Software download, in the tools group, for the role "user" (spec sections 2 and 6). */
export const softwareRoutes: TAppRoute[] = [
  {
    path: '/tools/software',
    load: () => import('./components/software-page'),
    loadRefusal: () => import('./components/software-refusal'),
    access: 'protected',
    titleKey: 'downloads:title',
    roles: ['user'],
    menu: { order: 99, group: 'tools', icon: <DownloadOutlined /> },
  },
];
