import { ApiOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Webhooks: signed HTTPS deliveries of account events, among the tools. */
export const webhooksRoutes: TAppRoute[] = [
  {
    path: '/developer/webhooks',
    load: () => import('./components/webhooks-page'),
    access: 'protected',
    titleKey: 'webhooks:title',
    menu: { order: 99, group: 'tools', icon: <ApiOutlined /> },
  },
];
