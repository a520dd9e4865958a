import { DownloadOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Operator area: the desktop software releases customers download (after the notice). */
export const adminDownloadsRoutes: TAppRoute[] = [
  {
    path: '/admin/downloads',
    load: () => import('./components/releases-page'),
    access: 'admin',
    titleKey: 'admin-downloads:title',
    menu: { order: 8.5, icon: <DownloadOutlined /> },
  },
];
