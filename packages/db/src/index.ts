export * from './client';
export * from './schema';
export * as schema from './schema';
export * from './dump';
export * from './migration-state';
export * from './secret-box';
export * from './upstream-dial';
