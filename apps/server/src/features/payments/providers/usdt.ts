import { USDT_METHODS, type TUsdtNetwork } from '@proxy/contract';
import type { TUsdtChain } from '../usdt/chain';
import { parseUsdtRate } from '../usdt/usdt-amount';
import { NotificationRefusal, type TPayProvider } from './provider';

/** What a USDT order and its watcher need to know about the network. */
export type TUsdtSettings = {
  network: TUsdtNetwork;
  /** Our receiving address, as configured. */
  address: string;
  /** Yuan per USDT as configured (frozen into each order). */
  rate: string;
  rateMicro: bigint;
  orderTtlMin: number;
  /** Minutes after an order's time a transfer of its amount still pays it. */
  lateMatchMin: number;
  pollIntervalS: number;
  chain: TUsdtChain;
};

/** A USDT provider: the common interface, and the network's settings. */
export type TUsdtProvider = TPayProvider & { usdt: TUsdtSettings };

/** The provider as a USDT provider, or null for the others. */
export function usdtProviderOf(provider: TPayProvider | undefined): TUsdtProvider | null {
  return provider && 'usdt' in provider ? (provider as TUsdtProvider) : null;
}

/**
 * USDT on TRON or Ethereum. Nobody notifies us: a watcher job reads final
 * transfers from the chain and settles the order whose unique amount they
 * carry. The customer is shown the amount and our address (also as the QR).
 */
export function createUsdtProvider(settings: Omit<TUsdtSettings, 'rateMicro'>): TUsdtProvider {
  const rateMicro = parseUsdtRate(settings.rate);
  if (rateMicro === null) throw new Error(`USDT rate is not a positive decimal: ${settings.rate}`);
  return {
    method: USDT_METHODS[settings.network],
    modes: ['qr'],
    isSandbox: false,
    async create() {
      return { payUrl: null, qrCode: settings.address };
    },
    async verify() {
      throw new NotificationRefusal('USDT payments are read from the chain, never notified');
    },
    answers: {
      ok: { status: 200, contentType: 'text/plain; charset=utf-8', body: 'success' },
      refused: { status: 400, contentType: 'text/plain; charset=utf-8', body: 'fail' },
    },
    // The watcher credits transfers as they become final, on time or late; a stale order simply times out.
    async query() {
      return { state: 'unpaid' };
    },
    usdt: { ...settings, rateMicro },
  };
}
