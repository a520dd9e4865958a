import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import { tronAddressFromHex, tronAddressToHex } from '../../src/features/payments/usdt/tron-address';

/**
 * Local fakes of the two chains USDT is paid on, at their network edge only:
 * a TronGrid-style API (TRC-20 listing of an account between two block times, the solidified chain's
 * transaction info and head) and an Ethereum JSON-RPC endpoint (blocks by
 * number or tag, eth_getLogs). Both keep one model: blocks of transactions
 * whose Transfer logs move tokens; blocks become final when a test says so,
 * and blocks that are not final yet can be dropped (a reorganisation).
 * A "sloppy" fake ignores the filters of listings and log queries (and TRON's
 * "only confirmed"), so the watcher's own checks are what keeps wrong tokens,
 * other recipients and unfinished blocks out.
 */

/** Transfer event topic (keccak256 of "Transfer(address,address,uint256)"). */
const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

type TLog = { contract: string; from: string; to: string; amount: bigint };
type TTx = { hash: string; logs: TLog[]; isSuccess: boolean };
type TBlock = { number: number; hash: string; time: number; txs: TTx[] };

/** What a test asks a fake chain to do; addresses in the chain's own notation. */
export type TFakeChain = {
  network: 'trc20' | 'erc20';
  /** USDT_* settings pointing the server at this fake (its own USDT contract, as on a test network). */
  env: Record<string, string>;
  /** Our receiving address. */
  address: string;
  /** The USDT contract of this network. */
  usdt: string;
  /** A token contract that is not our USDT (mainnet USDT's address, on this test network). */
  foreignToken: string;
  /** A fresh address that is not ours. */
  otherAddress(): string;
  /** Sends tokens in a new block (not final): one transaction with a log per transfer; answers its hash. */
  send(
    transfers:
      { amount: bigint; to?: string; contract?: string } | { amount: bigint; to?: string; contract?: string }[],
    options?: { isSuccess?: boolean },
  ): string;
  /** Mines an empty block and makes every block final. */
  finalize(): void;
  /** Drops the (not yet final) block holding the transaction, and every block after it. */
  reorg(txHash: string): void;
  /** Ignore query filters (see above). */
  sloppy: boolean;
  /** Answer every call with HTTP 503 (an outage). */
  failing: boolean;
  /**
   * Cut the connection of this many next calls before any answer (counts down): a reset, what a client meets
   * when it sends a call on a kept-alive connection the API has just closed as idle.
   */
  cutConnections: number;
  /** Calls received: method or path, and parameters. */
  requests: { call: string; params: unknown }[];
  close(): Promise<void>;
};

function hex32(value: bigint | string): string {
  return (typeof value === 'bigint' ? value.toString(16) : value).padStart(64, '0');
}

function createModel(now: () => number) {
  const blocks: TBlock[] = [{ number: 0, hash: randomBytes(32).toString('hex'), time: now(), txs: [] }];
  let final = 0;
  return {
    blocks,
    get final() {
      return final;
    },
    head: () => blocks[blocks.length - 1],
    mine(txs: TTx[]): TBlock {
      const block = {
        number: blocks.length,
        hash: randomBytes(32).toString('hex'),
        time: Math.max(now(), blocks[blocks.length - 1].time),
        txs,
      };
      blocks.push(block);
      return block;
    },
    finalize() {
      blocks.push({
        number: blocks.length,
        hash: randomBytes(32).toString('hex'),
        time: Math.max(now(), blocks[blocks.length - 1].time),
        txs: [],
      });
      final = blocks.length - 1;
    },
    reorg(txHash: string) {
      const index = blocks.findIndex((b) => b.txs.some((t) => t.hash === txHash));
      if (index < 0) throw new Error(`no block holds ${txHash}`);
      if (index <= final) throw new Error('a final block cannot be dropped');
      blocks.splice(index);
    },
    findTx(hash: string): { block: TBlock; tx: TTx } | undefined {
      for (const block of blocks) {
        const tx = block.txs.find((t) => t.hash === hash);
        if (tx) return { block, tx };
      }
      return undefined;
    },
  };
}

type TFaultState = { failing: boolean; cuts: number };

async function serve(
  handler: (method: string, url: URL, body: unknown) => unknown,
  faults: TFaultState,
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (faults.cuts > 0) {
      faults.cuts -= 1;
      req.socket.destroy();
      return;
    }
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      let status = 200;
      let answer: unknown;
      if (faults.failing) {
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('service unavailable');
        return;
      }
      try {
        answer = handler(
          req.method ?? 'GET',
          new URL(req.url ?? '/', 'http://fake'),
          text ? JSON.parse(text) : undefined,
        );
      } catch (error) {
        [status, answer] = [500, { error: (error as Error).message }];
      }
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const tronAddress = () => tronAddressFromHex(randomBytes(20).toString('hex'));

/** A fake TronGrid-style API; block times follow `now` (ms). */
export async function startFakeTron(now: () => number = Date.now): Promise<TFakeChain> {
  const model = createModel(now);
  const address = tronAddress();
  const usdt = tronAddress();
  const requests: TFakeChain['requests'] = [];
  const fake = { sloppy: false, failing: false, cuts: 0 };

  function listing(account: string, query: URLSearchParams) {
    const onlyConfirmed = query.get('only_confirmed') === 'true' && !fake.sloppy;
    const contract = fake.sloppy ? null : query.get('contract_address');
    const onlyTo = query.get('only_to') === 'true' && !fake.sloppy;
    const minTimestamp = Number(query.get('min_timestamp') ?? 0);
    const maxTimestamp = Number(query.get('max_timestamp') ?? Number.MAX_SAFE_INTEGER);
    const items = model.blocks
      .filter(
        (b) =>
          (!onlyConfirmed || b.number <= model.final) &&
          b.time >= minTimestamp &&
          (fake.sloppy || b.time <= maxTimestamp),
      )
      .flatMap((b) =>
        b.txs.flatMap((tx) =>
          tx.logs
            .filter(
              (l) =>
                (!onlyTo || l.to === account) &&
                (!contract || l.contract === contract) &&
                (fake.sloppy || l.to === account || l.from === account),
            )
            .map((l) => ({
              transaction_id: tx.hash,
              block_timestamp: b.time,
              from: l.from,
              to: l.to,
              type: 'Transfer',
              value: l.amount.toString(),
              token_info: { address: l.contract, symbol: 'USDT', decimals: 6, name: 'Tether USD' },
            })),
        ),
      );
    const limit = Number(query.get('limit') ?? 20);
    const offset = Number(query.get('fingerprint') ?? 0);
    const page = items.slice(offset, offset + limit);
    const more = offset + limit < items.length;
    return {
      data: page,
      success: true,
      meta: { at: now(), page_size: page.length, ...(more ? { fingerprint: String(offset + limit) } : {}) },
    };
  }

  const server = await serve((method, url, body) => {
    const account = /^\/v1\/accounts\/([^/]+)\/transactions\/trc20$/.exec(url.pathname);
    requests.push({
      call: account ? 'trc20-listing' : url.pathname,
      params: account ? Object.fromEntries(url.searchParams) : body,
    });
    if (account && method === 'GET') return listing(account[1], url.searchParams);
    if (url.pathname === '/walletsolidity/getnowblock') {
      const head = model.blocks[model.final];
      return { blockID: head.hash, block_header: { raw_data: { number: head.number, timestamp: head.time } } };
    }
    if (url.pathname === '/walletsolidity/gettransactioninfobyid') {
      const found = model.findTx(String((body as { value?: string })?.value ?? ''));
      if (!found || found.block.number > model.final) return {};
      return {
        id: found.tx.hash,
        blockNumber: found.block.number,
        blockTimeStamp: found.block.time,
        contract_address: tronAddressToHex(found.tx.logs[0]?.contract ?? usdt),
        receipt: { result: found.tx.isSuccess ? 'SUCCESS' : 'REVERT', energy_usage_total: 14650 },
        log: found.tx.logs.map((l) => ({
          address: tronAddressToHex(l.contract),
          topics: [TRANSFER_TOPIC, hex32(tronAddressToHex(l.from)!), hex32(tronAddressToHex(l.to)!)],
          data: hex32(l.amount),
        })),
      };
    }
    throw new Error(`no such API: ${method} ${url.pathname}`);
  }, fake);

  return {
    network: 'trc20',
    env: { USDT_TRC20_ADDRESS: address, USDT_TRC20_API_URL: server.baseUrl, USDT_TRC20_CONTRACT: usdt },
    address,
    usdt,
    foreignToken: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    otherAddress: tronAddress,
    send(transfers, options = {}) {
      const hash = randomBytes(32).toString('hex');
      const logs = [transfers]
        .flat()
        .map((t) => ({ contract: t.contract ?? usdt, from: tronAddress(), to: t.to ?? address, amount: t.amount }));
      model.mine([{ hash, logs, isSuccess: options.isSuccess ?? true }]);
      return hash;
    },
    finalize: () => model.finalize(),
    reorg: (txHash) => model.reorg(txHash),
    get sloppy() {
      return fake.sloppy;
    },
    set sloppy(value: boolean) {
      fake.sloppy = value;
    },
    get failing() {
      return fake.failing;
    },
    set failing(value: boolean) {
      fake.failing = value;
    },
    get cutConnections() {
      return fake.cuts;
    },
    set cutConnections(value: number) {
      fake.cuts = value;
    },
    requests,
    close: server.close,
  };
}

const ethAddress = () => `0x${randomBytes(20).toString('hex')}`;
const quantity = (n: number) => `0x${n.toString(16)}`;

/** A fake Ethereum JSON-RPC endpoint; block times follow `now` (ms). */
export async function startFakeEthereum(now: () => number = Date.now): Promise<TFakeChain> {
  const model = createModel(now);
  const address = ethAddress();
  const usdt = ethAddress();
  const requests: TFakeChain['requests'] = [];
  const fake = { sloppy: false, failing: false, cuts: 0 };

  const header = (b: TBlock) => ({
    number: quantity(b.number),
    hash: `0x${b.hash}`,
    parentHash: `0x${model.blocks[b.number - 1]?.hash ?? '0'.repeat(64)}`,
    timestamp: quantity(Math.floor(b.time / 1000)),
    transactions: b.txs.map((t) => `0x${t.hash}`),
  });

  function blockByTag(tag: string): TBlock | undefined {
    if (tag === 'latest') return model.head();
    if (tag === 'finalized' || tag === 'safe') return model.blocks[model.final];
    if (tag === 'earliest') return model.blocks[0];
    return /^0x[0-9a-f]+$/i.test(tag) ? model.blocks[Number.parseInt(tag, 16)] : undefined;
  }

  function getLogs(filter: {
    fromBlock?: string;
    toBlock?: string;
    address?: string | string[];
    topics?: (string | string[] | null)[];
  }) {
    const from = blockByTag(filter.fromBlock ?? 'latest')?.number ?? Number.POSITIVE_INFINITY;
    const to = blockByTag(filter.toBlock ?? 'latest')?.number ?? model.head().number;
    const addresses = filter.address === undefined ? null : [filter.address].flat().map((a) => a.toLowerCase());
    const logs = [];
    for (const block of model.blocks.filter((b) => b.number >= from && b.number <= to)) {
      let logIndex = 0;
      for (const [txIndex, tx] of block.txs.entries()) {
        for (const l of tx.logs) {
          const entry = {
            address: l.contract,
            topics: [`0x${TRANSFER_TOPIC}`, `0x${hex32(l.from.slice(2))}`, `0x${hex32(l.to.slice(2))}`],
            data: `0x${hex32(l.amount)}`,
            blockNumber: quantity(block.number),
            blockHash: `0x${block.hash}`,
            transactionHash: `0x${tx.hash}`,
            transactionIndex: quantity(txIndex),
            logIndex: quantity(logIndex++),
            removed: false,
          };
          if (!tx.isSuccess) continue;
          const isMatch =
            fake.sloppy ||
            ((!addresses || addresses.includes(l.contract.toLowerCase())) &&
              (filter.topics ?? []).every(
                (want, i) => want === null || [want].flat().some((w) => w.toLowerCase() === entry.topics[i]),
              ));
          if (isMatch) logs.push(entry);
        }
      }
    }
    return logs;
  }

  const server = await serve((_method, _url, body) => {
    const call = body as { id: number; method: string; params: unknown[] };
    requests.push({ call: call.method, params: call.params });
    let result: unknown;
    if (call.method === 'eth_getBlockByNumber') {
      const block = blockByTag(String(call.params[0]));
      result = block ? header(block) : null;
    } else if (call.method === 'eth_getLogs') result = getLogs(call.params[0] as Parameters<typeof getLogs>[0]);
    else if (call.method === 'eth_blockNumber') result = quantity(model.head().number);
    else if (call.method === 'eth_chainId') result = '0xaa36a7';
    else
      return {
        jsonrpc: '2.0',
        id: call.id,
        error: { code: -32601, message: `the method ${call.method} does not exist` },
      };
    return { jsonrpc: '2.0', id: call.id, result };
  }, fake);

  return {
    network: 'erc20',
    env: { USDT_ERC20_ADDRESS: address, USDT_ERC20_RPC_URL: server.baseUrl, USDT_ERC20_CONTRACT: usdt },
    address,
    usdt,
    foreignToken: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
    otherAddress: ethAddress,
    send(transfers, options = {}) {
      const hash = randomBytes(32).toString('hex');
      const logs = [transfers]
        .flat()
        .map((t) => ({ contract: t.contract ?? usdt, from: ethAddress(), to: t.to ?? address, amount: t.amount }));
      model.mine([{ hash, logs, isSuccess: options.isSuccess ?? true }]);
      return `0x${hash}`;
    },
    finalize: () => model.finalize(),
    reorg: (txHash) => model.reorg(txHash.replace(/^0x/, '')),
    get sloppy() {
      return fake.sloppy;
    },
    set sloppy(value: boolean) {
      fake.sloppy = value;
    },
    get failing() {
      return fake.failing;
    },
    set failing(value: boolean) {
      fake.failing = value;
    },
    get cutConnections() {
      return fake.cuts;
    },
    set cutConnections(value: number) {
      fake.cuts = value;
    },
    requests,
    close: server.close,
  };
}
