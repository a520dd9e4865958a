import { GiftOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Invite and rebate, menu order 96, and the public invite share page (spec section 2). */
export const inviteRoutes: TAppRoute[] = [
  {
    path: '/invite',
    load: () => import('./components/invite-page'),
    access: 'protected',
    titleKey: 'invite:title',
    menu: { order: 96, icon: <GiftOutlined /> },
  },
  {
    path: '/invite/:invite_code',
    load: () => import('./components/share-page'),
    access: 'public',
    titleKey: 'invite:share.pageTitle',
    isTabless: true,
  },
];
