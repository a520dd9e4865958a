import type { TAppRoute } from '../../app/route-types';

/** A proxy's per-connection usage log (opened from the proxy's detail drawer). */
export const usageLogRoutes: TAppRoute[] = [
  {
    path: '/proxy/usage-log/:id',
    load: () => import('./components/usage-log-page'),
    access: 'protected',
    titleKey: 'usage-log:title',
  },
];
