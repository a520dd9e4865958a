import { IP_ENTRY_KINDS, IP_LISTS } from '@proxy/contract';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, userRef, createdAt } from './columns';

/**
 * IP whitelist and blacklist entries: a single address, a CIDR block or a
 * range, stored normalised (start/end as fixed-width hex for ordering).
 */
export const ipListEntries = pgTable(
  'ip_list_entries',
  {
    id: id(),
    userId: userRef(),
    list: text('list', { enum: IP_LISTS }).notNull(),
    /** Canonical text of the entry ("1.2.3.4", "10.0.0.0/24", "a-b"). */
    entry: text('entry').notNull(),
    kind: text('kind', { enum: IP_ENTRY_KINDS }).notNull(),
    family: integer('family').notNull(),
    /** First and last address as 32-digit hex. */
    startHex: text('start_hex').notNull(),
    endHex: text('end_hex').notNull(),
    remark: text('remark').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ip_list_entries_unique_range').on(t.userId, t.list, t.family, t.startHex, t.endHex),
    index('ip_list_entries_user_idx').on(t.userId, t.list, t.id),
  ],
);
