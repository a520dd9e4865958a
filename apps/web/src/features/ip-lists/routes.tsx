import { SafetyOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Security: IP whitelist and blacklist (spec sections 1 and 5), in the menu before the tools. */
export const ipListsRoutes: TAppRoute[] = [
  {
    path: '/security',
    load: () => import('./components/ip-lists-page'),
    access: 'protected',
    titleKey: 'ip-lists:title',
    menu: { order: 99, icon: <SafetyOutlined /> },
  },
];
