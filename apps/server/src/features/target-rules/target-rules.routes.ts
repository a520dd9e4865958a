import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import {
  getAccountRules,
  getTokenRules,
  removeAccountRules,
  removeTokenRules,
  setAccountRules,
  setTokenRules,
} from './target-rules.service';

/** Target rules: the account's list and a proxy's own list (read, set, remove). */
export function createTargetRuleHandlers(deps: TDeps): THandlersOf<'target-rules'> {
  return {
    async userTargetRules({ user }) {
      return getAccountRules(deps, user.id);
    },
    async userTargetRulesSet({ input, user }) {
      return setAccountRules(deps, user.id, input);
    },
    async userTargetRulesRemove({ user }) {
      await removeAccountRules(deps, user.id);
      return null;
    },
    async tokenTargetRules({ input, user }) {
      return getTokenRules(deps, user.id, input.token_id);
    },
    async tokenTargetRulesSet({ input, user }) {
      return setTokenRules(deps, user.id, input.token_id, input);
    },
    async tokenTargetRulesRemove({ input, user }) {
      return removeTokenRules(deps, user.id, input.token_id);
    },
  };
}
