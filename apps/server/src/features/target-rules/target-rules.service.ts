import { parseTargetRules, type TTargetRuleList, type TTargetRulesBody, type TTokenTargetRules } from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { bumpGatewayVersion } from '../gateway/gateway-state.repository';
import { changeGatewayState } from '../gateway/gateway-state.service';
import {
  deleteTargetRuleList,
  findTargetRuleList,
  lockTargetRules,
  replaceTargetRuleList,
  userOwnsToken,
  type TTargetRuleListRow,
} from './target-rules.repository';

/**
 * Target rules (packages/contract/src/target-rules.ts): the account's list and
 * proxies' own lists. Gateways read `target_rule_lists` when the gateway
 * version changes, so every change bumps it in its transaction, and an
 * embedded gateway has applied it before the answer.
 */

function toList(row: TTargetRuleListRow | undefined): TTargetRuleList | null {
  return row ? { mode: row.mode, rules: row.rules, updated_at: row.updatedAt.toISOString() } : null;
}

/** The account's list, or null. */
export async function getAccountRules(deps: Pick<TDeps, 'db'>, userId: number): Promise<TTargetRuleList | null> {
  return toList(await findTargetRuleList(deps.db, userId, null));
}

type TChangeDeps = Pick<TDeps, 'db' | 'clock' | 'gatewayApplied'>;

// The canonical rules of a body the route's schema has accepted.
function canonicalRules(body: TTargetRulesBody): string[] {
  return parseTargetRules(body.rules).rules.map((r) => r.text);
}

/** Sets (replaces) the account's list. */
export async function setAccountRules(
  deps: TChangeDeps,
  userId: number,
  body: TTargetRulesBody,
): Promise<TTargetRuleList> {
  const rules = canonicalRules(body);
  const row = await changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      await lockTargetRules(tx, userId);
      const saved = await replaceTargetRuleList(tx, {
        userId,
        tokenId: null,
        mode: body.mode,
        rules,
        updatedAt: deps.clock.now(),
      });
      await bumpGatewayVersion(tx);
      return saved;
    }),
  );
  return toList(row)!;
}

/** Removes the account's list (nothing to remove is not an error). */
export async function removeAccountRules(deps: TChangeDeps, userId: number): Promise<void> {
  await changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      await lockTargetRules(tx, userId);
      if (await deleteTargetRuleList(tx, userId, null)) await bumpGatewayVersion(tx);
    }),
  );
}

/** A proxy's own list, the account's, and which applies; another user's or an unknown proxy is NOT_FOUND. */
export async function getTokenRules(
  deps: Pick<TDeps, 'db'>,
  userId: number,
  tokenId: number,
): Promise<TTokenTargetRules> {
  if (!(await userOwnsToken(deps.db, userId, tokenId))) throw new AppError('NOT_FOUND');
  const [own, account] = await Promise.all([
    findTargetRuleList(deps.db, userId, tokenId),
    findTargetRuleList(deps.db, userId, null),
  ]);
  return {
    token_id: tokenId,
    own: toList(own),
    account: toList(account),
    applies: own ? 'own' : account ? 'account' : 'none',
  };
}

/** Sets (replaces) a proxy's own list. */
export async function setTokenRules(
  deps: TChangeDeps,
  userId: number,
  tokenId: number,
  body: TTargetRulesBody,
): Promise<TTokenTargetRules> {
  const rules = canonicalRules(body);
  await changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      if (!(await userOwnsToken(tx, userId, tokenId))) throw new AppError('NOT_FOUND');
      await lockTargetRules(tx, userId);
      await replaceTargetRuleList(tx, { userId, tokenId, mode: body.mode, rules, updatedAt: deps.clock.now() });
      await bumpGatewayVersion(tx);
    }),
  );
  return getTokenRules(deps, userId, tokenId);
}

/** Removes a proxy's own list: the account's applies to it again. */
export async function removeTokenRules(deps: TChangeDeps, userId: number, tokenId: number): Promise<TTokenTargetRules> {
  await changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      if (!(await userOwnsToken(tx, userId, tokenId))) throw new AppError('NOT_FOUND');
      await lockTargetRules(tx, userId);
      if (await deleteTargetRuleList(tx, userId, tokenId)) await bumpGatewayVersion(tx);
    }),
  );
  return getTokenRules(deps, userId, tokenId);
}
