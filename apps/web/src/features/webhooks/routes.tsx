import { ApiOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Webhooks: signed HTTPS deliveries of account events, among the tools. */
export const webhooksRoutes: TAppRoute[] = [
  {
    path: '/developer/webhooks',
    load: () => import('./components/webhooks-page'),
    access: 'protected',
    titleKey: 'webhooks:title',
    // The tools group (98.91-98.94: IP quality, plugin, downloads, webhooks) sits after work orders and before the IP lists.
    menu: { order: 98.94, group: 'tools', icon: <ApiOutlined /> },
  },
];
