// What suites outside the gateway (the launcher's) use to drive it from
// outside: rows it reads, local origins and upstreams, and customer clients.
export * from './fixtures';
export * from './proxy-clients';
