import { ChainApiError, TRANSFER_TOPIC, asRecord, fetchJson, type TChainTransfer, type TUsdtChain } from './chain';

/** Settings of the Ethereum watcher (config/env.ts, USDT_ERC20_*). */
export type TEthereumChainSettings = {
  /** JSON-RPC endpoint. */
  rpcUrl: string;
  /** Our receiving address (0x...). */
  address: string;
  /** The USDT contract (0x...). */
  contract: string;
  /** First block a fresh database scans (default: the finalized block minus ETHEREUM_FIRST_LOOKBACK_BLOCKS). */
  startBlock?: number;
  /** Most blocks per eth_getLogs call. */
  blockRange: number;
};

/** About a day of blocks. */
export const ETHEREUM_FIRST_LOOKBACK_BLOCKS = 7200;
const RANGES_PER_PASS = 20;

const HEX_QUANTITY = /^0x[0-9a-f]+$/i;
const HASH = /^0x[0-9a-f]{64}$/i;

function quantity(value: unknown, what: string): number {
  if (typeof value !== 'string' || !HEX_QUANTITY.test(value))
    throw new ChainApiError(`Ethereum: ${what} is not a hex quantity`);
  const n = Number.parseInt(value, 16);
  if (!Number.isSafeInteger(n)) throw new ChainApiError(`Ethereum: ${what} out of range`);
  return n;
}

/**
 * USDT on Ethereum through JSON-RPC: `eth_getLogs` for the contract's
 * Transfer events to our address, only up to the `finalized` block; every log
 * is checked again here (contract, event, recipient, block range) whatever
 * the endpoint filtered. The position is the next block to scan.
 */
export function createEthereumChain(settings: TEthereumChainSettings): TUsdtChain {
  const ours = settings.address.toLowerCase();
  const contract = settings.contract.toLowerCase();
  const ourTopic = `0x${'0'.repeat(24)}${ours.slice(2)}`;
  let nextId = 1;

  async function rpc(method: string, params: unknown[]): Promise<unknown> {
    const answer = asRecord(
      await fetchJson(settings.rpcUrl, { method: 'POST', body: { jsonrpc: '2.0', id: nextId++, method, params } }),
    );
    if (answer.error !== undefined)
      throw new ChainApiError(
        `Ethereum: ${method} failed: ${String(asRecord(answer.error).message ?? 'error').slice(0, 200)}`,
      );
    return answer.result;
  }

  // Transfers to us in blocks from..to (inclusive), every log checked again here.
  async function transfersIn(
    from: number,
    to: number,
    blocks: Map<number, { hash: string; time: Date }>,
  ): Promise<TChainTransfer[]> {
    const logs = await rpc('eth_getLogs', [
      {
        fromBlock: `0x${from.toString(16)}`,
        toBlock: `0x${to.toString(16)}`,
        address: settings.contract,
        topics: [`0x${TRANSFER_TOPIC}`, null, ourTopic],
      },
    ]);
    if (!Array.isArray(logs)) throw new ChainApiError('Ethereum: eth_getLogs answered no list');
    const transfers: TChainTransfer[] = [];
    for (const log of logs.map(asRecord)) {
      const topics = Array.isArray(log.topics) ? log.topics.map((t) => String(t).toLowerCase()) : [];
      if (log.removed === true || String(log.address ?? '').toLowerCase() !== contract) continue;
      if (topics.length !== 3 || topics[0] !== `0x${TRANSFER_TOPIC}` || topics[2] !== ourTopic || !HASH.test(topics[1]))
        continue;
      if (
        typeof log.data !== 'string' ||
        !HASH.test(log.data) ||
        typeof log.transactionHash !== 'string' ||
        !HASH.test(log.transactionHash)
      )
        continue;
      const blockNumber = quantity(log.blockNumber, 'a log block number');
      if (blockNumber < from || blockNumber > to) continue;
      const amountUnits = BigInt(log.data);
      if (amountUnits <= 0n) continue;
      let block = blocks.get(blockNumber);
      if (!block) {
        const header = asRecord(await rpc('eth_getBlockByNumber', [`0x${blockNumber.toString(16)}`, false]));
        block = {
          hash: String(header.hash ?? '').toLowerCase(),
          time: new Date(quantity(header.timestamp, 'a block timestamp') * 1000),
        };
        blocks.set(blockNumber, block);
      }
      // Below the finalized block the chain cannot change; a different hash is an endpoint out of step: retry later.
      if (typeof log.blockHash !== 'string' || log.blockHash.toLowerCase() !== block.hash)
        throw new ChainApiError('Ethereum: a log names another block than the chain');
      transfers.push({
        txHash: log.transactionHash.toLowerCase(),
        logIndex: quantity(log.logIndex, 'a log index'),
        blockNumber,
        blockTime: block.time,
        from: `0x${topics[1].slice(-40)}`,
        to: ours,
        amountUnits,
      });
    }
    return transfers;
  }

  async function blockTime(number: number): Promise<number> {
    const header = asRecord(await rpc('eth_getBlockByNumber', [`0x${number.toString(16)}`, false]));
    return quantity(header.timestamp, 'a block timestamp') * 1000;
  }

  // The first block at or after `time` (ms) up to `last` (last + 1 when none is).
  async function firstBlockFrom(time: number, last: number): Promise<number> {
    let [low, high] = [0, last + 1];
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      if ((await blockTime(middle)) >= time) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  return {
    network: 'erc20',
    async findTransfers(since, until) {
      const finalizedBlock = asRecord(await rpc('eth_getBlockByNumber', ['finalized', false]));
      const finalized = quantity(finalizedBlock.number, 'the finalized block number');
      const first = await firstBlockFrom(since.getTime(), finalized);
      const last = Math.min(finalized, (await firstBlockFrom(until.getTime() + 1, finalized)) - 1);
      const blocks = new Map<number, { hash: string; time: Date }>();
      const found: TChainTransfer[] = [];
      for (let from = first, range = 0; from <= last && range < RANGES_PER_PASS; range++) {
        const to = Math.min(last, from + settings.blockRange - 1);
        found.push(...(await transfersIn(from, to, blocks)));
        from = to + 1;
      }
      return found;
    },
    async *scan(position) {
      const finalizedBlock = asRecord(await rpc('eth_getBlockByNumber', ['finalized', false]));
      const finalized = quantity(finalizedBlock.number, 'the finalized block number');
      let from = position ?? settings.startBlock ?? Math.max(0, finalized - ETHEREUM_FIRST_LOOKBACK_BLOCKS);
      const blocks = new Map<number, { hash: string; time: Date }>();
      for (let range = 0; range < RANGES_PER_PASS && from <= finalized; range++) {
        const to = Math.min(finalized, from + settings.blockRange - 1);
        const transfers = await transfersIn(from, to, blocks);
        yield { transfers, next: to + 1 };
        from = to + 1;
      }
    },
  };
}
