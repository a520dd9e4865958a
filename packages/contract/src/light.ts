/**
 * The contract's values that need no schema (`@proxy/contract/light`): business constants,
 * the error and validation texts, languages, money formatting and the route table. Nothing
 * here imports zod or ipaddr.js, so a page that needs only these (the sign-in page, the
 * console's request layer) downloads none of the contract's schemas; light.test.ts keeps it so.
 */
import type { TSignInResult, TTotpChallenge } from './auth';

export * from './constants';
export * from './errors';
export * from './i18n';
export * from './messages';
export * from './money';
export * from './route-table';
export type { TRouteCallDef } from './route-table-source';
export type { TRouteName, TRouteInput, TRouteOutput, TRouteRequest } from './routes';

/** Sign-in providers (the auth module's schemas and routes use this list). */
export const OAUTH_PROVIDERS = ['github', 'google'] as const;

/** True when a sign-in answer asks for the two-factor code. */
export function isTotpChallenge(result: TSignInResult): result is TTotpChallenge {
  return 'totp_required' in result && result.totp_required === true;
}
