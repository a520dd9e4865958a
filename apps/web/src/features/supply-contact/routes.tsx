import type { TAppRoute } from '../../app/route-types';

/**
 * The public page a supply request's contact address confirmation e-mail links to
 * (no sign-in); its call is the supply domain's (POST /token/supply/contact/confirm).
 */
export const supplyContactRoutes: TAppRoute[] = [
  {
    path: '/supply/contact/confirm',
    load: () => import('./components/contact-confirm-page'),
    access: 'public',
    titleKey: 'supply-contact:title',
    isTabless: true,
    isLight: true,
  },
];
