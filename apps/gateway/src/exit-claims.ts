import type { TDb } from '@proxy/db';
import { claimExit, releaseExit } from './exit-claims.repository';

/**
 * Exits not shared between an account's live sticky sessions (docs/gateway.md, "Exits not shared"): before a sticky
 * session is carried by an exit whose address is known (an inventory exit, or the address a pool reported), it claims
 * that exit for its account in session_exit_claims until its window ends. A claim held by another live session of
 * the account is refused; the session then moves to its next candidate. Shared by every gateway through the
 * database, so the rule holds across processes and hosts; each process remembers the claims its sessions hold, so
 * a session's later connections cost nothing. A database that cannot be reached does not stop traffic: the claim is
 * granted (and the error reported).
 */
export function createExitClaims(options: { db: TDb; now: () => number; onError: (err: unknown) => void }) {
  const { db, now } = options;
  // Claims this process's sessions hold: session key -> exit key and its expiry.
  const held = new Map<string, { exitKey: string; expiresAt: number }>();

  function forgetExpired(t: number): void {
    for (const [key, claim] of held) if (claim.expiresAt <= t) held.delete(key);
  }

  return {
    /** Claims `exitKey` ('exit:ID' or 'ip:ADDRESS') for the session until `expiresAt`; false: another session holds it. */
    async claim(userId: number, sessionKey: string, exitKey: string, expiresAt: number): Promise<boolean> {
      const t = now();
      const mine = held.get(sessionKey);
      if (mine && mine.exitKey === exitKey && mine.expiresAt > t) return true;
      let isGranted: boolean;
      try {
        isGranted = await claimExit(db, { userId, exitKey, sessionKey, expiresAt, now: t });
      } catch (err) {
        options.onError(err);
        return true;
      }
      if (!isGranted) return false;
      if (held.size > 10_000) forgetExpired(t);
      held.set(sessionKey, { exitKey, expiresAt });
      // The session moved: the exit it held is free for the account's other sessions.
      if (mine && mine.exitKey !== exitKey)
        await releaseExit(db, userId, mine.exitKey, sessionKey).catch(options.onError);
      return true;
    },
  };
}

/** The exit claims type. */
export type TExitClaims = ReturnType<typeof createExitClaims>;
