import type { TestProject } from 'vitest/node';
import { prepareTestTemplate } from '@proxy/db/testing';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplate: string;
  }
}

/** Migrates once per run; each test file copies the template. */
export default async function setup(project: TestProject) {
  const { template, teardown } = await prepareTestTemplate();
  project.provide('pgliteTemplate', template.pgliteTemplate);
  project.provide('pgTemplate', template.pgTemplate);
  return teardown;
}
