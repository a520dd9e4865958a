import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { checkIpQuality, describeCallerIp, warmIpData } from './ip-quality.service';

/** GET /v1/ip-quality/{ip} (bearer token or personal API key) and GET /user/my-ip. */
export function createIpQualityHandlers(deps: TDeps): THandlersOf<'ip-quality'> {
  return {
    async ipQuality({ input, user }) {
      return checkIpQuality(deps, user.id, input.ip);
    },
    async userMyIp({ ip }) {
      // The check page asks for this first: a good moment to load the data in the background.
      warmIpData(deps);
      return { ip: describeCallerIp(ip) };
    },
  };
}
