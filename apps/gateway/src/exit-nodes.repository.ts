import { exitNodes, type TDb } from '@proxy/db';

/** An exit node as the gateway keeps it. */
export type TExitNodeRow = typeof exitNodes.$inferSelect;

/** The whole inventory (small). */
export async function loadExitNodes(db: TDb): Promise<TExitNodeRow[]> {
  return db.select().from(exitNodes);
}
