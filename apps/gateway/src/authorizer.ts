import type { TExit } from './egress';
import type { TRefusal } from './refusals';

/** The protocol a client speaks: HTTP forward and CONNECT are "http". */
export type TProxyProtocol = 'http' | 'socks5';

/** A successful authentication: which token pays and where its traffic leaves. */
export type TGrant = {
  tokenId: number;
  /** Exits to try in order (static tokens have one; dynamic tokens may fall back to the next). */
  exits: TExit[];
  /** Simultaneous connections allowed for this token. */
  maxConnections: number;
  /** Reports an exit that failed, so dynamic tokens move on. */
  onExitFailed?(exit: TExit): void;
};

/**
 * Decides who may use the gateway. The real one reads the in-memory copy of
 * tokens and IP lists (never the database on the hot path).
 */
export type TAuthorizer = {
  /** Usually answers at once; may answer a promise when the credentials need one look in the database. */
  authorize(input: { username: string; password: string; protocol: TProxyProtocol; sourceIp: string }): TGrant | TRefusal | Promise<TGrant | TRefusal>;
  /** Re-checks a live connection (disable, delete, expiry, exhaustion, IP lists); a refusal closes it. */
  check(tokenId: number, sourceIp: string): TRefusal | null;
};

/** Receives metered bytes per token. */
export type TMeter = { record(tokenId: number, bytes: number): void };
