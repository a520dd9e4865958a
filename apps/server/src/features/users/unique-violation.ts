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
