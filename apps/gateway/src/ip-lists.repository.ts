import { inArray } from 'drizzle-orm';
import { ipListEntries, type TDb } from '@proxy/db';

/** An IP list entry as the gateway keeps it. */
export type TIpEntryRow = {
  userId: number;
  list: 'whitelist' | 'blacklist';
  family: number;
  startHex: string;
  endHex: string;
};

const ipEntryColumns = {
  userId: ipListEntries.userId,
  list: ipListEntries.list,
  family: ipListEntries.family,
  startHex: ipListEntries.startHex,
  endHex: ipListEntries.endHex,
};

/** The IP list entries of these users. */
export async function loadIpEntriesOfUsers(db: TDb, userIds: number[]): Promise<TIpEntryRow[]> {
  if (userIds.length === 0) return [];
  return db.select(ipEntryColumns).from(ipListEntries).where(inArray(ipListEntries.userId, userIds));
}

/** Every IP list entry (capped per user). */
export async function loadIpEntries(db: TDb): Promise<TIpEntryRow[]> {
  return db.select(ipEntryColumns).from(ipListEntries);
}
