import type { ReactNode } from 'react';
import { configure, render } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { AppProviders } from '../../../app/providers';

// antd renders slowly in jsdom: give async queries more than the default second.
configure({ asyncUtilTimeout: 8000 });

/** Renders a screen inside the console's real providers (i18n, antd theme, query client) and a router at `path`. */
export function renderScreen(path: string, element: ReactNode) {
  const router = createMemoryRouter([{ path, element }, { path: '*', element: null }], { initialEntries: [path] });
  return render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}
