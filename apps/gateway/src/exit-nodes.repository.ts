import { EXIT_PASSWORD_PURPOSE, exitNodes, isSealedValue, type TDb, type TSecretBox } from '@proxy/db';

/** An exit node as the gateway keeps it (its password opened). */
export type TExitNodeRow = typeof exitNodes.$inferSelect;

/** What a gateway without DATA_ENCRYPTION_KEY says when the inventory holds sealed passwords. */
export const MISSING_DATA_KEY =
  'DATA_ENCRYPTION_KEY is not set, but the passwords of upstream exits in the database are sealed: give this gateway the DATA_ENCRYPTION_KEY of the API';

/**
 * The whole inventory (small), with upstream passwords opened: the API stores them sealed
 * (EXIT_PASSWORD_PURPOSE); a plain value from before the API's start-up pass sealed it is used as it is.
 * A sealed password without a key, or one this key cannot open, fails the load (the message names the setting,
 * never the password): a gateway that cannot dial its exits does not start, and a running one keeps its last copy.
 */
export async function loadExitNodes(db: TDb, box: TSecretBox | null = null): Promise<TExitNodeRow[]> {
  const rows = await db.select().from(exitNodes);
  for (const row of rows) {
    if (row.password === null || !isSealedValue(row.password)) continue;
    if (!box) throw new Error(MISSING_DATA_KEY);
    row.password = box.open(row.password, EXIT_PASSWORD_PURPOSE).plain;
  }
  return rows;
}
