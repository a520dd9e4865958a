import { DatabaseOutlined, EnvironmentOutlined, SwapOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** The proxy screens (spec section 2): dynamic and static residential, and data-center. */
export const proxyRoutes: TAppRoute[] = [
  {
    path: '/proxy/isp/variable',
    load: () => import('./components/dynamic-proxies-page'),
    access: 'protected',
    titleKey: 'proxies:screens.dynamic.menu',
    menu: { order: 2, group: 'residential', icon: <SwapOutlined /> },
  },
  {
    path: '/proxy/isp/static',
    load: () => import('./components/static-proxies-page'),
    access: 'protected',
    titleKey: 'proxies:screens.static.menu',
    menu: { order: 2, group: 'residential', icon: <EnvironmentOutlined /> },
  },
  {
    path: '/proxy/idc/list',
    load: () => import('./components/idc-proxies-page'),
    access: 'protected',
    titleKey: 'proxies:screens.idc.menu',
    menu: { order: 2, group: 'datacenter', icon: <DatabaseOutlined /> },
  },
];
