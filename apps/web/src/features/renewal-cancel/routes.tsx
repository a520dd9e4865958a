import type { TAppRoute } from '../../app/route-types';

/** The public page of an auto-renewal notice's one-click cancel link (no sign-in). */
export const renewalCancelRoutes: TAppRoute[] = [
  {
    path: '/renewal/cancel',
    load: () => import('./components/renewal-cancel-page'),
    access: 'public',
    titleKey: 'renewal-cancel:title',
    isTabless: true,
  },
];
