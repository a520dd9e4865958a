import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import {
  addReleaseFile,
  createRelease,
  listReleasesForOperator,
  removeRelease,
  removeReleaseFile,
} from './downloads-releases.service';

/** The operator's software releases: list, publish (files checked at their links), delete, add and remove a file. */
export function createDownloadAdminHandlers(deps: TDeps): THandlersOf<'downloads-admin'> {
  return {
    async adminSoftwareReleaseList() {
      return listReleasesForOperator(deps);
    },
    async adminSoftwareReleaseCreate({ user, input }) {
      return createRelease(deps, user.id, input);
    },
    async adminSoftwareReleaseDelete({ input }) {
      return removeRelease(deps, input.id);
    },
    async adminSoftwareFileAdd({ input: { id, ...file } }) {
      return addReleaseFile(deps, id, file);
    },
    async adminSoftwareFileRemove({ input }) {
      return removeReleaseFile(deps, input.id, input.file_id);
    },
  };
}
