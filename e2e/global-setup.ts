import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startAppServer } from './support/app-process';
import { startOAuthRelay } from './support/oauth-relay';

/**
 * One app server for every flow (sharedServer in support/app-server.ts): the
 * built console on the embedded database, signing in with GitHub and Google
 * through relays to the local providers a flow starts
 * (startSharedOAuthProviders in support/oauth.ts). Started once before the
 * first test file, stopped after the last; its output goes to a log file
 * the flows can read.
 */
export default async function setup(project: TestProject) {
  const relay = await startOAuthRelay();
  const logFile = path.join(mkdtempSync(path.join(tmpdir(), 'proxy-e2e-log-')), 'server.log');
  const server = await startAppServer(relay.env, { logFile }).catch(async (error: unknown) => {
    await relay.close();
    throw error;
  });
  project.provide('sharedAppServer', {
    url: server.url,
    dataDir: server.dataDir,
    gatewayPort: server.gatewayPort,
    logFile,
  });
  project.provide('sharedOAuthRelay', { controlUrl: relay.controlUrl });
  return async () => {
    await server.stop();
    await relay.close();
  };
}
