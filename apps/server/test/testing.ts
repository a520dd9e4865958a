// What suites outside the API (the launcher's real-path tests, e2e) use to
// drive it: the test app on a fresh database, users with money, purchases.
export {
  createTestApp,
  createMemoryMailer,
  createFakeClock,
  isPostgres,
  type TTestApp,
  type TMemoryMailer,
} from './helpers';
export { startLocalOAuthProviders, type TLocalOAuthProviders } from './oauth-providers';
export {
  buyOk,
  createAdmin,
  createUser,
  creditFen,
  request,
  seedProxyStartup,
  type TTestUser,
} from '../src/features/proxies/proxies-test-kit';
export { importInventory } from '../src/features/inventory/inventory.service';
export { insertExitNodes } from '../src/features/inventory/inventory.repository';
export { startFakeEthereum, startFakeTron, type TFakeChain } from './payments/fake-chains';
export { startFakeAlipay, type TFakeAlipay } from './payments/fake-alipay';
export { bumpGatewayVersion, readGatewayVersion } from '../src/features/gateway/gateway-state.repository';
export { startLocalUpstream, type TLocalUpstream } from '../src/features/inventory/inventory-probe-test-kit';
