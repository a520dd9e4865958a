import { z } from 'zod';
import { defineRoute, type TRouteDef } from './route-def';
import { OAUTH_PROVIDERS, type TProofChallenge, type TSession, type TTotpChallenge } from './auth-sign-in';
import {
  zCode,
  zEmail,
  zFormBool,
  zIdParam,
  zInviteCode,
  zPassword,
  zUsername,
  withPasswordConfirm,
} from './validators';

/**
 * Sign-in, registration, codes, password reset and OAuth (spec sections 4, 5
 * and 7: the form posts without a token).
 */

/** Purposes of an e-mailed verification code. */
export const CODE_PURPOSES = ['register', 'reset', 'change_email'] as const;
/** A verification code purpose. */
export type TCodePurpose = (typeof CODE_PURPOSES)[number];

// The sign-in providers, the sign-in answers' types and isTotpChallenge are schema-free (the sign-in pages read them from the light entry).
export { OAUTH_PROVIDERS, isProofChallenge, isTotpChallenge, leadingZeroBits, proofInput } from './auth-sign-in';
export type {
  TLoginResult,
  TOAuthProvider,
  TProofChallenge,
  TSession,
  TSignInResult,
  TTotpChallenge,
} from './auth-sign-in';

/** How a session was created (shown in the user centre's session list). */
export const SIGN_IN_METHODS = ['password', 'register', 'github', 'google', 'email_link'] as const;
/** A sign-in method. */
export type TSignInMethod = (typeof SIGN_IN_METHODS)[number];

/** Answer of every sign-in: the access token. */
export const ZSession = z.object({
  token: z.string(),
  /** Seconds until the token expires. */
  expires_in: z.number().int(),
  /** True when this sign-in created the account. */
  is_new_user: z.boolean(),
}) satisfies z.ZodType<TSession>;

/** Lifetime of the two-factor step of a sign-in (the challenge), in seconds. */
export const TOTP_CHALLENGE_TTL_S = 300;
/** Number of single-use recovery codes made at enrolment (and on regeneration). */
export const TOTP_RECOVERY_CODE_COUNT = 10;

/**
 * A recovery code as shown ("xxxxx-xxxxx", lower-case letters and digits);
 * entered with or without the dash, spaces or upper case.
 */
export const TOTP_RECOVERY_CODE_PATTERN = /^[a-z0-9]{5}-?[a-z0-9]{5}$/;

const zTrimmedCode = z.string({ error: 'required' }).trim().min(1, { error: 'required' }).max(32, { error: 'tooLong' });

/** A current 6-digit authenticator code. */
export const zTotpCode = zTrimmedCode.regex(/^\d{6}$/, { error: 'totpFormat' });

/** A current 6-digit code or a recovery code (normalised: no spaces, lower case). */
export const zTotpOrRecoveryCode = zTrimmedCode
  .transform((v) => v.replace(/\s+/g, '').toLowerCase())
  .refine((v) => /^\d{6}$/.test(v) || TOTP_RECOVERY_CODE_PATTERN.test(v), { error: 'totpOrRecoveryFormat' });

/**
 * Answer of a sign-in when the account has two-factor on: no session yet;
 * POST /user/login/totp with the challenge and a code creates it.
 */
export const ZTotpChallenge = z.object({
  totp_required: z.literal(true),
  /** Opaque, short-lived, bound to the account and the sign-in method. */
  challenge: z.string(),
  /** Seconds the challenge stays valid. */
  expires_in: z.number().int(),
}) satisfies z.ZodType<TTotpChallenge>;

/** Answer of a sign-in call: the session, or the two-factor step. */
export const ZSignInResult = z.union([ZSession, ZTotpChallenge]);

/**
 * Answer of a password sign-in past the account's budget of failures: the
 * password was not checked; sign in again with `proof` and `nonce` such that
 * SHA-256(`${challenge}:${nonce}`) starts with `bits` zero bits.
 */
export const ZProofChallenge = z.object({
  proof_required: z.literal(true),
  challenge: z.string(),
  bits: z.number().int(),
  expires_in: z.number().int(),
}) satisfies z.ZodType<TProofChallenge>;

/** Answer of POST /user/login: the session, the two-factor step or a proof of work to bring. */
export const ZLoginResult = z.union([ZSession, ZTotpChallenge, ZProofChallenge]);

/** Two-factor state of the signed-in user (user centre). */
export const ZTotpStatus = z.object({
  enabled: z.boolean(),
  /** When two-factor was turned on (ISO 8601), null when off. */
  enabled_at: z.string().nullable(),
  /** Unused recovery codes left. */
  recovery_codes_left: z.number().int(),
  /** The operator area requires two-factor (shown to operators). */
  admin_required: z.boolean(),
});
/** Parsed two-factor state. */
export type TTotpStatus = z.infer<typeof ZTotpStatus>;

/** Start of enrolment: a new secret, as an otpauth:// URL (QR code) and as text. */
export const ZTotpSetup = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
});
/** Parsed enrolment start. */
export type TTotpSetup = z.infer<typeof ZTotpSetup>;

/** Recovery codes, shown once. */
export const ZTotpRecoveryCodes = z.object({ recovery_codes: z.array(z.string()) });
/** Parsed recovery codes. */
export type TTotpRecoveryCodes = z.infer<typeof ZTotpRecoveryCodes>;

/**
 * One live session of the signed-in user (GET /user/sessions): how it was
 * created, the device (User-Agent, at most 256 characters), the address of
 * the sign-in or of its latest use, and times as ISO 8601.
 */
export const ZSessionInfo = z.object({
  id: z.number().int(),
  method: z.enum(SIGN_IN_METHODS),
  user_agent: z.string(),
  ip: z.string(),
  created_at: z.string(),
  /** Updated at most once a minute while the session is used. */
  last_used_at: z.string(),
  /** True for the session of the token that made the call. */
  is_current: z.boolean(),
});
/** Parsed session of the session list. */
export type TSessionInfo = z.infer<typeof ZSessionInfo>;

/** Register form (spec section 5). */
export const ZRegisterForm = withPasswordConfirm(
  z.object({
    username: zUsername,
    email: zEmail,
    password: zPassword,
    confirm_password: z.string({ error: 'required' }),
    code: zCode,
    invite_code: z.union([zInviteCode, z.literal('')]).optional(),
  }),
);

/** Reset-password form (spec section 5). */
export const ZResetPasswordForm = withPasswordConfirm(
  z.object({
    email: zEmail,
    code: zCode,
    password: zPassword,
    confirm_password: z.string({ error: 'required' }),
  }),
);

/** Login form: e-mail or username, password, remember me. */
export const ZLoginForm = z.object({
  email: z.string({ error: 'loginRequired' }).trim().min(1, { error: 'loginRequired' }).max(254, { error: 'tooLong' }),
  password: z.string({ error: 'loginRequired' }).min(1, { error: 'loginRequired' }).max(128, { error: 'passwordMax' }),
  remember: zFormBool,
  /** A proof-of-work challenge of an earlier answer (proof_required) and its nonce. */
  proof: z.string().trim().max(512).optional(),
  nonce: z.string().trim().max(64).optional(),
});

/** POST /user/login/link: the account (e-mail or username) to e-mail a one-time sign-in link to. */
export const ZLoginLinkForm = z.object({
  email: z.string({ error: 'loginRequired' }).trim().min(1, { error: 'loginRequired' }).max(254, { error: 'tooLong' }),
});

/** POST /user/login/link/finish: the token of an e-mailed sign-in link. */
export const ZLoginLinkFinishForm = z.object({
  token: z.string({ error: 'loginRequired' }).trim().min(1, { error: 'loginRequired' }).max(128, { error: 'tooLong' }),
});

const zOAuthVerify = z
  .object({
    code: z.string().trim().max(2048).optional(),
    state: z.string().trim().max(256).optional(),
    access_token: z.string().trim().max(4096).optional(),
    redirect_uri: z.string().trim().max(2048).optional(),
    /** Needed only when the sign-in creates an account and REGISTRATION_INVITE_REQUIRED is on. */
    invite_code: z.union([zInviteCode, z.literal('')]).optional(),
  })
  .refine((v) => (v.code && v.state) || v.access_token, { error: 'required', path: ['code'] });

/** Codes, registration, password sign-in, reset, refresh and sign-out. */
export const AUTH_ROUTES = {
  userLogin: defineRoute({
    method: 'POST',
    path: '/user/login',
    auth: 'none',
    body: 'form',
    summary: 'Sign in with e-mail (or username) and password',
    tag: 'auth',
    input: ZLoginForm,
    output: ZLoginResult,
  }),
  userLoginLink: defineRoute({
    method: 'POST',
    path: '/user/login/link',
    auth: 'none',
    body: 'form',
    summary:
      "E-mail a one-time sign-in link (valid 15 minutes) to the account's address; the same answer whether or not the account exists",
    tag: 'auth',
    input: ZLoginLinkForm,
  }),
  userLoginLinkFinish: defineRoute({
    method: 'POST',
    path: '/user/login/link/finish',
    auth: 'none',
    body: 'form',
    summary: 'Sign in with the token of an e-mailed sign-in link (once); two-factor still applies',
    tag: 'auth',
    input: ZLoginLinkFinishForm,
    output: ZSignInResult,
  }),
  userRegister: defineRoute({
    method: 'POST',
    path: '/user/register',
    auth: 'none',
    body: 'form',
    summary: 'Register with an e-mailed code',
    tag: 'auth',
    input: ZRegisterForm,
    output: ZSignInResult,
  }),
  userLoginTotp: defineRoute({
    method: 'POST',
    path: '/user/login/totp',
    auth: 'none',
    body: 'form',
    summary: 'Finish a two-factor sign-in with the challenge and a current code or a recovery code',
    tag: 'auth',
    input: z.object({
      challenge: z.string({ error: 'required' }).trim().min(1, { error: 'required' }).max(4096, { error: 'tooLong' }),
      code: zTotpOrRecoveryCode,
    }),
    output: ZSession,
  }),
  userTotpStatus: defineRoute({
    method: 'GET',
    path: '/user/totp',
    auth: 'user',
    summary: 'Two-factor state of the signed-in user',
    tag: 'auth',
    output: ZTotpStatus,
  }),
  userTotpSetup: defineRoute({
    method: 'POST',
    path: '/user/totp/setup',
    auth: 'user',
    summary: 'Start two-factor enrolment: a new secret (otpauth:// URL and text)',
    tag: 'auth',
    output: ZTotpSetup,
  }),
  userTotpEnable: defineRoute({
    method: 'POST',
    path: '/user/totp/enable',
    auth: 'user',
    summary: 'Turn two-factor on with a current code; answers the 10 recovery codes, shown once',
    tag: 'auth',
    input: z.object({ code: zTotpCode }),
    output: ZTotpRecoveryCodes,
  }),
  userTotpDisable: defineRoute({
    method: 'POST',
    path: '/user/totp/disable',
    auth: 'user',
    summary: 'Turn two-factor off with a current code or a recovery code',
    tag: 'auth',
    input: z.object({ code: zTotpOrRecoveryCode }),
  }),
  userTotpRecoveryCodes: defineRoute({
    method: 'POST',
    path: '/user/totp/recovery_codes',
    auth: 'user',
    summary: 'New recovery codes (the old ones stop working) with a current code',
    tag: 'auth',
    input: z.object({ code: zTotpCode }),
    output: ZTotpRecoveryCodes,
  }),
  userCode: defineRoute({
    method: 'POST',
    path: '/user/code',
    auth: 'none',
    body: 'form',
    summary: 'E-mail a 6-digit verification code',
    tag: 'auth',
    input: z.object({ email: zEmail, type: z.enum(CODE_PURPOSES, { error: 'invalidValue' }) }),
    output: z.object({ resend_after: z.number().int() }),
  }),
  userResetPassword: defineRoute({
    method: 'POST',
    path: '/user/reset_password',
    auth: 'none',
    body: 'form',
    summary: 'Set a new password with an e-mailed code',
    tag: 'auth',
    input: ZResetPasswordForm,
  }),
  userRefreshToken: defineRoute({
    method: 'GET',
    path: '/user/refresh_token',
    auth: 'user',
    summary: 'A fresh access token for the current session',
    tag: 'auth',
    output: z.object({ token: z.string(), expires_in: z.number().int() }),
  }),
  userLogout: defineRoute({
    method: 'POST',
    path: '/user/logout',
    auth: 'user',
    summary: 'Sign out: ends the session of this token only',
    tag: 'auth',
  }),
  userLogoutAll: defineRoute({
    method: 'POST',
    path: '/user/logout/all',
    auth: 'user',
    summary: 'Sign out everywhere: ends every session of the user',
    tag: 'auth',
  }),
  userSessions: defineRoute({
    method: 'GET',
    path: '/user/sessions',
    auth: 'user',
    summary: "The user's live sessions, newest first",
    tag: 'auth',
    output: z.array(ZSessionInfo),
  }),
  userSessionEnd: defineRoute({
    method: 'POST',
    path: '/user/sessions/end/:id',
    auth: 'user',
    summary: "End one of the user's own sessions (another user's session answers 404)",
    tag: 'auth',
    input: zIdParam,
  }),
} as const satisfies Record<string, TRouteDef>;

/** GitHub and Google sign-in. */
export const OAUTH_ROUTES = {
  userGoogleVerify: defineRoute({
    method: 'POST',
    path: '/user/google/verify',
    auth: 'none',
    body: 'form',
    summary: 'Finish Google sign-in with an authorization code (and state) or an access token',
    tag: 'auth',
    input: zOAuthVerify,
    output: ZSignInResult,
  }),
  userGithubVerify: defineRoute({
    method: 'POST',
    path: '/user/github/verify',
    auth: 'none',
    body: 'form',
    summary: 'Finish GitHub sign-in with an authorization code and state',
    tag: 'auth',
    input: zOAuthVerify,
    output: ZSignInResult,
  }),
  userOAuthProviders: defineRoute({
    method: 'GET',
    path: '/user/oauth/providers',
    auth: 'none',
    summary: 'Sign-in options of this installation',
    tag: 'auth',
    output: z.object({ github: z.boolean(), google: z.boolean(), invite_required: z.boolean() }),
  }),
  userOAuthAuthorize: defineRoute({
    method: 'GET',
    path: '/user/oauth/:provider/authorize',
    auth: 'none',
    summary: 'Start GitHub or Google sign-in: authorization URL with state and PKCE',
    tag: 'auth',
    input: z.object({ provider: z.enum(OAUTH_PROVIDERS), redirect_uri: z.string().trim().url().max(2048) }),
    output: z.object({ url: z.string(), state: z.string() }),
  }),
} as const satisfies Record<string, TRouteDef>;
