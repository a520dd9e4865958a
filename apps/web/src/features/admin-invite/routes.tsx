import { GiftOutlined, PercentageOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Operator area: the rebate rules (versions) and every rebate. */
export const adminInviteRoutes: TAppRoute[] = [
  {
    path: '/admin/invite/rules',
    load: () => import('./components/rebate-rules-page'),
    access: 'admin',
    titleKey: 'admin-invite:rulesTitle',
    menu: { order: 60, icon: <PercentageOutlined /> },
  },
  {
    path: '/admin/invite/rebates',
    load: () => import('./components/all-rebates-page'),
    access: 'admin',
    titleKey: 'admin-invite:rebatesTitle',
    menu: { order: 61, icon: <GiftOutlined /> },
  },
];
