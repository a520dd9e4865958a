import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { createSpiderRecord, downloadSpiderRecord, listSpiderRecords } from './endpoint-generator.service';

/** The endpoint generator's files: create, list, download. */
export function createEndpointGeneratorHandlers(deps: TDeps): THandlersOf<'endpoint-generator'> {
  return {
    tokenCreateSpider: async ({ input, user }) => createSpiderRecord(deps, user.id, input),
    tokenSpiderRecords: async ({ input, user }) => listSpiderRecords(deps, user.id, input),
    tokenSpiderFile: async ({ input, user }) => downloadSpiderRecord(deps, user.id, input.id),
  };
}
