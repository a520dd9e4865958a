import type { TErrorName } from '@proxy/contract';

/** A failure with a stable error code from the contract; the error handler turns it into the envelope. */
export class AppError extends Error {
  constructor(
    readonly errorName: TErrorName,
    readonly params?: Record<string, string | number>,
    readonly issues?: { path: string; message: string; params?: Record<string, string | number> }[],
  ) {
    super(errorName);
    this.name = 'AppError';
  }
}

/** True when the error is an AppError of the given name. */
export function isAppError(error: unknown, name?: TErrorName): error is AppError {
  return error instanceof AppError && (!name || error.errorName === name);
}
