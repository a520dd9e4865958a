import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { addIpEntries, listIpEntries, removeIpEntry } from './ip-lists.service';

/** IP whitelist and blacklist: list, add (entries separated by ";"), remove. */
export function createIpListHandlers(deps: TDeps): THandlersOf<'ip-lists'> {
  return {
    async userWhitelist({ input, user }) {
      return listIpEntries(deps, user.id, 'whitelist', input);
    },
    async userBlacklist({ input, user }) {
      return listIpEntries(deps, user.id, 'blacklist', input);
    },
    async userWhitelistAdd({ input, user, lang }) {
      return { records: await addIpEntries(deps, user.id, 'whitelist', input, lang) };
    },
    async userBlacklistAdd({ input, user, lang }) {
      return { records: await addIpEntries(deps, user.id, 'blacklist', input, lang) };
    },
    async userIpRemove({ input, user }) {
      await removeIpEntry(deps, user.id, input.id);
      return null;
    },
  };
}
