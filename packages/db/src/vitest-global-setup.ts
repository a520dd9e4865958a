import type { TestProject } from 'vitest/node';
import { prepareTestTemplate } from './test-template';

/**
 * Run-wide set-up of every suite that needs a database (server, gateway,
 * launcher): migrates once per run; each test file then copies the template
 * with createTestDatabase().
 */
export default async function setup(project: TestProject) {
  const { template, teardown } = await prepareTestTemplate();
  project.provide('pgliteTemplate', template.pgliteTemplate);
  project.provide('pgTemplate', template.pgTemplate);
  return teardown;
}
