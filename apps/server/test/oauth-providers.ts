import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  OAuth2Issuer,
  OAuth2Service,
  type MutableRedirectUri,
  type MutableResponse,
  type MutableToken,
  type TokenRequestIncomingMessage,
} from 'oauth2-mock-server';

/**
 * Local stand-ins for GitHub and Google sign-in, for route tests and the
 * Chromium e2e suite: real HTTP servers on 127.0.0.1 with random ports.
 * Google is oauth2-mock-server (authorize, token, userinfo) plus a tokeninfo
 * endpoint; GitHub is a small node:http server with the endpoints we call.
 */

/** A person signing in at a local provider. */
export type TLocalOAuthUser = {
  /** Provider user id (GitHub's numeric id, Google's "sub"). */
  id: string | number;
  email: string;
  /** Whether the provider vouches for the e-mail address. */
  verified: boolean;
  /** GitHub login. */
  login?: string;
  /** Display name. */
  name?: string;
};

/** Client credentials the local providers accept. */
export type TLocalOAuthOptions = {
  githubClientId?: string;
  githubClientSecret?: string;
  googleClientId?: string;
  googleClientSecret?: string;
  /** Who signs in until set otherwise. */
  githubUser?: TLocalOAuthUser;
  googleUser?: TLocalOAuthUser;
};

/** Running local providers. */
export type TLocalOAuthProviders = {
  /** Server settings pointing at these providers (OAUTH_* URLs and client credentials). */
  env: Record<string, string>;
  /** Chooses who signs in at GitHub from the next authorization on. */
  setGithubUser(user: TLocalOAuthUser): void;
  /** Chooses who signs in at Google from the next authorization on. */
  setGoogleUser(user: TLocalOAuthUser): void;
  /**
   * A Google access token for the current Google user, as the browser popup's
   * token flow would hand it to the console; `clientId` names the app it was
   * issued to (default: ours).
   */
  issueGoogleAccessToken(clientId?: string): Promise<string>;
  /** Stops both servers. */
  close(): Promise<void>;
};

/** Stops a node:http server, cutting idle keep-alive connections. */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

async function readBody(req: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if ((req.headers['content-type'] ?? '').includes('application/json')) {
    try {
      return JSON.parse(text) as Record<string, string>;
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** Client id and secret from HTTP Basic auth or the form body. */
function readClientCredentials(req: IncomingMessage, body: Record<string, unknown>): { id?: string; secret?: string } {
  const match = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (match) {
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  }
  return {
    id: typeof body.client_id === 'string' ? body.client_id : undefined,
    secret: typeof body.client_secret === 'string' ? body.client_secret : undefined,
  };
}

function isSameSecret(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function bearerOf(req: IncomingMessage): string | undefined {
  return /^(?:Bearer|token)\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
}

function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

type TPendingCode = { user: TLocalOAuthUser; redirectUri: string; challenge?: string; challengeMethod?: string };

/** GitHub's authorize, token, /user and /user/emails, as far as our server uses them. */
async function startGithub(clientId: string, clientSecret: string, initialUser: TLocalOAuthUser) {
  let current = initialUser;
  const codes = new Map<string, TPendingCode>();
  const tokens = new Map<string, TLocalOAuthUser>();

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
        const redirectUri = url.searchParams.get('redirect_uri');
        if (url.searchParams.get('client_id') !== clientId || !redirectUri) {
          res.writeHead(400, { 'content-type': 'text/plain' }).end('unknown client or missing redirect_uri');
          return;
        }
        const code = randomBytes(10).toString('hex');
        codes.set(code, {
          user: current,
          redirectUri,
          challenge: url.searchParams.get('code_challenge') ?? undefined,
          challengeMethod: url.searchParams.get('code_challenge_method') ?? undefined,
        });
        const target = new URL(redirectUri);
        target.searchParams.set('code', code);
        const state = url.searchParams.get('state');
        if (state) target.searchParams.set('state', state);
        res.writeHead(302, { location: target.href }).end();
        return;
      }
      if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
        const body = await readBody(req);
        const isJson = (req.headers.accept ?? '').includes('application/json');
        // GitHub answers token errors with 200 and an "error" field.
        const answer = (payload: Record<string, string>) => {
          if (isJson) sendJson(res, 200, payload);
          else
            res
              .writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' })
              .end(new URLSearchParams(payload).toString());
        };
        const credentials = readClientCredentials(req, body);
        if (credentials.id !== clientId || !isSameSecret(credentials.secret, clientSecret)) {
          answer({
            error: 'incorrect_client_credentials',
            error_description: 'The client_id and/or client_secret passed are incorrect.',
          });
          return;
        }
        const pending = body.code ? codes.get(body.code) : undefined;
        if (body.code) codes.delete(body.code);
        const verifier = body.code_verifier;
        const isVerifierOk =
          pending?.challenge !== undefined &&
          typeof verifier === 'string' &&
          verifier.length >= 43 &&
          (pending.challengeMethod === 'S256' ? s256(verifier) === pending.challenge : verifier === pending.challenge);
        if (!pending || !isVerifierOk) {
          answer({ error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });
          return;
        }
        if (body.redirect_uri && body.redirect_uri !== pending.redirectUri) {
          answer({
            error: 'redirect_uri_mismatch',
            error_description: 'The redirect_uri MUST match the registered callback URL for this application.',
          });
          return;
        }
        const accessToken = `gho_${randomBytes(18).toString('hex')}`;
        tokens.set(accessToken, pending.user);
        answer({ access_token: accessToken, token_type: 'bearer', scope: 'read:user,user:email' });
        return;
      }
      if (req.method === 'GET' && (url.pathname === '/user' || url.pathname === '/user/emails')) {
        if (!req.headers['user-agent']) {
          sendJson(res, 403, {
            message: 'Request forbidden by administrative rules. Please make sure your request has a User-Agent header',
          });
          return;
        }
        const token = bearerOf(req);
        const user = token ? tokens.get(token) : undefined;
        if (!user) {
          sendJson(res, 401, { message: 'Bad credentials' });
          return;
        }
        const login = user.login ?? `user${user.id}`;
        if (url.pathname === '/user') {
          sendJson(res, 200, {
            id: Number(user.id),
            login,
            name: user.name ?? login,
            email: null,
            avatar_url: `https://avatars.example/${login}`,
          });
        } else {
          // A verified but non-primary address first: the server must pick the primary one.
          sendJson(res, 200, [
            { email: `${user.id}+${login}@users.noreply.github.com`, primary: false, verified: true, visibility: null },
            { email: user.email, primary: true, verified: user.verified, visibility: 'private' },
          ]);
        }
        return;
      }
      sendJson(res, 404, { message: 'Not Found' });
    })().catch((error: unknown) => {
      sendJson(res, 500, { message: String(error) });
    });
  });
  const port = await listen(server);
  const base = `http://127.0.0.1:${port}`;
  return {
    env: {
      OAUTH_GITHUB_AUTHORIZE_URL: `${base}/login/oauth/authorize`,
      OAUTH_GITHUB_TOKEN_URL: `${base}/login/oauth/access_token`,
      OAUTH_GITHUB_API_URL: base,
      GITHUB_CLIENT_ID: clientId,
      GITHUB_CLIENT_SECRET: clientSecret,
    },
    setUser(user: TLocalOAuthUser) {
      current = user;
    },
    close: () => closeServer(server),
  };
}

type TGoogleGrant = { user: TLocalOAuthUser; clientId: string; expiresAt: number };

/** Google: oauth2-mock-server's service behind our own listener, which adds Google's tokeninfo. */
async function startGoogle(clientId: string, clientSecret: string, initialUser: TLocalOAuthUser) {
  let current = initialUser;
  const issuer = new OAuth2Issuer();
  await issuer.keys.generate('RS256');
  const service = new OAuth2Service(issuer);
  const codes = new Map<string, TPendingCode>();
  const grants = new Map<string, TGoogleGrant>();

  // The mock signs in whoever asks; remember who was "signed in" for each code.
  service.on('beforeAuthorizeRedirect', (redirect: MutableRedirectUri, req: IncomingMessage) => {
    const query = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    const code = redirect.url.searchParams.get('code');
    if (query.get('client_id') !== clientId) {
      redirect.url.searchParams.delete('code');
      redirect.url.searchParams.set('error', 'invalid_client');
      return;
    }
    if (code)
      codes.set(code, {
        user: current,
        redirectUri: query.get('redirect_uri') ?? '',
        challenge: query.get('code_challenge') ?? undefined,
      });
  });
  service.on('beforeTokenSigning', (token: MutableToken, req: TokenRequestIncomingMessage) => {
    const pending = req.body.code ? codes.get(req.body.code) : undefined;
    const user = pending?.user ?? current;
    token.payload.sub = String(user.id);
    token.payload.aud = clientId;
    token.payload.azp = clientId;
    token.payload.email = user.email;
    token.payload.email_verified = user.verified;
  });
  service.on('beforeResponse', (response: MutableResponse, req: TokenRequestIncomingMessage) => {
    const body = req.body as unknown as Record<string, unknown>;
    const credentials = readClientCredentials(req, body);
    const code = typeof body.code === 'string' ? body.code : undefined;
    const pending = code ? codes.get(code) : undefined;
    if (code) codes.delete(code);
    if (credentials.id !== clientId || !isSameSecret(credentials.secret, clientSecret)) {
      response.statusCode = 401;
      response.body = { error: 'invalid_client', error_description: 'The OAuth client was not found.' };
      return;
    }
    // The mock checks PKCE only when a verifier is sent; Google insists once a challenge was given.
    const isGrantOk =
      body.grant_type === 'authorization_code' &&
      pending !== undefined &&
      pending.challenge !== undefined &&
      typeof body.code_verifier === 'string' &&
      body.redirect_uri === pending.redirectUri;
    if (!isGrantOk || response.statusCode !== 200 || typeof response.body !== 'object') {
      response.statusCode = 400;
      response.body = { error: 'invalid_grant', error_description: 'Bad Request' };
      return;
    }
    const accessToken = response.body.access_token;
    if (typeof accessToken === 'string')
      grants.set(accessToken, { user: pending.user, clientId, expiresAt: Date.now() + 3600_000 });
  });
  service.on('beforeUserinfo', (response: MutableResponse, req: IncomingMessage) => {
    const token = bearerOf(req);
    const grant = token ? grants.get(token) : undefined;
    if (!grant || grant.expiresAt < Date.now()) {
      response.statusCode = 401;
      response.body = { error: 'invalid_request', error_description: 'Invalid Credentials' };
      return;
    }
    const { user } = grant;
    response.body = {
      sub: String(user.id),
      email: user.email,
      email_verified: user.verified,
      name: user.name ?? user.email.split('@')[0],
      picture: `https://lh3.example/${user.id}`,
    };
  });

  const handler = service.requestHandler;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/tokeninfo') {
      const token = url.searchParams.get('access_token');
      const grant = token ? grants.get(token) : undefined;
      if (!grant || grant.expiresAt < Date.now()) {
        sendJson(res, 400, { error: 'invalid_token', error_description: 'Invalid Value' });
        return;
      }
      // Google's tokeninfo answers numbers and booleans as strings.
      sendJson(res, 200, {
        azp: grant.clientId,
        aud: grant.clientId,
        sub: String(grant.user.id),
        scope: 'openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile',
        exp: String(Math.floor(grant.expiresAt / 1000)),
        expires_in: String(Math.floor((grant.expiresAt - Date.now()) / 1000)),
        email: grant.user.email,
        email_verified: String(grant.user.verified),
        access_type: 'online',
      });
      return;
    }
    handler(req, res);
  });
  const port = await listen(server);
  const base = `http://127.0.0.1:${port}`;
  issuer.url = base;
  return {
    env: {
      OAUTH_GOOGLE_AUTHORIZE_URL: `${base}/authorize`,
      OAUTH_GOOGLE_TOKEN_URL: `${base}/token`,
      OAUTH_GOOGLE_USERINFO_URL: `${base}/userinfo`,
      GOOGLE_CLIENT_ID: clientId,
      GOOGLE_CLIENT_SECRET: clientSecret,
    },
    setUser(user: TLocalOAuthUser) {
      current = user;
    },
    async issueAccessToken(audience: string = clientId): Promise<string> {
      const user = current;
      const token = await issuer.buildToken({
        expiresIn: 3600,
        scopesOrTransform: (_header, payload) => {
          payload.sub = String(user.id);
          payload.aud = audience;
          payload.azp = audience;
        },
      });
      grants.set(token, { user, clientId: audience, expiresAt: Date.now() + 3600_000 });
      return token;
    },
    close: () => closeServer(server),
  };
}

/** Starts the GitHub stand-in and the Google mock on 127.0.0.1 with random ports. */
export async function startLocalOAuthProviders(options: TLocalOAuthOptions = {}): Promise<TLocalOAuthProviders> {
  const github = await startGithub(
    options.githubClientId ?? 'local-github-client',
    options.githubClientSecret ?? 'local-github-secret',
    options.githubUser ?? {
      id: 1001,
      login: 'octocat',
      name: 'Octo Cat',
      email: 'octocat@example.com',
      verified: true,
    },
  );
  const google = await startGoogle(
    options.googleClientId ?? 'local-google-client.apps.example',
    options.googleClientSecret ?? 'local-google-secret',
    options.googleUser ?? { id: '109876543210', name: 'Gina Google', email: 'gina@example.com', verified: true },
  );
  return {
    env: { ...github.env, ...google.env },
    setGithubUser: github.setUser,
    setGoogleUser: google.setUser,
    issueGoogleAccessToken: google.issueAccessToken,
    async close() {
      await Promise.all([github.close(), google.close()]);
    },
  };
}
