import { LinkOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** The endpoint generator, in the residential proxies group (spec sections 1 and 2). */
export const endpointGeneratorRoutes: TAppRoute[] = [
  {
    path: '/proxy/endpoint-generator',
    load: () => import('./components/endpoint-generator-page'),
    access: 'protected',
    titleKey: 'endpoint-generator:title',
    menu: { order: 2, group: 'residential', icon: <LinkOutlined /> },
  },
];
