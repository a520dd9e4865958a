import type { ReactNode } from 'react';
import { configure, render } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { AppProviders } from '../app/providers';

// antd renders slowly in jsdom: give async queries more than the default second.
configure({ asyncUtilTimeout: 5000 });

/** Renders screens inside the console's real providers (i18n, antd theme, query client) at a path. */
export function renderAt(path: string, routes: { path: string; element: ReactNode }[]) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router };
}
