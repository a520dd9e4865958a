import { SOCKS_REPLY } from './socks5';

/**
 * Every way the gateway refuses a client, with what an HTTP client sees
 * (status and the `X-Proxy-Reason` header) and what a SOCKS5 client sees
 * (reply code). Documented in docs/gateway.md, "Refusals".
 */
export const REFUSALS = {
  /** No Proxy-Authorization / no SOCKS5 username-password method offered. */
  'auth-required': { status: 407, socks: SOCKS_REPLY.notAllowed, text: 'Proxy authentication required' },
  /** Unknown username or wrong password. */
  'bad-credentials': { status: 407, socks: SOCKS_REPLY.notAllowed, text: 'Wrong proxy username or password' },
  /** The proxy's validity period has ended. */
  'token-expired': { status: 403, socks: SOCKS_REPLY.notAllowed, text: 'This proxy has expired' },
  /** The owner disabled the proxy, or it was deleted. */
  'token-disabled': { status: 403, socks: SOCKS_REPLY.notAllowed, text: 'This proxy is disabled' },
  /** The traffic allowance is used up. */
  'token-exhausted': { status: 403, socks: SOCKS_REPLY.notAllowed, text: 'This proxy has no traffic left' },
  /** An HTTP proxy used over SOCKS5 or the other way round. */
  'wrong-protocol': { status: 403, socks: SOCKS_REPLY.notAllowed, text: 'This proxy does not accept this protocol' },
  /** The client's address is blacklisted or not on the whitelist of the proxy's owner. */
  'source-refused': { status: 403, socks: SOCKS_REPLY.notAllowed, text: 'Your address may not use this proxy' },
  /** Loopback, private, link-local or the gateway's own address. */
  'target-refused': { status: 403, socks: SOCKS_REPLY.notAllowed, text: 'This destination is not allowed' },
  /**
   * The proxy's target rules (its own list, else the account's) refuse this
   * destination: a denied name or address, or one outside an allow list.
   */
  'target-blocked-by-rule': {
    status: 403,
    socks: SOCKS_REPLY.notAllowed,
    text: "This destination is blocked by the proxy's target rules",
  },
  /** Too many simultaneous connections for this proxy. */
  'too-many-connections': { status: 429, socks: SOCKS_REPLY.notAllowed, text: 'Too many connections for this proxy' },
  /** No exit is available in the proxy's area right now. */
  'no-exit': { status: 502, socks: SOCKS_REPLY.networkUnreachable, text: 'No exit is available in this area' },
  /**
   * No exit or pool serves the proxy's area (the area asked in the username, or the proxy's own), or the pools that
   * do said they do not serve it (the provider's refusal of the area).
   */
  'area-not-served': {
    status: 502,
    socks: SOCKS_REPLY.notAllowed,
    text: 'No exit or pool serves this area right now',
  },
  /** Every pool (and exit) of the area failed, did not answer or is skipped for failing lately (circuit open). */
  'pool-down': {
    status: 502,
    socks: SOCKS_REPLY.networkUnreachable,
    text: "The area's upstream pools are not answering right now",
  },
  /**
   * A sticky session found every exit of its area held by another live sticky session of the same account (exits
   * are not shared between an account's sessions; docs/gateway.md, "Exits not shared").
   */
  'exit-in-use': {
    status: 503,
    socks: SOCKS_REPLY.networkUnreachable,
    text: 'Every exit of this area is held by another of your sticky sessions',
  },
  /** The exit could not reach the destination. */
  'upstream-failed': { status: 502, socks: SOCKS_REPLY.hostUnreachable, text: 'The destination could not be reached' },
  /** Malformed request. */
  'bad-request': { status: 400, socks: SOCKS_REPLY.generalFailure, text: 'Malformed proxy request' },
} as const;

/** A refusal reason. */
export type TRefusal = keyof typeof REFUSALS;

/** The HTTP answer of a refusal, closing the connection. */
export function httpRefusal(reason: TRefusal): string {
  const r = REFUSALS[reason];
  const body = `${r.text}\n`;
  const extra = r.status === 407 ? 'Proxy-Authenticate: Basic realm="proxy"\r\n' : '';
  return (
    `HTTP/1.1 ${r.status} ${r.text}\r\n${extra}X-Proxy-Reason: ${reason}\r\n` +
    `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** Thrown by dialing and policy code with the reason to report. */
export class GatewayRefusal extends Error {
  /** Bytes exchanged with an upstream pool in the failed dial (metered as not charged). */
  upstreamBytes = 0;

  constructor(
    readonly reason: TRefusal,
    readonly socksCode?: number,
  ) {
    super(reason);
  }
}
