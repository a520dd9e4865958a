import { buildOpenApi } from '@proxy/contract';
import type { TDeps } from '../../lib/deps';
import { RawReply, type THandlersOf } from '../../lib/routing';
import { getSystemSettings, updateSystemSettings } from './system-settings.service';
import { checkReadiness, notReadyBody } from './health.service';
import { pingDatabase } from './system.repository';
import { findCountriesInStock } from '../areas/areas.service';

/** Health (as before, liveness, readiness), the OpenAPI document and the operators' security settings. */
export function createSystemHandlers(deps: TDeps): THandlersOf<'system'> {
  let openApiText: string | undefined;
  return {
    async health() {
      await pingDatabase(deps.db);
      return { status: 'ok' as const, database: deps.dbKind };
    },
    async healthLive() {
      return { status: 'live' as const };
    },
    async healthReady({ lang }) {
      const readiness = await checkReadiness(deps);
      if (readiness.status === 'ready') return readiness;
      return new RawReply(notReadyBody(readiness, lang), 'application/json; charset=utf-8', undefined, { status: 503 });
    },
    async openapi() {
      openApiText ??= JSON.stringify(buildOpenApi(deps.config.publicUrl), null, 2);
      return new RawReply(openApiText, 'application/json; charset=utf-8');
    },
    async adminSystemSettings() {
      return getSystemSettings(deps);
    },
    async adminSystemSettingsUpdate({ input, user }) {
      return updateSystemSettings(deps, user, input);
    },
    async adminSystemClaimsStock() {
      return findCountriesInStock(deps.db);
    },
  };
}
