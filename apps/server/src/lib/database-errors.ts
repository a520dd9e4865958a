// SQLSTATEs of a connection the server ended (admin_shutdown, crash_shutdown,
// cannot_connect_now) or that broke (class 08), and the socket errors of node-postgres.
const LOST_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '08007',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
]);
// What node-postgres says when the connection dropped, or when a query is sent on a client whose connection did.
const LOST_MESSAGES = [/^Connection terminated/, /not queryable/, /^terminating connection/, /^Client was closed/];

/**
 * Whether an error (or an error it wraps: Drizzle wraps the driver's in
 * `cause`) says the database connection was lost. A transaction cut off this
 * way before its commit changed nothing; one cut off at the commit itself may
 * have gone through, which the client's retry (same Idempotency-Key) settles.
 */
export function isDatabaseConnectionLost(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && LOST_CODES.has(code)) return true;
    if (typeof message === 'string' && LOST_MESSAGES.some((pattern) => pattern.test(message))) return true;
    current = cause;
  }
  return false;
}

/**
 * The name of the unique constraint a database error violated, or undefined.
 * Drizzle wraps driver errors (node-postgres and PGlite both carry SQLSTATE
 * 23505 and the constraint name), so the cause chain is walked.
 */
export function uniqueViolationOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    const candidate = current as { code?: unknown; constraint?: unknown; detail?: unknown; cause?: unknown };
    if (candidate.code === '23505') return typeof candidate.constraint === 'string' ? candidate.constraint : '';
    current = candidate.cause;
  }
  return undefined;
}
