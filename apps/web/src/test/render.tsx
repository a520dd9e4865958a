import { isValidElement, type ReactNode } from 'react';
import { render } from '@testing-library/react';
import { RouterProvider, createMemoryRouter, type RouteObject } from 'react-router';
import { AntdProviders } from '../app/antd-providers';
import { AppProviders } from '../app/providers';
import { createAppRouter } from '../app/router';
import type { TAppRoute } from '../app/route-types';

/** What to render: one screen (at any path), a few routes, or feature routes inside the console's own router (guards, layout, tabs). */
export type TRenderContent = ReactNode | RouteObject[] | { featureRoutes: TAppRoute[] };

function isFeatureRoutes(content: TRenderContent): content is { featureRoutes: TAppRoute[] } {
  return typeof content === 'object' && content !== null && !isValidElement(content) && 'featureRoutes' in content;
}

function createRouter(path: string, content: TRenderContent) {
  if (isFeatureRoutes(content)) return createAppRouter(content.featureRoutes, { initialEntries: [path] });
  const routes = Array.isArray(content) ? (content as RouteObject[]) : [{ path: '*', element: content }];
  return createMemoryRouter(routes, { initialEntries: [path] });
}

/**
 * Renders at `path` inside the console's real providers (query client, i18n) and a memory router;
 * with antd's (theme and messages) unless `options.withoutAntd` (the sign-in pages load no antd).
 */
export function renderAt(path: string, content: TRenderContent, options: { withoutAntd?: boolean } = {}) {
  const router = createRouter(path, content);
  const routerView = <RouterProvider router={router} />;
  const view = render(
    <AppProviders>{options.withoutAntd ? routerView : <AntdProviders>{routerView}</AntdProviders>}</AppProviders>,
  );
  return { ...view, router };
}
