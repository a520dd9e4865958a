import { buildOpenApi } from '@proxy/contract';
import type { TDeps } from '../../lib/deps';
import { RawReply, type THandlersOf } from '../../lib/routing';
import { pingDatabase } from './system.repository';

/** Health and the OpenAPI document. */
export function createSystemHandlers(deps: TDeps): THandlersOf<'system'> {
  let openApiText: string | undefined;
  return {
    async health() {
      await pingDatabase(deps.db);
      return { status: 'ok' as const, database: deps.dbKind };
    },
    async openapi() {
      openApiText ??= JSON.stringify(buildOpenApi(deps.config.publicUrl), null, 2);
      return new RawReply(openApiText, 'application/json; charset=utf-8');
    },
  };
}
