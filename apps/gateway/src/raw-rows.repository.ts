import type { TDbOrTx } from '@proxy/db';

/** A row as the driver answers it: its columns in order. */
export type TRawRow = unknown[];
/** The driver's client behind a Drizzle handle. */
export type TRawClient = {
  query(...args: unknown[]): Promise<{ rows: unknown[] }>;
  /** PGlite (and its transactions) only. */
  exec?: unknown;
};

/**
 * Rows as arrays, straight from the driver of `db` (node-postgres or PGlite,
 * inside the transaction when `db` is one): no per-row mapping by Drizzle,
 * which dominated the cold load of a million tokens.
 */
export async function rawRows(db: TDbOrTx, text: string, values: unknown[]): Promise<TRawRow[]> {
  // Drizzle's session holds the driver's client (the pool, the PGlite instance, or the transaction's connection).
  const client = (db as unknown as { session: { client: TRawClient } }).session.client;
  const result =
    typeof client.exec === 'function'
      ? await client.query(text, values, { rowMode: 'array' })
      : await client.query({ text, values, rowMode: 'array' });
  return result.rows as TRawRow[];
}
