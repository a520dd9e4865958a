/**
 * The contract's values that need no schema (`@proxy/contract/light`): business constants,
 * the error and validation texts, languages, money formatting and the route table. Nothing
 * here imports zod or ipaddr.js, so a page that needs only these (the sign-in page, the
 * console's request layer) downloads none of the contract's schemas; route-table.test.ts keeps it so.
 */
export * from './constants';
export * from './errors';
export * from './i18n';
export * from './messages';
export * from './money';
export * from './route-table';
export type { TRouteCallDef } from './route-table-source';
export type { TRouteName, TRouteInput, TRouteOutput, TRouteRequest } from './routes';

/** Sign-in providers and the sign-in answer's two-factor test (the sign-in pages use them). */
export { OAUTH_PROVIDERS, isProofChallenge, isTotpChallenge, leadingZeroBits, proofInput } from './auth-sign-in';
