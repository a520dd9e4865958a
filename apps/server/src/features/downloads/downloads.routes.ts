import send from '@fastify/send';
import type { TDeps } from '../../lib/deps';
import { AppError } from '../../lib/app-error';
import { RawReply, type THandlersOf } from '../../lib/routing';
import {
  assertSoftwareRole,
  checkDownloadTicket,
  createDownloadLink,
  downloadContentType,
  listSoftware,
} from './downloads.service';

/** Software download: the list, a link, and the file (with ranges and its content type). */
export function createDownloadHandlers(deps: TDeps): THandlersOf<'downloads'> {
  return {
    async softwareList({ user, lang }) {
      assertSoftwareRole(user);
      return listSoftware(deps, lang);
    },
    async softwareLink({ user, input }) {
      return createDownloadLink(deps, user, input.file);
    },
    async softwareFile({ input, req }) {
      await checkDownloadTicket(deps, input.file, input.ticket);
      const sent = await send(req.raw, `/${encodeURIComponent(input.file)}`, {
        root: deps.config.downloadsDir,
        dotfiles: 'deny',
        index: false,
        cacheControl: false,
        acceptRanges: true,
      });
      if (sent.type !== 'file' && sent.statusCode !== 416) {
        sent.stream.destroy();
        throw new AppError('SOFTWARE_FILE_MISSING');
      }
      const { 'Content-Type': byExtension, ...headers } = sent.headers;
      const contentType =
        sent.type === 'file' ? downloadContentType(input.file, byExtension) : (byExtension ?? 'text/plain');
      return new RawReply(sent.stream, contentType, input.file, { status: sent.statusCode, headers });
    },
  };
}
