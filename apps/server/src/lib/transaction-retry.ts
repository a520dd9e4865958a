/** SQLSTATEs of a transaction PostgreSQL aborted because of a concurrent one: serialization_failure, deadlock_detected. */
const CONFLICT_CODES = new Set(['40001', '40P01']);

/** How many times a conflicting transaction is run in all before its error is answered. */
export const CONFLICT_ATTEMPTS = 3;

/**
 * Whether an error (or one it wraps: Drizzle wraps the driver's in `cause`)
 * is a serialization failure or a deadlock: the whole transaction was rolled
 * back, nothing of it is left, and running it again is safe when it only
 * touched the database.
 */
export function isTransactionConflict(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && CONFLICT_CODES.has(code)) return true;
    current = cause;
  }
  return false;
}

/**
 * Runs `transaction` (one database transaction that does nothing outside the
 * database) again when PostgreSQL aborted it as a serialization failure or a
 * deadlock, up to CONFLICT_ATTEMPTS runs in all; any other error, or the
 * last conflict, is thrown (the error handler answers it DATABASE_CONFLICT).
 */
export async function retryOnConflict<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= CONFLICT_ATTEMPTS || !isTransactionConflict(error)) throw error;
    }
  }
}
