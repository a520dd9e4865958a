import type { TDeps } from '../../lib/deps';
import type { TMailContent } from './mail-templates';

/** Sends a mail after a committed change: a failed send is logged, never undoes the change. */
export async function sendMailQuietly(
  deps: Pick<TDeps, 'mailer' | 'log'>,
  to: string,
  content: TMailContent,
): Promise<void> {
  try {
    await deps.mailer.send({ to, ...content });
  } catch (error) {
    deps.log.error({ err: error, subject: content.subject }, 'e-mail failed');
  }
}
