import { ChainApiError, TRANSFER_TOPIC, asRecord, fetchJson, type TChainTransfer, type TUsdtChain } from './chain';
import { tronAddressFromHex, tronAddressToHex } from './tron-address';

/** Settings of the TRON watcher (config/env.ts, USDT_TRC20_*). */
export type TTronChainSettings = {
  /** TronGrid-style API base (https://api.trongrid.io; tests: a local fake). */
  apiUrl: string;
  apiKey?: string;
  /** Our receiving address (T...). */
  address: string;
  /** The USDT contract (T...). */
  contract: string;
};

/** How far back a fresh database starts listing. */
export const TRON_FIRST_LOOKBACK_MS = 24 * 3_600_000;
/** A listed transaction the solidified chain still does not know this long after its block time was dropped. */
export const TRON_DROPPED_AFTER_MS = 5 * 60_000;
const PAGE_SIZE = 200;
const PAGES_PER_PASS = 10;

type TListed = { txHash: string; blockTime: number };

/**
 * USDT on TRON through a TronGrid-style API. The account's TRC-20 listing
 * (confirmed only, to us, of the contract) says which transactions to look
 * at; each is then read from the solidified chain (`/walletsolidity`), which
 * alone decides: a transaction it does not know is not final (or was dropped),
 * and only its successful Transfer logs of the contract to our address count.
 * The position is a block time in ms, listed again inclusively.
 */
export function createTronChain(settings: TTronChainSettings): TUsdtChain {
  const base = settings.apiUrl.replace(/\/$/, '');
  const headers: Record<string, string> = settings.apiKey ? { 'TRON-PRO-API-KEY': settings.apiKey } : {};
  const ourHex = tronAddressToHex(settings.address);
  const contractHex = tronAddressToHex(settings.contract);
  if (!ourHex || !contractHex) throw new Error('USDT TRC20: address or contract is not a TRON address');

  async function solidHead(): Promise<{ number: number; timestamp: number }> {
    const block = asRecord(
      await fetchJson(`${base}/walletsolidity/getnowblock`, { method: 'POST', body: {}, headers }),
    );
    const raw = asRecord(asRecord(block.block_header).raw_data);
    if (!Number.isSafeInteger(raw.number) || !Number.isSafeInteger(raw.timestamp))
      throw new ChainApiError('TRON: no solidified block');
    return { number: raw.number as number, timestamp: raw.timestamp as number };
  }

  async function list(
    from: number,
    fingerprint: string | undefined,
    until?: number,
  ): Promise<{ items: TListed[]; fingerprint?: string }> {
    const query = new URLSearchParams({
      only_confirmed: 'true',
      only_to: 'true',
      contract_address: settings.contract,
      min_timestamp: String(from),
      order_by: 'block_timestamp,asc',
      limit: String(PAGE_SIZE),
    });
    if (until !== undefined) query.set('max_timestamp', String(until));
    if (fingerprint) query.set('fingerprint', fingerprint);
    const answer = asRecord(
      await fetchJson(`${base}/v1/accounts/${settings.address}/transactions/trc20?${query}`, { headers }),
    );
    if (answer.success === false || !Array.isArray(answer.data))
      throw new ChainApiError('TRON: the transfer listing failed');
    const items = answer.data
      .map(asRecord)
      .filter(
        (d) =>
          typeof d.transaction_id === 'string' &&
          /^[0-9a-fA-F]{64}$/.test(d.transaction_id) &&
          Number.isSafeInteger(d.block_timestamp),
      )
      .map((d) => ({ txHash: (d.transaction_id as string).toLowerCase(), blockTime: d.block_timestamp as number }));
    const next = asRecord(answer.meta).fingerprint;
    return {
      items,
      fingerprint: answer.data.length >= PAGE_SIZE && typeof next === 'string' && next ? next : undefined,
    };
  }

  // The transaction as the solidified chain knows it; null when it does not (not final, or dropped).
  async function finalTransfers(txHash: string, head: { number: number }): Promise<TChainTransfer[] | null> {
    const info = asRecord(
      await fetchJson(`${base}/walletsolidity/gettransactioninfobyid`, {
        method: 'POST',
        body: { value: txHash },
        headers,
      }),
    );
    if (typeof info.id !== 'string' || info.id.toLowerCase() !== txHash) return null;
    const blockNumber = info.blockNumber;
    const blockTime = info.blockTimeStamp;
    if (!Number.isSafeInteger(blockNumber) || !Number.isSafeInteger(blockTime) || (blockNumber as number) > head.number)
      return null;
    // A failed transaction moved nothing, whatever it logged.
    if (asRecord(info.receipt).result !== 'SUCCESS') return [];
    const logs = Array.isArray(info.log) ? info.log.map(asRecord) : [];
    const transfers: TChainTransfer[] = [];
    logs.forEach((log, logIndex) => {
      const topics = Array.isArray(log.topics) ? log.topics.map((t) => String(t).toLowerCase().replace(/^0x/, '')) : [];
      const address = String(log.address ?? '')
        .toLowerCase()
        .replace(/^(0x|41)(?=[0-9a-f]{40}$)/, '');
      const data = String(log.data ?? '').replace(/^0x/, '');
      if (address !== contractHex || topics.length !== 3 || topics[0] !== TRANSFER_TOPIC) return;
      if (!/^[0-9a-f]{64}$/.test(topics[1]) || !/^[0-9a-f]{64}$/.test(topics[2]) || topics[2].slice(-40) !== ourHex)
        return;
      if (!/^[0-9a-fA-F]{64}$/.test(data)) return;
      const amountUnits = BigInt(`0x${data}`);
      if (amountUnits <= 0n) return;
      transfers.push({
        txHash,
        logIndex,
        blockNumber: blockNumber as number,
        blockTime: new Date(blockTime as number),
        from: tronAddressFromHex(topics[1]),
        to: settings.address,
        amountUnits,
      });
    });
    return transfers;
  }

  return {
    network: 'trc20',
    async findTransfers(since, until) {
      const head = await solidHead();
      const found: TChainTransfer[] = [];
      const seen = new Set<string>();
      let fingerprint: string | undefined;
      for (let page = 0; page < PAGES_PER_PASS; page++) {
        const listed = await list(since.getTime(), fingerprint, until.getTime());
        for (const item of listed.items) {
          if (seen.has(item.txHash) || item.blockTime < since.getTime() || item.blockTime > until.getTime()) continue;
          seen.add(item.txHash);
          found.push(...((await finalTransfers(item.txHash, head)) ?? []));
        }
        if (!listed.fingerprint) break;
        fingerprint = listed.fingerprint;
      }
      return found;
    },
    async *scan(position, isKnown) {
      const head = await solidHead();
      const from = position ?? head.timestamp - TRON_FIRST_LOOKBACK_MS;
      let next = from;
      let fingerprint: string | undefined;
      const seen = new Set<string>();
      for (let page = 0; page < PAGES_PER_PASS; page++) {
        const listed = await list(from, fingerprint);
        const transfers: TChainTransfer[] = [];
        for (const item of listed.items) {
          if (seen.has(item.txHash)) continue;
          seen.add(item.txHash);
          if (!(await isKnown(item.txHash))) {
            const found = await finalTransfers(item.txHash, head);
            if (found === null) {
              // Not final yet (or the API's nodes disagree for a moment): go no further this pass. Listed
              // long before the solidified head and still unknown to it: not on the final chain.
              if (item.blockTime > head.timestamp - TRON_DROPPED_AFTER_MS) {
                yield { transfers, next };
                return;
              }
              next = Math.max(next, item.blockTime);
              continue;
            }
            transfers.push(...found);
          }
          next = Math.max(next, item.blockTime);
        }
        yield { transfers, next };
        if (!listed.fingerprint) return;
        fingerprint = listed.fingerprint;
      }
    },
  };
}
