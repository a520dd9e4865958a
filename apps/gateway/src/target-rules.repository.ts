import { inArray } from 'drizzle-orm';
import { targetRuleLists, type TDb } from '@proxy/db';

/** A target rule list as the gateway keeps it (tokenId null: the account's list). */
export type TTargetRuleRow = {
  id: number;
  userId: number;
  tokenId: number | null;
  mode: 'deny' | 'allow';
  rules: string[];
  updatedAt: Date;
};

const targetRuleColumns = {
  id: targetRuleLists.id,
  userId: targetRuleLists.userId,
  tokenId: targetRuleLists.tokenId,
  mode: targetRuleLists.mode,
  rules: targetRuleLists.rules,
  updatedAt: targetRuleLists.updatedAt,
};

/** Every target rule list (at most one per account and one per token, 200 rules each). */
export async function loadTargetRules(db: TDb): Promise<TTargetRuleRow[]> {
  return db.select(targetRuleColumns).from(targetRuleLists);
}

/** The target rule lists of these users (account and token lists). */
export async function loadTargetRulesOfUsers(db: TDb, userIds: number[]): Promise<TTargetRuleRow[]> {
  if (userIds.length === 0) return [];
  return db.select(targetRuleColumns).from(targetRuleLists).where(inArray(targetRuleLists.userId, userIds));
}
