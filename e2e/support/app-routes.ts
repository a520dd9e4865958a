import { featureRoutes, SHELL_ROUTES, type TAppRoute } from '@proxy/web/routes';

/** Values for path parameters, so a walk can open a route like /invite/:invite_code. */
export type TRouteParams = Record<string, string>;

/** A route of the console's router as a walk visits it. */
export type TWalkedRoute = Pick<TAppRoute, 'path' | 'access' | 'roles'> & { url: string };

/**
 * Every route of the console's router (the same list the app builds its
 * router from), with path parameters filled from `params`; a route added
 * later is walked without editing the tests. A parameter without a value
 * throws, so a new one is noticed.
 */
export function everyRoute(params: TRouteParams): TWalkedRoute[] {
  const taken = new Set(featureRoutes.map((r) => r.path));
  const all = [...featureRoutes, ...SHELL_ROUTES.filter((r) => !taken.has(r.path))];
  return all.map((route) => ({
    path: route.path,
    access: route.access,
    roles: route.roles,
    url: route.path.replace(/:(\w+)/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined) throw new Error(`route ${route.path}: no value for :${name}`);
      return encodeURIComponent(value);
    }),
  }));
}
