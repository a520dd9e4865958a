import { describe, inject, it, type SuiteFactory, type TestFunction } from 'vitest';
import type { TDbHandle } from './client';
import { createDatabaseFromTemplate } from './test-template';

export { createDatabaseFromTemplate, prepareTestTemplate, type TTestTemplate } from './test-template';
export * from './fake-pool';

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
 * Why a test is skipped, at the end of its name (or its group's): "… [skipped: <reason>]".
 * Every reporter shows it, and CI's summary (scripts/ci-summary.mjs) counts skipped tests by
 * reason and fails on a skipped test whose name gives none. Skip only through these helpers.
 */
export function skippedName(name: string, reason: string): string {
  return `${name} [skipped: ${reason}]`;
}

/** The reason of a test that needs the PostgreSQL server (concurrency, several instances or processes). */
export const NEEDS_POSTGRES = 'needs PostgreSQL (DATABASE_URL unset)';
/** The reason of a test that needs the embedded database (PGlite's own hooks, its own database file). */
export const NEEDS_PGLITE = 'needs PGlite, the embedded database (DATABASE_URL set)';

function describeIf(condition: boolean, reason: string) {
  return (name: string, factory: SuiteFactory): void => {
    if (condition) describe(name, factory);
    else describe.skip(skippedName(name, reason), factory);
  };
}
function itIf(condition: boolean, reason: string) {
  return (name: string, fn: TestFunction): void => {
    if (condition) it(name, fn);
    else it.skip(skippedName(name, reason), fn);
  };
}

/** A group that runs on PostgreSQL only; on PGlite its tests are skipped, named with the reason. */
export const describeOnPostgres = describeIf(isPostgres, NEEDS_POSTGRES);
/** A test that runs on PostgreSQL only; on PGlite it is skipped, named with the reason. */
export const itOnPostgres = itIf(isPostgres, NEEDS_POSTGRES);
/** A group that runs on PGlite only; on PostgreSQL its tests are skipped, named with the reason. */
export const describeOnPglite = describeIf(!isPostgres, NEEDS_PGLITE);
/** A test that runs on PGlite only; on PostgreSQL it is skipped, named with the reason. */
export const itOnPglite = itIf(!isPostgres, NEEDS_PGLITE);

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
