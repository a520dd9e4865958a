import { createHash, randomBytes } from 'node:crypto';
import type { TSignInResult } from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { findUserById } from '../accounts/accounts.repository';
import { renderSignInLinkMail } from '../mail/mail-templates';
import { sendMailQuietly } from '../mail/send-mail';
import { findAccountByLoginName, signIn, type TRequestMeta } from './auth.service';
import { findLatestSignInLinkAt, insertSignInLink, spendSignInLink } from './sign-in-guard.repository';

/**
 * One-time sign-in links, the owner's way past every sign-in throttle: the
 * link goes only to the account's own address, works once within 15 minutes,
 * and leads to the same sign-in as a password (two-factor still asks its
 * code). An account gets at most one link a minute however often it is asked
 * for, and earlier links stay good, so asking on someone's behalf neither
 * floods their mailbox nor takes their link away. Requests are limited per
 * address only: nobody can use up the owner's requests.
 */

const LINK_TTL_MIN = 15;
const LINK_SPACING_MS = 60_000;

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** POST /user/login/link: the same answer whether or not the account exists. */
export async function requestSignInLink(deps: TDeps, input: { email: string }, meta: TRequestMeta): Promise<void> {
  await deps.authLimiter.hit(`link:ip:${meta.ip}`);
  const user = await findAccountByLoginName(deps, input.email);
  if (!user || user.status !== 'active') return;
  const now = deps.clock.now();
  const latest = await findLatestSignInLinkAt(deps.db, user.id);
  if (latest && now.getTime() - latest.getTime() < LINK_SPACING_MS) return;
  const token = randomBytes(32).toString('base64url');
  await insertSignInLink(deps.db, {
    userId: user.id,
    tokenHash: hashOf(token),
    expiresAt: new Date(now.getTime() + LINK_TTL_MIN * 60_000),
    createdAt: now,
  });
  // In the fragment: the browser never sends it to any server, so no access log keeps it.
  const href = `${deps.config.publicUrl.replace(/\/$/, '')}/login/link#${token}`;
  await sendMailQuietly(
    deps,
    user.email,
    renderSignInLinkMail(meta.lang, { username: user.username, href, minutes: LINK_TTL_MIN }),
  );
}

/** POST /user/login/link/finish: spends the link (once) and signs its account in. */
export async function finishSignInLink(
  deps: TDeps,
  input: { token: string },
  meta: TRequestMeta,
): Promise<TSignInResult> {
  await deps.authLimiter.hit(`link-finish:ip:${meta.ip}`);
  const userId = await spendSignInLink(deps.db, hashOf(input.token), deps.clock.now());
  const user = userId === undefined ? undefined : await findUserById(deps.db, userId);
  if (!user) throw new AppError('SIGN_IN_LINK_INVALID');
  return signIn(deps, user, { method: 'email_link', ...meta });
}
