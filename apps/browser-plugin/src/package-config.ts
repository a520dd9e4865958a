/**
 * What the server writes into the package it serves (config.json): the
 * console's origin, its public key for grants, and the echo the popup's
 * "check my IP" fetches through the proxy.
 */
export type TPackageConfig = { console_origin: string; public_key: string; echo_url: string };

/** The package's config, or null when the package was not served by a console (a bare build). */
export function parsePackageConfig(json: unknown): TPackageConfig | null {
  if (!json || typeof json !== 'object') return null;
  const c = json as Record<string, unknown>;
  if (typeof c.console_origin !== 'string' || typeof c.public_key !== 'string' || typeof c.echo_url !== 'string')
    return null;
  try {
    const origin = new URL(c.console_origin);
    if ((origin.protocol !== 'http:' && origin.protocol !== 'https:') || origin.origin !== c.console_origin)
      return null;
    const echo = new URL(c.echo_url);
    if (echo.protocol !== 'http:' && echo.protocol !== 'https:') return null;
  } catch {
    return null;
  }
  return { console_origin: c.console_origin, public_key: c.public_key, echo_url: c.echo_url };
}

/** Reads config.json from the extension's own files. */
export async function loadPackageConfig(): Promise<TPackageConfig | null> {
  try {
    const res = await fetch(chrome.runtime.getURL('config.json'));
    return parsePackageConfig(await res.json());
  } catch {
    return null;
  }
}
