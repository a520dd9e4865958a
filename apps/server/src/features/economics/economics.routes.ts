import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import {
  exportEconomics,
  getEconomics,
  getEconomicsSummary,
  getReconciliation,
  importReconciliation,
} from './economics.service';

/** Operators' economics of pools and exits (under /admin/economics). */
export function createEconomicsAdminHandlers(deps: TDeps): THandlersOf<'economics-admin'> {
  return {
    adminEconomics: ({ input }) => getEconomics(deps, input),
    adminEconomicsExport: ({ input, lang }) => exportEconomics(deps, input, lang),
    adminEconomicsSummary: () => getEconomicsSummary(deps),
    adminEconomicsReconciliation: ({ input }) => getReconciliation(deps, input),
    adminEconomicsReconciliationImport: ({ input }) => importReconciliation(deps, input),
  };
}
