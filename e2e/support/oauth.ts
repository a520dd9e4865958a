import { inject } from 'vitest';
import { startLocalOAuthProviders, type TLocalOAuthProviders } from '@proxy/server/testing';
import { E2E_OAUTH_CLIENTS } from './oauth-relay';

async function relayTo(env: Record<string, string> | null): Promise<void> {
  const res = await fetch(`${inject('sharedOAuthRelay').controlUrl}/targets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(env),
  });
  if (res.status !== 204) throw new Error(`the OAuth relay refused the providers: ${await res.text()}`);
}

/**
 * Local GitHub and Google providers the shared server signs in with (through
 * the global setup's relays) until closed. One flow at a time: files run one
 * after another.
 */
export async function startSharedOAuthProviders(): Promise<TLocalOAuthProviders> {
  const providers = await startLocalOAuthProviders(E2E_OAUTH_CLIENTS);
  try {
    await relayTo(providers.env);
  } catch (error) {
    await providers.close();
    throw error;
  }
  return {
    ...providers,
    async close() {
      await relayTo(null);
      await providers.close();
    },
  };
}
