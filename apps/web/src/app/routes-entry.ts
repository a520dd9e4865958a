/** The console's route list for tools outside the app (the e2e walks over every route). */
export { featureRoutes } from './feature-routes';
export { SHELL_ROUTES } from './route-list';
export type { TAppRoute } from './route-types';
