import type { TAppRoute } from './route-types';

/*
 * The route list without the router: the app's router, the build's route
 * budgets and the e2e walks over every route all read it from here.
 */

/** Routes the shell itself provides (spec section 2: /404). */
export const SHELL_ROUTES: TAppRoute[] = [
  {
    path: '/404',
    access: 'public',
    titleKey: 'common:notFound.title',
    isTabless: true,
    isLight: true,
    load: () => import('../components/not-found-page'),
  },
];

/** Every TAppRoute array exported (as `...Routes`) by feature route modules. */
export function collectFeatureRoutes(modules: Record<string, Record<string, unknown>>): TAppRoute[] {
  const routes: TAppRoute[] = [];
  for (const file of Object.keys(modules).sort()) {
    for (const [name, value] of Object.entries(modules[file])) {
      if (name.endsWith('Routes') && Array.isArray(value)) routes.push(...(value as TAppRoute[]));
    }
  }
  return routes;
}
