import type { TOAuthProvider, TSignInResult, TTotpChallenge } from '@proxy/contract';

/*
 * The contract's isTotpChallenge and OAUTH_PROVIDERS live in its auth module
 * beside the zod schemas; importing them would put zod on the public pages.
 * These copies read the same answers (the types still come from the contract).
 */

/** True when a sign-in answer asks for the two-factor code (the contract's isTotpChallenge). */
export function isTotpChallenge(result: TSignInResult): result is TTotpChallenge {
  return 'totp_required' in result && result.totp_required === true;
}

/** The sign-in providers of the contract, in its order. */
export const OAUTH_PROVIDERS = ['github', 'google'] as const satisfies readonly TOAuthProvider[];
