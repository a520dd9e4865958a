import { SignJWT, jwtVerify } from 'jose';
import { ACCESS_TOKEN_TTL_S } from '@proxy/contract';

const ISSUER = 'proxy-console-api';
const AUDIENCE = 'proxy-console';

/** Claims of an access token. */
export type TAccessClaims = { userId: number; tokenVersion: number; issuedAt: number };

/** Signs and verifies access tokens (HS256, audience, issuer and expiry checked). */
export function createJwt(secret: string, now: () => Date = () => new Date()) {
  const key = new TextEncoder().encode(secret);
  return {
    async sign(userId: number, tokenVersion: number): Promise<string> {
      const iat = Math.floor(now().getTime() / 1000);
      return new SignJWT({ ver: tokenVersion })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(userId))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ACCESS_TOKEN_TTL_S)
        .sign(key);
    },
    /** Returns the claims, or null for a missing, malformed, forged or expired token. */
    async verify(token: string): Promise<TAccessClaims | null> {
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          currentDate: now(),
        });
        const userId = Number(payload.sub);
        if (!Number.isSafeInteger(userId) || typeof payload.ver !== 'number') return null;
        return { userId, tokenVersion: payload.ver, issuedAt: payload.iat ?? 0 };
      } catch {
        return null;
      }
    },
  };
}

/** The token helper type. */
export type TJwt = ReturnType<typeof createJwt>;
