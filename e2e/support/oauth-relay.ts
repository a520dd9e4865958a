// The shared server signs in with local GitHub and Google providers. Those
// come from the API's test kit (@proxy/server/testing), which loads vitest and
// so runs only inside a test file, not in the global setup that starts the
// server. The global setup therefore starts one relay per provider and points
// the server's settings at them; a flow that signs in starts the local
// providers and has the relays forward to them while it runs. No vitest
// runtime here: the global setup uses this file too.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Client credentials the shared server is set up with; flows start their local providers with them. */
export const E2E_OAUTH_CLIENTS = {
  githubClientId: 'e2e-github-client',
  githubClientSecret: 'e2e-github-secret',
  googleClientId: 'e2e-google-client.apps.example',
  googleClientSecret: 'e2e-google-secret',
} as const;

/** The server's provider settings, as paths on each provider (those of the test kit's local providers). */
const PROVIDER_PATHS = {
  github: {
    OAUTH_GITHUB_AUTHORIZE_URL: '/login/oauth/authorize',
    OAUTH_GITHUB_TOKEN_URL: '/login/oauth/access_token',
    OAUTH_GITHUB_API_URL: '/',
  },
  google: {
    OAUTH_GOOGLE_AUTHORIZE_URL: '/authorize',
    OAUTH_GOOGLE_TOKEN_URL: '/token',
    OAUTH_GOOGLE_USERINFO_URL: '/userinfo',
  },
} as const;

type TProvider = keyof typeof PROVIDER_PATHS;

/** Where a test file reaches the relays' control. */
export type TSharedOAuthRelay = { controlUrl: string };

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  export interface ProvidedContext {
    /** Control of the relays in front of the local OAuth providers the shared server signs in with. */
    sharedOAuthRelay: TSharedOAuthRelay;
  }
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/**
 * Checks a local providers' settings against the relayed paths and answers
 * each provider's origin; throws when the test kit's providers moved.
 */
function originsOf(env: Record<string, string>): Record<TProvider, string> {
  const origins = {} as Record<TProvider, string>;
  for (const provider of Object.keys(PROVIDER_PATHS) as TProvider[]) {
    for (const [key, path] of Object.entries(PROVIDER_PATHS[provider])) {
      const url = new URL(env[key] ?? 'missing:');
      if (url.pathname !== path)
        throw new Error(
          `${key} of the local providers is ${env[key]}; the relay serves ${path}: update PROVIDER_PATHS`,
        );
      origins[provider] = url.origin;
    }
  }
  for (const [option, value] of Object.entries(E2E_OAUTH_CLIENTS)) {
    const key = option.replace(
      /^(github|google)Client(Id|Secret)$/,
      (_, p: string, what: string) => `${p.toUpperCase()}_CLIENT_${what.toUpperCase()}`,
    );
    if (env[key] !== value) throw new Error(`the local providers were not started with E2E_OAUTH_CLIENTS (${key})`);
  }
  return origins;
}

/**
 * Starts a relay per provider and their control (POST /targets with the local
 * providers' settings, or null to stop relaying). Answers the server settings
 * that point at the relays.
 */
export async function startOAuthRelay(): Promise<{
  env: Record<string, string>;
  controlUrl: string;
  close(): Promise<void>;
}> {
  let targets: Record<TProvider, string> | null = null;
  const relay = (provider: TProvider) =>
    createServer((req, res) => {
      const origin = targets?.[provider];
      if (!origin)
        return void res
          .writeHead(503, { 'content-type': 'text/plain' })
          .end(`no local ${provider} provider is running`);
      const target = new URL(req.url ?? '/', origin);
      const upstream = request(
        target,
        { method: req.method, headers: { ...req.headers, host: target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', (error) => res.writeHead(502, { 'content-type': 'text/plain' }).end(String(error)));
      req.pipe(upstream);
    });
  const github = relay('github');
  const google = relay('google');
  const control = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/targets') return void res.writeHead(404).end();
      try {
        const env = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string> | null;
        targets = env ? originsOf(env) : null;
        res.writeHead(204).end();
      } catch (error) {
        res
          .writeHead(400, { 'content-type': 'text/plain' })
          .end(error instanceof Error ? error.message : String(error));
      }
    });
  });
  const bases: Record<TProvider, string> = { github: await listen(github), google: await listen(google) };
  const controlUrl = await listen(control);
  const env: Record<string, string> = {
    GITHUB_CLIENT_ID: E2E_OAUTH_CLIENTS.githubClientId,
    GITHUB_CLIENT_SECRET: E2E_OAUTH_CLIENTS.githubClientSecret,
    GOOGLE_CLIENT_ID: E2E_OAUTH_CLIENTS.googleClientId,
    GOOGLE_CLIENT_SECRET: E2E_OAUTH_CLIENTS.googleClientSecret,
  };
  for (const provider of Object.keys(PROVIDER_PATHS) as TProvider[]) {
    for (const [key, path] of Object.entries(PROVIDER_PATHS[provider])) env[key] = `${bases[provider]}${path}`;
  }
  return {
    env,
    controlUrl,
    close: async () => void (await Promise.all([close(github), close(google), close(control)])),
  };
}
