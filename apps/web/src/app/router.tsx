import { lazy, Suspense, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import {
  createBrowserRouter,
  createMemoryRouter,
  redirect,
  type LoaderFunctionArgs,
  type RouteObject,
} from 'react-router';
import { PageLoading } from '../components/page-loading';
import { siteSettingsQueryOptions } from '../entities/site/site-settings';
import { loadFeatureLocales } from '../lib/i18n';
import { hardNavigate, registerNavigator } from '../lib/navigation';
import { queryClient } from '../lib/query-client';
import { tellSessionExpired } from '../lib/api-client';
import { isSignedIn, takeExpiredSession } from '../lib/session';
import { refreshTokenIfStale } from '../lib/token-refresh';
import { RootShell } from './root-shell';
import { SHELL_ROUTES } from './route-list';
import type { TAppRoute } from './route-types';
import type * as AntdModule from './antd-providers';

type TAntdModule = typeof AntdModule;

/** The error page without antd: shown when even the error page's chunk cannot load (offline). */
function PlainRouteError() {
  const { t } = useTranslation('common');
  return (
    <div role="alert" style={{ padding: 48, textAlign: 'center' }}>
      <h2>{t('routeError.title')}</h2>
      <p>{t('routeError.subtitle')}</p>
      <button type="button" onClick={() => window.location.reload()}>
        {t('actions.reload')}
      </button>
    </div>
  );
}

// antd's Result (with its illustrations) and providers load only when an error or a refusal is shown, not with sign-in.
const LazyRouteError = lazy(() =>
  Promise.all([import('../components/route-error'), import('./antd-providers')]).then(
    ([{ RouteError }, { AntdProviders }]) => ({
      default: function ThemedRouteError() {
        return (
          <AntdProviders>
            <RouteError />
          </AntdProviders>
        );
      },
    }),
    () => ({ default: PlainRouteError }),
  ),
);

/** antd's providers around a screen built with antd (every screen but the light public ones). */
function withAntd(Screen: ComponentType, { AntdProviders }: TAntdModule): ComponentType {
  return function ThemedScreen() {
    return (
      <AntdProviders>
        <Screen />
      </AntdProviders>
    );
  };
}

/** Error boundary of the router: a page chunk that failed to load, or a screen that crashed. */
function RouteErrorPage() {
  return (
    <Suspense fallback={<PageLoading />}>
      <LazyRouteError />
    </Suspense>
  );
}

/** Never shown: the catch-all route's loader redirects first. */
function RedirectingPage() {
  return null;
}

/** The help center's path (spec section 2): a link out of the app, never a page or a tab of it. */
export const HELP_CENTER_PATH = '/helpcenter';

/**
 * /helpcenter typed in or followed: leaves the console for HELP_CENTER_URL
 * (read from the server at run time) before anything renders, so it never
 * becomes a tab or marks another one active; /404 while the link is unset.
 */
export async function helpCenterLoader(args: LoaderFunctionArgs): Promise<Response | null> {
  protectedLoader(args);
  const settings = await queryClient.fetchQuery(siteSettingsQueryOptions()).catch(() => null);
  if (!settings?.help_center_url) return redirect('/404');
  hardNavigate(settings.help_center_url, { replace: true });
  // The page is being left: keep the current screen until it is.
  return new Promise<null>(() => undefined);
}

/** The path and search a guard redirect should bring the user back to. */
function wantedPath(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

/** Signed-out visitors of a protected page go to /login?redirect=<wanted path> (spec section 2). */
export function protectedLoader({ request }: LoaderFunctionArgs): null {
  if (!isSignedIn()) {
    // A stored token that ran out is a session that expired: say so (spec sections 5 and 8).
    if (takeExpiredSession()) tellSessionExpired();
    throw redirect(`/login?redirect=${encodeURIComponent(wantedPath(request))}`);
  }
  return null;
}

/** A signed-in user visiting /login is sent to / (spec section 2). */
export function loginLoader(): null {
  if (isSignedIn()) throw redirect('/');
  return null;
}

/** Runs on every navigation: refreshes a token older than 5 minutes (spec section 2). */
export function rootLoader(): null {
  void refreshTokenIfStale();
  return null;
}

function toRouteObject(route: TAppRoute): RouteObject {
  return {
    path: route.path,
    handle: { appRoute: route },
    loader: route.path === '/login' ? loginLoader : undefined,
    errorElement: <RouteErrorPage />,
    lazy: async () => {
      // The screen's chunk and the features' texts in the current language, side by side.
      // The layouts bring antd's providers to the signed-in screens; a public screen not marked light gets them here.
      const needsAntd = route.access === 'public' && !route.isLight;
      const [{ default: Loaded }, , antd] = await Promise.all([
        route.load(),
        loadFeatureLocales(undefined, route.access === 'public' ? 'public' : 'all'),
        needsAntd ? import('./antd-providers') : null,
      ]);
      const Screen = antd ? withAntd(Loaded, antd) : Loaded;
      if (!route.roles?.length) return { Component: Screen };
      const roles = route.roles;
      const { RoleGate } = await import('./role-gate');
      const Refusal = route.loadRefusal ? (await route.loadRefusal()).default : undefined;
      return {
        Component: function GuardedScreen() {
          return (
            <RoleGate roles={roles} refusal={Refusal ? <Refusal /> : undefined}>
              <Screen />
            </RoleGate>
          );
        },
      };
    },
  };
}

/** Root path of the operator area; every "admin" route lives under it, and only those do. */
export const ADMIN_ROOT = '/admin';

function isUnderAdminRoot(path: string): boolean {
  return path === ADMIN_ROOT || path.startsWith(`${ADMIN_ROOT}/`);
}

/** Refuses an operator screen outside /admin, or another screen inside it (it would skip the operator check). */
export function assertAdminPaths(routes: TAppRoute[]): void {
  for (const route of routes) {
    if ((route.access === 'admin') !== isUnderAdminRoot(route.path)) {
      throw new Error(
        `route ${route.path}: paths under ${ADMIN_ROOT} take access "admin", and access "admin" takes a path under ${ADMIN_ROOT}`,
      );
    }
  }
}

/** Where /admin leads: the first entry of the operator menu (else the first operator screen without parameters). */
export function adminHomePath(adminRoutes: TAppRoute[]): string | undefined {
  const candidates = adminRoutes.filter((r) => r.path !== ADMIN_ROOT && !r.path.includes(':'));
  const inMenu = candidates.filter((r) => r.menu).sort((a, b) => a.menu!.order - b.menu!.order);
  return (inMenu[0] ?? candidates[0])?.path;
}

/** The operator area's routes: /admin leading to its first screen (if no feature claims /admin), then the screens. */
function adminChildren(adminRoutes: TAppRoute[]): RouteObject[] {
  const home = adminHomePath(adminRoutes);
  const hasOwnRoot = adminRoutes.some((r) => r.path === ADMIN_ROOT);
  const rootRedirect: RouteObject[] =
    home && !hasOwnRoot
      ? [
          {
            path: ADMIN_ROOT,
            // The sign-in check first, so a signed-out visitor is asked to sign in for /admin itself.
            loader: (args) => {
              protectedLoader(args);
              return redirect(home);
            },
            Component: RedirectingPage,
          },
        ]
      : [];
  return [...rootRedirect, ...adminRoutes.map(toRouteObject)];
}

/**
 * The route tree: public pages bare, protected pages inside the customer
 * layout, operator pages ("admin") inside the operator layout, unknown paths
 * to /404.
 */
export function buildRouteObjects(featureRoutes: TAppRoute[]): RouteObject[] {
  const taken = new Set(featureRoutes.map((r) => r.path));
  const all = [...featureRoutes, ...SHELL_ROUTES.filter((r) => !taken.has(r.path))];
  assertAdminPaths(all);
  const publicRoutes = all.filter((r) => r.access === 'public');
  const protectedRoutes = all.filter((r) => r.access === 'protected');
  const adminRoutes = all.filter((r) => r.access === 'admin');
  return [
    {
      id: 'root',
      Component: RootShell,
      HydrateFallback: PageLoading,
      errorElement: <RouteErrorPage />,
      loader: rootLoader,
      shouldRevalidate: () => true,
      children: [
        ...publicRoutes.map(toRouteObject),
        { path: HELP_CENTER_PATH, loader: helpCenterLoader, Component: RedirectingPage },
        {
          id: 'protected',
          loader: protectedLoader,
          // The layouts (menu, tabs, header) load with the first protected page, never with sign-in.
          lazy: async () => {
            const [{ AppLayout }, { AntdProviders }, { PasswordChangeGate }] = await Promise.all([
              import('./app-layout'),
              import('./antd-providers'),
              import('./password-change-gate'),
              loadFeatureLocales(),
            ]);
            return {
              element: (
                <AntdProviders>
                  <PasswordChangeGate>
                    <AppLayout routes={protectedRoutes} />
                  </PasswordChangeGate>
                </AntdProviders>
              ),
            };
          },
          shouldRevalidate: () => true,
          children: protectedRoutes.map(toRouteObject),
        },
        {
          id: 'admin',
          loader: protectedLoader,
          lazy: async () => {
            const [{ AdminLayout }, { AntdProviders }, { PasswordChangeGate }] = await Promise.all([
              import('./admin-layout'),
              import('./antd-providers'),
              import('./password-change-gate'),
              loadFeatureLocales(),
            ]);
            return {
              element: (
                <AntdProviders>
                  <PasswordChangeGate>
                    <AdminLayout routes={adminRoutes} />
                  </PasswordChangeGate>
                </AntdProviders>
              ),
            };
          },
          shouldRevalidate: () => true,
          children: adminChildren(adminRoutes),
        },
        { path: '*', loader: () => redirect('/404'), Component: RedirectingPage },
      ],
    },
  ];
}

/** The app's router; `initialEntries` gives an in-memory router (tests). */
export function createAppRouter(featureRoutes: TAppRoute[], options: { initialEntries?: string[] } = {}) {
  const routes = buildRouteObjects(featureRoutes);
  const router = options.initialEntries
    ? createMemoryRouter(routes, { initialEntries: options.initialEntries })
    : createBrowserRouter(routes);
  registerNavigator((to, navOptions) => void router.navigate(to, navOptions));
  return router;
}
