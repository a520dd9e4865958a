import type { TAppRoute } from '../../app/route-types';

/** Public sign-in screens: never tabs, shown without the layout (spec section 2), built without antd (`isLight`). */
export const authRoutes: TAppRoute[] = [
  {
    path: '/login',
    load: () => import('./components/login-page'),
    access: 'public',
    titleKey: 'auth:login.title',
    isTabless: true,
    isLight: true,
  },
  {
    path: '/login/link',
    load: () => import('./components/login-link-page'),
    access: 'public',
    titleKey: 'auth:link.title',
    isTabless: true,
    isLight: true,
  },
  {
    path: '/register',
    load: () => import('./components/register-page'),
    access: 'public',
    titleKey: 'auth:register.title',
    isTabless: true,
    isLight: true,
  },
  {
    path: '/reset-password',
    load: () => import('./components/reset-password-page'),
    access: 'public',
    titleKey: 'auth:reset.title',
    isTabless: true,
    isLight: true,
  },
  {
    path: '/oauth/callback/:provider',
    load: () => import('./components/oauth-callback-page'),
    access: 'public',
    titleKey: 'auth:oauth.title',
    isTabless: true,
    isLight: true,
  },
];
