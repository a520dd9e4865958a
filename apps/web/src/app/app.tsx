import { RouterProvider } from 'react-router';
import { featureRoutes } from './feature-routes';
import { AppProviders } from './providers';
import { createAppRouter } from './router';

const router = createAppRouter(featureRoutes);

/** The console: providers around the router. */
export function App() {
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
