import type { TUsdtNetwork } from '@proxy/contract';

/**
 * What a USDT watcher reads from a chain: final transfers of the USDT
 * contract to our address, in batches, each with the position to go on from.
 * Clients talk plain HTTP JSON (a TronGrid-style API, Ethereum JSON-RPC).
 */

/** One transfer of USDT to our address, final on its chain. */
export type TChainTransfer = {
  txHash: string;
  /** The transfer's log within the transaction (TRON) or the block (Ethereum). */
  logIndex: number;
  blockNumber: number;
  blockTime: Date;
  from: string;
  to: string;
  /** 10^-6 USDT. */
  amountUnits: bigint;
};

/** Transfers found since a position, and the position to continue from once they are recorded. */
export type TChainBatch = { transfers: TChainTransfer[]; next: number };

/** A chain as its watcher reads it. */
export type TUsdtChain = {
  network: TUsdtNetwork;
  /**
   * Final transfers from `position` on (null: a fresh database), in batches.
   * `isKnown` tells the client which transactions are recorded already, so it
   * need not fetch them again.
   */
  scan(position: number | null, isKnown: (txHash: string) => Promise<boolean>): AsyncGenerator<TChainBatch>;
  /**
   * Final transfers whose block time is within [since, until] ("I have paid"
   * looks for one order's payment), at most about a day of them.
   */
  findTransfers(since: Date, until: Date): Promise<TChainTransfer[]>;
};

/** keccak256("Transfer(address,address,uint256)"): topic 0 of an ERC-20 (and TRC-20) Transfer event. */
export const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** An answer the chain API gave that we cannot use; the pass stops and is retried. */
export class ChainApiError extends Error {}

/**
 * Attempts of one call whose connection fails. fetch keeps connections alive between calls, and an API closes
 * the ones it finds idle: a call that goes out on one it has just closed fails with a reset (TypeError "fetch
 * failed": ECONNRESET, "other side closed"), most often before the API has read it. Every call here is a read,
 * so it is made again, on a fresh connection (a failed one leaves the pool; a few attempts get past every stale
 * one), and nothing is done twice. A time-out is not tried again, nor an answer, whatever its status.
 */
const CONNECTION_ATTEMPTS = 3;

type TJsonInit = { method?: 'GET' | 'POST'; body?: unknown; headers?: Record<string, string> };

// One call: its status and whole body, read on one connection.
async function send(url: string, init: TJsonInit): Promise<{ status: number; isOk: boolean; text: string }> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const res = await fetch(url, {
        method: init.method ?? 'GET',
        headers: {
          accept: 'application/json',
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...init.headers,
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(15_000),
      });
      return { status: res.status, isOk: res.ok, text: await res.text() };
    } catch (error) {
      // A failed connection is a TypeError; time running out is a DOMException (TimeoutError).
      if (!(error instanceof TypeError) || attempt >= CONNECTION_ATTEMPTS)
        throw new ChainApiError(`chain API unreachable: ${(error as Error).name}`);
    }
  }
}

/**
 * A JSON call with a time limit; any status but 2xx, or a body that is not JSON, is a ChainApiError (without the
 * URL, which may hold a key). A call whose connection fails is made again (CONNECTION_ATTEMPTS in all).
 */
export async function fetchJson(url: string, init: TJsonInit = {}): Promise<unknown> {
  const answer = await send(url, init);
  if (!answer.isOk) throw new ChainApiError(`chain API answered ${answer.status}`);
  try {
    return JSON.parse(answer.text) as unknown;
  } catch {
    throw new ChainApiError('chain API answered something that is not JSON');
  }
}

/** A plain object, or an empty one. */
export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
