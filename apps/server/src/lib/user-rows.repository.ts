import { and, asc, desc, gte, lte, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';

/**
 * One customer's rows of a table, paged by id, reached through an index that
 * starts with the customer column — never by walking the table.
 *
 * With `user_id = $1 ... ORDER BY id DESC LIMIT 20` PostgreSQL may walk the
 * primary key backwards and filter by user: its estimate finds the page after
 * a few rows when the user holds a fair share of the table, but the walk
 * passes every newer row of other users (hundreds of milliseconds at 1M
 * rows). Written as the range `user_id >= $1 AND user_id <= $1`, the user
 * column stays in the sort key (an equality would make it redundant there),
 * and only an index leading with it gives the order `user_id, id`: the same
 * rows in the same order, through the user's index only. The list-plans test
 * (apps/server/test/list-plans.test.ts) checks every list.
 */
export function ofUser(column: AnyColumn, userId: number | Placeholder): SQL {
  return and(gte(column, userId), lte(column, userId))!;
}

/** The order of a user's rows, newest first, that goes with ofUser. */
export function newestOfUser(column: AnyColumn, id: AnyColumn): SQL[] {
  return [desc(column), desc(id)];
}

/** The order of a user's rows, oldest first, that goes with ofUser. */
export function oldestOfUser(column: AnyColumn, id: AnyColumn): SQL[] {
  return [asc(column), asc(id)];
}

/**
 * The total of a paged list, counted only when the page cannot tell it: a
 * page with rows but fewer than the limit is the last one, so the total is
 * its offset plus its rows (and an empty first page means none). Most
 * customers' lists fit in one page, so most page views skip the count.
 */
export async function totalOfPage(page: { limit: number; offset: number }, rowsOnPage: number, countAll: () => Promise<number>): Promise<number> {
  if (rowsOnPage > 0 && rowsOnPage < page.limit) return page.offset + rowsOnPage;
  if (rowsOnPage === 0 && page.offset === 0) return 0;
  return countAll();
}
