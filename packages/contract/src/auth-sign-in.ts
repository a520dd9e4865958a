/**
 * The sign-in pages' part of the auth domain, without schemas: the OAuth providers and the answer of a
 * sign-in. No import, so `@proxy/contract/light` carries it without zod; auth.ts declares the
 * schemas of these answers (checked against the types here) and re-exports the rest.
 */

/** Sign-in providers (the auth module's schemas and routes use this list). */
export const OAUTH_PROVIDERS = ['github', 'google'] as const;
/** A sign-in provider. */
export type TOAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/** Parsed sign-in answer (ZSession in auth.ts). */
export type TSession = {
  token: string;
  /** Seconds until the token expires. */
  expires_in: number;
  /** True when this sign-in created the account. */
  is_new_user: boolean;
};

/** Parsed two-factor step of a sign-in (ZTotpChallenge in auth.ts). */
export type TTotpChallenge = {
  totp_required: true;
  /** Opaque, short-lived, bound to the account and the sign-in method. */
  challenge: string;
  /** Seconds the challenge stays valid. */
  expires_in: number;
};

/** Parsed sign-in answer (session or two-factor step; ZSignInResult in auth.ts). */
export type TSignInResult = TSession | TTotpChallenge;

/** True when a sign-in answer asks for the two-factor code. */
export function isTotpChallenge(result: TSignInResult): result is TTotpChallenge {
  return 'totp_required' in result && result.totp_required === true;
}
