// What suites outside the gateway (the launcher's) use to drive it from
// outside: rows it reads, local origins and upstreams, customer clients and the connections they keep open.
export * from './fixtures';
export * from './proxy-clients';
export * from './live-connections';
// The fake upstream pool: it lives in the db package because the API's suites need it too and may not import this.
export {
  FAKE_POOL_TEXTS,
  startFakePool,
  type TFakePool,
  type TFakePoolArea,
  type TFakePoolOptions,
  type TFakePoolStats,
  type TFakePoolTunnel,
} from '@proxy/db/testing';
