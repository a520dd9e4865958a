import { AlipaySdk } from 'alipay-sdk';
import { fenToYuan, yuanToFen } from '@proxy/contract';
import { NotificationRefusal, type TPayProvider, type TProviderOrderState } from './provider';

/** Settings of Alipay (config/env.ts, ALIPAY_*). */
export type TAlipaySettings = {
  appId: string;
  /** Our application's private key (PEM or bare base64). */
  privateKey: string;
  keyType: 'PKCS1' | 'PKCS8';
  /** Alipay's public key (PEM or bare base64): notifications and answers are checked with it. */
  alipayPublicKey: string;
  /** Our merchant (partner) id; notifications for another seller are refused. */
  sellerId?: string;
  /** OpenAPI gateway (tests point it at a local fake). */
  gateway: string;
};

type TTradeAnswer = {
  code?: string;
  sub_code?: string;
  msg?: string;
  qr_code?: string;
  trade_status?: string;
  trade_no?: string;
  total_amount?: string;
};

const PAID = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);

// Alipay's time format (UTC+8): "2026-11-22 18:30:00".
function beijingTime(date: Date): string {
  return new Date(date.getTime() + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * Alipay through the official alipay-sdk: page pay (redirect, desktop) and
 * precreate (QR code). Notifications are checked with RSA2 against Alipay's
 * public key, then against our app id, seller id and order; Alipay resends
 * until it reads the literal "success", for up to 25 hours.
 */
export function createAlipayProvider(settings: TAlipaySettings): TPayProvider {
  const sdk = new AlipaySdk({
    appId: settings.appId,
    privateKey: settings.privateKey,
    keyType: settings.keyType,
    alipayPublicKey: settings.alipayPublicKey,
    gateway: settings.gateway,
    camelcase: false,
    timeout: 10_000,
  });
  const bizOf = (orderId: string, priceFen: number, subject: string, expiresAt: Date) => ({
    out_trade_no: orderId,
    total_amount: fenToYuan(priceFen).toFixed(2),
    subject,
    time_expire: beijingTime(expiresAt),
  });
  return {
    method: 'alipay',
    modes: ['redirect', 'qr'],
    isSandbox: false,
    async create(request) {
      const biz = bizOf(request.orderId, request.priceFen, request.subject, request.expiresAt);
      if (request.mode === 'redirect') {
        const payUrl = sdk.pageExecute('alipay.trade.page.pay', 'GET', {
          bizContent: { ...biz, product_code: 'FAST_INSTANT_TRADE_PAY' },
          notifyUrl: request.notifyUrl,
          returnUrl: request.returnUrl,
        });
        return { payUrl, qrCode: null };
      }
      const answer = (await sdk.exec(
        'alipay.trade.precreate',
        { bizContent: biz, notify_url: request.notifyUrl },
        { validateSign: true },
      )) as TTradeAnswer;
      if (answer.code !== '10000' || !answer.qr_code)
        throw new Error(`alipay precreate refused: ${answer.code} ${answer.sub_code ?? ''} ${answer.msg ?? ''}`);
      return { payUrl: null, qrCode: answer.qr_code };
    },
    async verify({ rawBody }) {
      const params = Object.fromEntries(new URLSearchParams(rawBody));
      if (!params.sign || !sdk.checkNotifySignV2(params)) throw new NotificationRefusal('bad signature');
      if (params.app_id !== settings.appId) throw new NotificationRefusal(`app_id ${params.app_id} is not ours`);
      if (settings.sellerId && params.seller_id !== settings.sellerId)
        throw new NotificationRefusal(`seller_id ${params.seller_id} is not ours`);
      if (!params.out_trade_no || !params.trade_no) throw new NotificationRefusal('out_trade_no or trade_no missing');
      let paidFen: number;
      try {
        paidFen = yuanToFen(params.total_amount ?? '');
      } catch {
        throw new NotificationRefusal(`total_amount ${params.total_amount} is not an amount`);
      }
      const status = params.trade_status ?? '';
      return {
        orderId: params.out_trade_no,
        providerTxId: params.trade_no,
        paidFen,
        outcome: PAID.has(status) ? 'success' : status === 'TRADE_CLOSED' ? 'failure' : 'ignore',
      };
    },
    answers: {
      ok: { status: 200, contentType: 'text/plain; charset=utf-8', body: 'success' },
      refused: { status: 400, contentType: 'text/plain; charset=utf-8', body: 'fail' },
    },
    async query(orderId): Promise<TProviderOrderState> {
      const answer = (await sdk.exec(
        'alipay.trade.query',
        { bizContent: { out_trade_no: orderId } },
        { validateSign: true },
      )) as TTradeAnswer;
      if (answer.code === '40004' && answer.sub_code === 'ACQ.TRADE_NOT_EXIST') return { state: 'unpaid' };
      if (answer.code !== '10000')
        throw new Error(`alipay trade query refused: ${answer.code} ${answer.sub_code ?? ''}`);
      if (PAID.has(answer.trade_status ?? '') && answer.trade_no && answer.total_amount) {
        return { state: 'paid', providerTxId: answer.trade_no, paidFen: yuanToFen(answer.total_amount) };
      }
      return answer.trade_status === 'TRADE_CLOSED' ? { state: 'closed' } : { state: 'unpaid' };
    },
  };
}
