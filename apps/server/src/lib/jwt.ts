import { SignJWT, jwtVerify } from 'jose';
import { ACCESS_TOKEN_TTL_S } from '@proxy/contract';

const ISSUER = 'proxy-console-api';
const AUDIENCE = 'proxy-console';

/** Claims of an access token: the user, its token version and the session (user_sessions row). */
export type TAccessClaims = { userId: number; tokenVersion: number; sessionId: number; issuedAt: number };

/** What a new access token says. */
export type TAccessSubject = { userId: number; tokenVersion: number; sessionId: number };

// Subject: canonical decimal digits only ("2", never "2.0", "02", "2e0" or " 2").
const CANONICAL_ID = /^[1-9][0-9]{0,15}$/;

function isPositiveId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

// Tokens remembered as verified (a few MB at most); past it, the memory starts over.
const VERIFIED_CACHE_SIZE = 10_000;

/** Signs and verifies access tokens (HS256; expiry, audience, issuer, subject and session required). */
export function createJwt(secret: string, now: () => Date = () => new Date()) {
  const key = new TextEncoder().encode(secret);
  // Tokens whose signature and claims were checked: the HMAC is not computed again on every request.
  // Only the times (exp, nbf) depend on the moment; they are checked on every use, as jwtVerify does.
  const verified = new Map<string, { claims: TAccessClaims; exp: number; nbf: number | undefined }>();
  return {
    async sign(subject: TAccessSubject): Promise<string> {
      const iat = Math.floor(now().getTime() / 1000);
      return new SignJWT({ ver: subject.tokenVersion, sid: subject.sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(subject.userId))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ACCESS_TOKEN_TTL_S)
        .sign(key);
    },
    /**
     * Returns the claims, or null for a missing, malformed, forged or expired
     * token, and for a correctly signed one that lacks exp, aud, iss, an
     * integer subject or an integer session id (such a token was not made here).
     */
    async verify(token: string): Promise<TAccessClaims | null> {
      const nowS = Math.floor(now().getTime() / 1000);
      const known = verified.get(token);
      if (known) return known.nbf !== undefined && known.nbf > nowS ? null : known.exp <= nowS ? null : known.claims;
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          requiredClaims: ['exp', 'iss', 'aud', 'sub'],
          currentDate: now(),
        });
        if (typeof payload.sub !== 'string' || !CANONICAL_ID.test(payload.sub)) return null;
        const userId = Number(payload.sub);
        if (!isPositiveId(userId) || !isPositiveId(payload.sid)) return null;
        const version = payload.ver;
        if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0) return null;
        const claims = { userId, tokenVersion: version, sessionId: payload.sid, issuedAt: payload.iat ?? 0 };
        if (verified.size >= VERIFIED_CACHE_SIZE) verified.clear();
        verified.set(token, { claims, exp: payload.exp!, nbf: payload.nbf });
        return claims;
      } catch {
        return null;
      }
    },
  };
}

/** The token helper type. */
export type TJwt = ReturnType<typeof createJwt>;
