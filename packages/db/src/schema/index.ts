/**
 * The database schema, one file per feature (the server feature whose repository writes the tables);
 * column helpers in columns.ts. Every table must be exported here: migrations (drizzle.config.ts) and
 * the dump (dump.ts) read the tables from this module.
 */
export * from './users';
export * from './ledger';
export * from './auth';
export * from './notifications';
export * from './ip-lists';
export * from './target-rules';
export * from './gateway';
export * from './inventory';
export * from './proxies';
export * from './usage';
export * from './usage-log';
export * from './pricing';
export * from './endpoint-generator';
export * from './audit';
export * from './payments';
export * from './invite';
export * from './site';
export * from './supply';
export * from './work-orders';
export * from './system';
export * from './alerts';
export * from './webhooks';
export * from './pools';
export * from './downloads';
