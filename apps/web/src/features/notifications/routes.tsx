import type { TAppRoute } from '../../app/route-types';

/** Notifications: signed in, no menu entry (reached from the header bell). */
export const notificationsRoutes: TAppRoute[] = [
  {
    path: '/notifications',
    load: () => import('./components/notifications-page'),
    access: 'protected',
    titleKey: 'notifications:title',
  },
];
