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

/** A JSON call with a time limit; any status but 2xx, or a body that is not JSON, is a ChainApiError (without the URL, which may hold a key). */
export async function fetchJson(
  url: string,
  init: { method?: 'GET' | 'POST'; body?: unknown; headers?: Record<string, string> } = {},
): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new ChainApiError(`chain API unreachable: ${(error as Error).name}`);
  }
  const text = await res.text();
  if (!res.ok) throw new ChainApiError(`chain API answered ${res.status}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ChainApiError('chain API answered something that is not JSON');
  }
}

/** A plain object, or an empty one. */
export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
