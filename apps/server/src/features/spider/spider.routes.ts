import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { createSpiderRecord, downloadSpiderRecord, listSpiderRecords } from './spider.service';

/** The endpoint generator's files: create, list, download. */
export function createSpiderHandlers(deps: TDeps): THandlersOf<'spider'> {
  return {
    tokenCreateSpider: async ({ input, user }) => createSpiderRecord(deps, user.id, input),
    tokenSpiderRecords: async ({ input, user }) => listSpiderRecords(deps, user.id, input),
    tokenSpiderFile: async ({ input, user }) => downloadSpiderRecord(deps, user.id, input.id),
  };
}
