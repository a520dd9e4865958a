import { z } from 'zod';
import { addressScope } from './ip';

/**
 * Field rules of environment settings, shared by every app's settings schema
 * (the API's config/env.ts, the gateway's settings.ts, the launcher's run modes).
 */

/** An on/off setting: "true" or "1" is on; unset, empty, "false" or "0" is off. */
export const zSettingFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** A text setting; unset or blank is undefined, otherwise trimmed. */
export const zSettingText = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

/** Where a listener binds: host (an IPv6 address without brackets) and port. */
export type TListenAddress = { host: string; port: number };

/**
 * A listen address setting: `host:port` (`[v6]:port` for IPv6; port 0 takes a
 * free port), or `off`. Unset or blank is `fallback`. Off is null.
 */
export function zSettingListen(fallback: string) {
  return z
    .string()
    .optional()
    .transform((value, ctx): TListenAddress | null => {
      const text = value && value.trim() !== '' ? value.trim() : fallback;
      if (text.toLowerCase() === 'off') return null;
      const match = /^(?:\[([0-9a-f:.]+)\]|([^:\s/[\]]+)):(\d{1,5})$/i.exec(text);
      if (!match || Number(match[3]) > 65535) {
        ctx.addIssue({ code: 'custom', message: 'host:port (such as 127.0.0.1:9464, [::1]:9464), or off' });
        return z.NEVER;
      }
      return { host: match[1] ?? match[2], port: Number(match[3]) };
    });
}

/** Whether a listen host is reached only from this machine (a loopback address, or localhost). */
export function isLoopbackHost(host: string): boolean {
  return host.toLowerCase() === 'localhost' || addressScope(host) === 'loopback';
}

/**
 * Why a metrics listener's settings cannot start (empty: they can): one not on
 * loopback needs a bearer token, and a token is long enough not to be guessed.
 */
export function metricsListenProblems(
  listen: TListenAddress | null,
  token: string | undefined,
  names: { listen: string; token: string },
): string[] {
  if (token !== undefined && token.length < 16) return [`${names.token}: at least 16 characters`];
  if (listen && !isLoopbackHost(listen.host) && token === undefined)
    return [
      `${names.token}: required when ${names.listen} is not a loopback address (${listen.host}): ` +
        `scrapers then send "Authorization: Bearer <token>"; or listen on 127.0.0.1`,
    ];
  return [];
}
