// The API as a package: the composition root (apps/launcher) starts it.
export { buildApp, type TAppOptions } from './app';
export { loadServerConfig, type TServerConfig } from './config/env';
export { startApi, type TApi } from './start-api';
