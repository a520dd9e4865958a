import type { TAppRoute } from './route-types';
import { collectFeatureRoutes } from './route-list';

/**
 * Routes of every feature (`src/features/<f>/routes.tsx`, exports ending in
 * "Routes"). The modules hold only lazy `load` functions, so eager import is cheap.
 */
export const featureRoutes: TAppRoute[] = collectFeatureRoutes(
  import.meta.glob<Record<string, unknown>>('../features/*/routes.tsx', { eager: true }),
);
