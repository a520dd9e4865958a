import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { readClaims } from './claims.service';
import { currentNotice, publishNotice, readTerms, toFullNotice, toNotice } from './site.service';

/** Run-time settings, terms of service and the notice. */
export function createSiteHandlers(deps: TDeps): THandlersOf<'site'> {
  return {
    async siteSettings() {
      return { help_center_url: deps.config.HELP_CENTER_URL ?? null, claims: await readClaims(deps.db) };
    },
    async siteTerms({ lang }) {
      return readTerms(deps, lang);
    },
    async siteNotice({ lang }) {
      const row = await currentNotice(deps);
      return row ? toNotice(row, lang) : null;
    },
  };
}

/** Operator calls: publishing the notice. */
export function createSiteAdminHandlers(deps: TDeps): THandlersOf<'site-admin'> {
  return {
    async adminNoticePublish({ input, user }) {
      return toFullNotice(await publishNotice(deps, user.id, input));
    },
    async adminNoticeCurrent() {
      const row = await currentNotice(deps);
      return row ? toFullNotice(row) : null;
    },
  };
}
