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
export function isTotpChallenge(result: TSignInResult | TProofChallenge): result is TTotpChallenge {
  return 'totp_required' in result && result.totp_required === true;
}

/**
 * Parsed answer of a password sign-in past its account's budget of failures
 * (ZProofChallenge in auth.ts): no password was checked; send the sign-in
 * again with `proof` (this challenge) and a `nonce` such that
 * SHA-256(`${challenge}:${nonce}`) starts with `bits` zero bits.
 */
export type TProofChallenge = {
  proof_required: true;
  challenge: string;
  bits: number;
  /** Seconds the challenge stays valid. */
  expires_in: number;
};

/** Parsed answer of POST /user/login: a session, the two-factor step or a proof of work to bring. */
export type TLoginResult = TSignInResult | TProofChallenge;

/** True when a sign-in answer asks for a proof of work. */
export function isProofChallenge(result: TLoginResult): result is TProofChallenge {
  return 'proof_required' in result && result.proof_required === true;
}

/** What a proof of work hashes: the challenge and the nonce. */
export function proofInput(challenge: string, nonce: string): string {
  return `${challenge}:${nonce}`;
}

/** Leading zero bits of a digest (a proof of work of `bits` needs at least that many). */
export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}
