// What suites outside the gateway (the launcher's) use to drive it from
// outside: rows it reads, local origins and upstreams, customer clients and the connections they keep open.
export * from './fixtures';
export * from './proxy-clients';
export * from './live-connections';
