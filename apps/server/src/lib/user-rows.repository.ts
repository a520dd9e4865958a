import { and, asc, desc, gte, lte, sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

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
 * The count of the rows matching `where`, as a column of the page's own
 * statement (`pageTotal: countInPage(table, where)` in its select): an
 * uncorrelated subquery, which PostgreSQL runs once per statement, so a page
 * view reads its rows and its total in one round trip. It counts through the
 * same index as the page (the list-plans test checks both).
 */
export function countInPage(table: PgTable, where: SQL | undefined, alias = 'page_total'): SQL.Aliased<number> {
  const condition = where ? sql` where ${where}` : sql``;
  return sql<number>`(select count(*) from ${table}${condition})`.mapWith(Number).as(alias);
}

/**
 * The total of a paged list. A page with rows but fewer than the limit is the
 * last one, so the total is its offset plus its rows (and an empty first page
 * means none); a full page carries the total in its rows when its statement
 * reads it (countInPage); otherwise, or past the last page, it is counted.
 */
export async function totalOfPage(
  page: { limit: number; offset: number },
  rowsOnPage: number | readonly { pageTotal?: number }[],
  countAll: () => Promise<number>,
): Promise<number> {
  const count = typeof rowsOnPage === 'number' ? rowsOnPage : rowsOnPage.length;
  if (count > 0 && count < page.limit) return page.offset + count;
  if (count === 0 && page.offset === 0) return 0;
  const carried = typeof rowsOnPage === 'number' ? undefined : rowsOnPage[0]?.pageTotal;
  return carried ?? countAll();
}
