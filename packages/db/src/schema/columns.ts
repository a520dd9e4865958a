import { bigint, bigserial, timestamp } from 'drizzle-orm/pg-core';

/** Column helpers shared by the schema's tables (not exported from the package). */
export const id = () => bigserial({ mode: 'number' }).primaryKey();
export const userRef = () => bigint('user_id', { mode: 'number' }).notNull();
export const fen = (name: string) => bigint(name, { mode: 'number' });
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
