import { inject } from 'vitest';
import type { TDbHandle } from './client';
import { createDatabaseFromTemplate } from './test-template';

export { createDatabaseFromTemplate, prepareTestTemplate, type TTestTemplate } from './test-template';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  export interface ProvidedContext {
    /** PGlite mode: file with the migrated template dump. */
    pgliteTemplate: string;
    /** PostgreSQL mode: name of the migrated template database. */
    pgTemplate: string;
  }
}

/** True when the suites run on a PostgreSQL server (DATABASE_URL set). */
export const isPostgres = Boolean(process.env.DATABASE_URL);

/**
 * A fresh migrated database for one test file (inside a Vitest project whose
 * globalSetup is vitest-global-setup.ts): a PGlite copy of the template, or a
 * new PostgreSQL database made from the template database.
 */
export function createTestDatabase(options: { poolSize?: number } = {}): Promise<TDbHandle & { url?: string }> {
  return createDatabaseFromTemplate(
    { pgliteTemplate: inject('pgliteTemplate'), pgTemplate: inject('pgTemplate') },
    options,
  );
}
