import { CodeChallengeMethod, OAuth2Client, generateCodeVerifier, generateState } from 'arctic';
import { z } from 'zod';
import type { TOAuthProvider, TSignInResult } from '@proxy/contract';
import type { TServerConfig } from '../../config/env';
import { AppError, isAppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { uniqueViolationOf } from '../../lib/database-errors';
import { findUserByEmail, findUserById, type TUserRow } from '../accounts/accounts.repository';
import { createAccount, signIn, type TRequestMeta } from './auth.service';
import {
  deleteExpiredOAuthStates,
  findOAuthAccount,
  insertOAuthAccount,
  insertOAuthState,
  takeOAuthState,
} from './oauth.repository';

/** How long a started sign-in may take before its state is void. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
/** Upper bound of one call to a provider, so a hanging provider cannot hold a request. */
const PROVIDER_TIMEOUT_MS = 10_000;
/** GitHub refuses API calls without a User-Agent. */
const USER_AGENT = 'ProxyHub-Console';

/** Endpoints and credentials of one provider. */
type TProviderSettings = {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  scopes: string[];
};

/** What the sign-in rules need from a provider account. */
type TProviderProfile = {
  providerUserId: string;
  /** Verified, lower-cased. */
  email: string;
};

/** Fields of the verify form. */
export type TOAuthVerifyInput = {
  code?: string;
  state?: string;
  access_token?: string;
  invite_code?: string;
};

/** Settings of a provider, or undefined when its client id or secret is missing. */
function getProviderSettings(config: TServerConfig, provider: TOAuthProvider): TProviderSettings | undefined {
  if (provider === 'github') {
    if (!config.GITHUB_CLIENT_ID || !config.GITHUB_CLIENT_SECRET) return undefined;
    return {
      clientId: config.GITHUB_CLIENT_ID,
      clientSecret: config.GITHUB_CLIENT_SECRET,
      authorizeUrl: config.OAUTH_GITHUB_AUTHORIZE_URL,
      tokenUrl: config.OAUTH_GITHUB_TOKEN_URL,
      scopes: ['read:user', 'user:email'],
    };
  }
  if (!config.GOOGLE_CLIENT_ID || !config.GOOGLE_CLIENT_SECRET) return undefined;
  return {
    clientId: config.GOOGLE_CLIENT_ID,
    clientSecret: config.GOOGLE_CLIENT_SECRET,
    authorizeUrl: config.OAUTH_GOOGLE_AUTHORIZE_URL,
    tokenUrl: config.OAUTH_GOOGLE_TOKEN_URL,
    scopes: ['openid', 'email', 'profile'],
  };
}

function requireProviderSettings(config: TServerConfig, provider: TOAuthProvider): TProviderSettings {
  const settings = getProviderSettings(config, provider);
  if (!settings) throw new AppError('OAUTH_NOT_CONFIGURED');
  return settings;
}

/** Which sign-in options the console shows: a provider without credentials is hidden. */
export function listOAuthProviders(config: TServerConfig): {
  github: boolean;
  google: boolean;
  invite_required: boolean;
} {
  return {
    github: getProviderSettings(config, 'github') !== undefined,
    google: getProviderSettings(config, 'google') !== undefined,
    invite_required: config.REGISTRATION_INVITE_REQUIRED,
  };
}

/** True when the provider may send the browser back to this address: our own origin or an allowed console origin. */
export function isAllowedRedirectUri(config: TServerConfig, redirectUri: string): boolean {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const origins = new Set([
    new URL(config.publicUrl).origin,
    ...config.CORS_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean)
      .map((o) => {
        try {
          return new URL(o).origin;
        } catch {
          return o;
        }
      }),
  ]);
  return origins.has(url.origin);
}

/**
 * Starts a sign-in: stores a random state with a PKCE verifier for 10 minutes
 * and answers the provider's authorization URL.
 */
export async function startOAuthSignIn(
  deps: TDeps,
  provider: TOAuthProvider,
  redirectUri: string,
  ip: string,
): Promise<{ url: string; state: string }> {
  const settings = requireProviderSettings(deps.config, provider);
  // Each start stores a row: bounded per address like the other sign-in calls.
  await deps.authLimiter.hit(`oauth-start:ip:${ip}`);
  if (!isAllowedRedirectUri(deps.config, redirectUri)) {
    throw new AppError('BAD_REQUEST', undefined, [{ path: 'redirect_uri', message: 'invalidValue' }]);
  }
  const state = generateState();
  const codeVerifier = generateCodeVerifier();
  const now = deps.clock.now();
  await deleteExpiredOAuthStates(deps.db, now);
  await insertOAuthState(deps.db, {
    state,
    provider,
    codeVerifier,
    redirectUri,
    expiresAt: new Date(now.getTime() + OAUTH_STATE_TTL_MS),
  });
  const client = new OAuth2Client(settings.clientId, settings.clientSecret, redirectUri);
  const url = client.createAuthorizationURLWithPKCE(
    settings.authorizeUrl,
    state,
    CodeChallengeMethod.S256,
    codeVerifier,
    settings.scopes,
  );
  return { url: url.toString(), state };
}

/** Rejects after PROVIDER_TIMEOUT_MS. */
function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('provider timed out')), PROVIDER_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** GET a provider JSON resource with a bearer token; non-2xx answers are failures. */
async function fetchProviderJson(url: string, accessToken?: string): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': USER_AGENT };
  if (accessToken) headers.authorization = `Bearer ${accessToken}`;
  const res = await fetch(url, { headers, redirect: 'error', signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`${new URL(url).pathname} answered HTTP ${res.status}`);
  }
  return res.json();
}

/** Appends a path to an API base URL (keeping any path the base has). */
function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}

const ZGithubUser = z.object({ id: z.union([z.number(), z.string()]) });
const ZGithubEmails = z.array(z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }));
const zGoogleBool = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);
const ZGoogleUserinfo = z.object({
  sub: z.string().min(1),
  email: z.string().optional(),
  email_verified: zGoogleBool.optional(),
});
const ZGoogleTokeninfo = z.object({
  aud: z.string().optional(),
  azp: z.string().optional(),
  sub: z.string().optional(),
});

/** Exchanges an authorization code (with the stored verifier and redirect URI) for an access token. */
async function exchangeCode(
  settings: TProviderSettings,
  code: string,
  codeVerifier: string,
  redirectUri: string,
): Promise<string> {
  const client = new OAuth2Client(settings.clientId, settings.clientSecret, redirectUri);
  const tokens = await withTimeout(client.validateAuthorizationCode(settings.tokenUrl, code, codeVerifier));
  // GitHub reports a bad code as HTTP 200 with an "error" field: accessToken() throws then.
  return tokens.accessToken();
}

/** The GitHub account behind an access token, with its primary verified e-mail. */
async function fetchGithubProfile(config: TServerConfig, accessToken: string): Promise<TProviderProfile> {
  const user = ZGithubUser.parse(await fetchProviderJson(joinUrl(config.OAUTH_GITHUB_API_URL, '/user'), accessToken));
  const emails = ZGithubEmails.parse(
    await fetchProviderJson(joinUrl(config.OAUTH_GITHUB_API_URL, '/user/emails'), accessToken),
  );
  const primary = emails.find((e) => e.primary && e.verified);
  if (!primary) throw new AppError('OAUTH_EMAIL_UNVERIFIED');
  return { providerUserId: String(user.id), email: primary.email.trim().toLowerCase() };
}

/** The Google account behind an access token; the e-mail must be verified. */
async function fetchGoogleProfile(config: TServerConfig, accessToken: string): Promise<TProviderProfile> {
  const info = ZGoogleUserinfo.parse(await fetchProviderJson(config.OAUTH_GOOGLE_USERINFO_URL, accessToken));
  if (!info.email || info.email_verified !== true) throw new AppError('OAUTH_EMAIL_UNVERIFIED');
  return { providerUserId: info.sub, email: info.email.trim().toLowerCase() };
}

/**
 * Google's tokeninfo endpoint, next to its token endpoint
 * (https://oauth2.googleapis.com/tokeninfo), so it follows OAUTH_GOOGLE_TOKEN_URL.
 */
function googleTokeninfoUrl(config: TServerConfig): string {
  return new URL('tokeninfo', config.OAUTH_GOOGLE_TOKEN_URL).toString();
}

/**
 * A token from the browser must have been issued to our client: otherwise any
 * site holding a user's Google token could sign in as them here.
 */
async function checkGoogleTokenAudience(
  config: TServerConfig,
  clientId: string,
  accessToken: string,
): Promise<string | undefined> {
  const url = new URL(googleTokeninfoUrl(config));
  url.searchParams.set('access_token', accessToken);
  const info = ZGoogleTokeninfo.parse(await fetchProviderJson(url.toString()));
  if (info.aud !== clientId && info.azp !== clientId) throw new Error('access token was issued to another client');
  return info.sub;
}

/** Proves the caller is the provider account and answers it (no database work). */
async function resolveProfile(
  deps: TDeps,
  provider: TOAuthProvider,
  input: TOAuthVerifyInput,
): Promise<TProviderProfile> {
  const settings = requireProviderSettings(deps.config, provider);
  const { config } = deps;
  if (input.code && input.state) {
    // A state is our own base64url string: anything else (a NUL PostgreSQL cannot even compare) is no pending sign-in.
    if (!/^[A-Za-z0-9_-]+$/.test(input.state)) throw new AppError('OAUTH_FAILED');
    const pending = await takeOAuthState(deps.db, input.state);
    if (!pending || pending.provider !== provider || pending.expiresAt.getTime() <= deps.clock.now().getTime()) {
      throw new AppError('OAUTH_FAILED');
    }
    return callProvider(deps, provider, async () => {
      const accessToken = await exchangeCode(settings, input.code!, pending.codeVerifier, pending.redirectUri);
      return provider === 'github' ? fetchGithubProfile(config, accessToken) : fetchGoogleProfile(config, accessToken);
    });
  }
  if (provider === 'google' && input.access_token) {
    const accessToken = input.access_token;
    return callProvider(deps, provider, async () => {
      const tokenSub = await checkGoogleTokenAudience(config, settings.clientId, accessToken);
      const profile = await fetchGoogleProfile(config, accessToken);
      if (tokenSub && tokenSub !== profile.providerUserId) throw new Error('tokeninfo and userinfo disagree');
      return profile;
    });
  }
  throw new AppError('BAD_REQUEST', undefined, [{ path: input.code ? 'state' : 'code', message: 'required' }]);
}

/** Runs provider calls; any failure but our own rule errors becomes OAUTH_FAILED, its cause logged only. */
async function callProvider(
  deps: TDeps,
  provider: TOAuthProvider,
  run: () => Promise<TProviderProfile>,
): Promise<TProviderProfile> {
  try {
    return await run();
  } catch (error) {
    if (isAppError(error)) throw error;
    deps.log.warn({ provider, err: error }, 'oauth provider call failed');
    throw new AppError('OAUTH_FAILED');
  }
}

/**
 * The account of a provider identity: the linked one; else the account with
 * the same verified e-mail (then linked); else a new account.
 */
async function findOrCreateAccount(
  deps: TDeps,
  provider: TOAuthProvider,
  profile: TProviderProfile,
  inviteCode: string | undefined,
): Promise<{ user: TUserRow; isNewUser: boolean }> {
  const attempt = () =>
    deps.db.transaction(async (tx) => {
      const link = await findOAuthAccount(tx, provider, profile.providerUserId);
      const linked = link ? await findUserById(tx, link.userId) : undefined;
      if (linked) return { user: linked, isNewUser: false };
      const existing = await findUserByEmail(tx, profile.email);
      if (existing) {
        if (existing.status === 'active') {
          await insertOAuthAccount(tx, {
            provider,
            providerUserId: profile.providerUserId,
            userId: existing.id,
            email: profile.email,
          });
        }
        return { user: existing, isNewUser: false };
      }
      if (deps.config.REGISTRATION_INVITE_REQUIRED && !inviteCode) {
        throw new AppError('BAD_REQUEST', undefined, [{ path: 'invite_code', message: 'inviteRequired' }]);
      }
      const user = await createAccount(deps, { email: profile.email, passwordHash: null, inviteCode }, tx);
      await insertOAuthAccount(tx, {
        provider,
        providerUserId: profile.providerUserId,
        userId: user.id,
        email: profile.email,
      });
      return { user, isNewUser: true };
    });
  try {
    return await attempt();
  } catch (error) {
    // Two first sign-ins of one person raced: the loser finds what the winner made.
    if (isAppError(error, 'EMAIL_TAKEN') || uniqueViolationOf(error) !== undefined) return attempt();
    throw error;
  }
}

/**
 * Finishes GitHub or Google sign-in: checks the single-use state (or, for
 * Google, the access token), reads the verified e-mail, links or creates the
 * account and answers a session.
 */
export async function finishOAuthSignIn(
  deps: TDeps,
  provider: TOAuthProvider,
  input: TOAuthVerifyInput,
  meta: TRequestMeta,
): Promise<TSignInResult> {
  requireProviderSettings(deps.config, provider);
  // Each finish makes calls to the provider: bounded per address.
  await deps.authLimiter.hit(`oauth-finish:ip:${meta.ip}`);
  const profile = await resolveProfile(deps, provider, input);
  const inviteCode = input.invite_code?.trim() || undefined;
  const { user, isNewUser } = await findOrCreateAccount(deps, provider, profile, inviteCode);
  if (user.status !== 'active') throw new AppError('ACCOUNT_DISABLED');
  return signIn(deps, user, { method: provider, ...meta }, { isNewUser });
}
