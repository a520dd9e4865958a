import type { TestProject } from 'vitest/node';
import { prepareTestTemplate } from '@proxy/db/testing';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  export interface ProvidedContext {
    /** PGlite mode: file with the migrated template dump. */
    pgliteTemplate: string;
    /** PostgreSQL mode: name of the migrated template database. */
    pgTemplate: string;
  }
}

/** Migrates once per run; each test file then copies the template (see createTestDatabase). */
export default async function setup(project: TestProject) {
  const { template, teardown } = await prepareTestTemplate();
  project.provide('pgliteTemplate', template.pgliteTemplate);
  project.provide('pgTemplate', template.pgTemplate);
  return teardown;
}
