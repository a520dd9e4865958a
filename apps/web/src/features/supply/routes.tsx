import { InboxOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** The supply (restock) request screen: terms, form and history, in the residential menu group (spec section 2). */
export const supplyRoutes: TAppRoute[] = [
  {
    path: '/proxy/isp/supply-request',
    load: () => import('./components/supply-page'),
    access: 'protected',
    titleKey: 'supply:title',
    menu: { order: 2, group: 'residential', icon: <InboxOutlined /> },
  },
];
