import { SafetyCertificateOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** IP quality check, in the tools group (spec section 2, menu order 99). */
export const ipQualityRoutes: TAppRoute[] = [
  {
    path: '/tools/ip-quality',
    load: () => import('./components/ip-quality-page'),
    access: 'protected',
    titleKey: 'ip-quality:title',
    // The tools group (98.91-98.94: IP quality, plugin, downloads, webhooks) sits after work orders and before the IP lists.
    menu: { order: 98.91, group: 'tools', icon: <SafetyCertificateOutlined /> },
  },
];
