import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { describeCallerIp } from '../ip-quality/ip-quality.service';
import { testToken } from './proxy-test.service';

/** GET /token/test/{id} (a real request through the gateway) and GET /proxy/echo (its target). */
export function createProxyTestHandlers(deps: TDeps): THandlersOf<'proxy-test'> {
  return {
    tokenTest: async ({ input, user, lang }) => testToken(deps, user.id, input.id, lang),
    proxyEcho: async ({ ip }) => ({ ip: describeCallerIp(ip), at: deps.clock.now().toISOString() }),
  };
}
