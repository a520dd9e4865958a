import { randomBytes } from 'node:crypto';
import { Aes, Formatter, Rsa } from 'wechatpay-axios-plugin';
import { NotificationRefusal, type TPayProvider, type TProviderOrderState } from './provider';

/** Settings of WeChat Pay API v3 (config/env.ts, WECHAT_PAY_*). */
export type TWechatPaySettings = {
  mchid: string;
  appid: string;
  /** Serial number of our merchant API certificate. */
  serial: string;
  /** Our merchant API private key (PEM). */
  privateKey: string;
  /** WeChat Pay's platform public keys (or certificates' keys) by serial. */
  platformKeys: Record<string, string>;
  /** The API v3 key: decrypts notification resources. */
  apiV3Key: string;
  /** API base (tests point it at a local fake). */
  baseUrl: string;
};

/** Largest accepted difference between a notification's timestamp and our clock. */
export const WECHAT_CLOCK_SKEW_S = 300;

type TTransaction = {
  mchid?: string;
  appid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  trade_state?: string;
  amount?: { total?: number; payer_total?: number };
};

function header(headers: Record<string, string | undefined>, name: string): string {
  return headers[name] ?? headers[name.toLowerCase()] ?? '';
}

/**
 * WeChat Pay API v3, Native (QR code) pay. Requests are signed with our
 * merchant key; answers and notifications are checked against the platform
 * key named by Wechatpay-Serial, over the exact bytes, within 300 s of our
 * clock; the notification's resource is decrypted with AEAD_AES_256_GCM and
 * the API v3 key, then checked against our mchid, appid and order.
 */
export function createWechatPayProvider(
  settings: TWechatPaySettings,
  now: () => Date = () => new Date(),
): TPayProvider {
  const base = settings.baseUrl.replace(/\/$/, '');

  function checkSigned(headers: Record<string, string | undefined>, body: string): void {
    const timestamp = header(headers, 'Wechatpay-Timestamp');
    const nonce = header(headers, 'Wechatpay-Nonce');
    const signature = header(headers, 'Wechatpay-Signature');
    const serial = header(headers, 'Wechatpay-Serial');
    const key = settings.platformKeys[serial];
    if (!key) throw new NotificationRefusal(`unknown platform serial ${serial || '(none)'}`);
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now().getTime() / 1000 - Number(timestamp)) > WECHAT_CLOCK_SKEW_S) {
      throw new NotificationRefusal(`timestamp ${timestamp} outside ${WECHAT_CLOCK_SKEW_S} s of our clock`);
    }
    let isValid = false;
    try {
      isValid = Rsa.verify(Formatter.response(timestamp, nonce, body), signature, key);
    } catch {
      isValid = false;
    }
    if (!isValid) throw new NotificationRefusal('bad signature');
  }

  // One signed API v3 call; the answer's signature is checked like a notification's.
  async function call(
    method: 'GET' | 'POST',
    path: string,
    body?: object,
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    const payload = body ? JSON.stringify(body) : '';
    const nonce = randomBytes(16).toString('hex');
    const timestamp = Math.floor(now().getTime() / 1000);
    const signature = Rsa.sign(Formatter.request(method, path, timestamp, nonce, payload), settings.privateKey);
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: Formatter.authorization(settings.mchid, nonce, signature, timestamp, settings.serial),
      },
      body: body ? payload : undefined,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    const headers = Object.fromEntries(res.headers.entries());
    if (res.status < 300 || res.status === 404) {
      try {
        checkSigned(headers, text);
      } catch (error) {
        throw new Error(`wechat pay answer not genuine: ${(error as Error).message}`);
      }
    }
    return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  return {
    method: 'wechat',
    modes: ['qr'],
    isSandbox: false,
    async create(request) {
      const answer = await call('POST', '/v3/pay/transactions/native', {
        appid: settings.appid,
        mchid: settings.mchid,
        description: request.subject,
        out_trade_no: request.orderId,
        time_expire: request.expiresAt.toISOString().replace(/\.\d{3}Z$/, '+00:00'),
        notify_url: request.notifyUrl,
        amount: { total: request.priceFen, currency: 'CNY' },
      });
      const codeUrl = answer.json.code_url;
      if (answer.status !== 200 || typeof codeUrl !== 'string')
        throw new Error(`wechat pay native refused: ${answer.status} ${String(answer.json.code ?? '')}`);
      return { payUrl: null, qrCode: codeUrl };
    },
    async verify({ rawBody, headers }) {
      checkSigned(headers, rawBody);
      let envelope: {
        event_type?: string;
        resource?: { algorithm?: string; ciphertext?: string; nonce?: string; associated_data?: string };
      };
      try {
        envelope = JSON.parse(rawBody);
      } catch {
        throw new NotificationRefusal('malformed body');
      }
      const resource = envelope.resource;
      if (resource?.algorithm !== 'AEAD_AES_256_GCM' || !resource.ciphertext || !resource.nonce)
        throw new NotificationRefusal('no AEAD_AES_256_GCM resource');
      let transaction: TTransaction;
      try {
        transaction = JSON.parse(
          Aes.AesGcm.decrypt(resource.ciphertext, settings.apiV3Key, resource.nonce, resource.associated_data ?? ''),
        ) as TTransaction;
      } catch {
        throw new NotificationRefusal('resource does not decrypt with our API v3 key');
      }
      if (transaction.mchid !== settings.mchid) throw new NotificationRefusal(`mchid ${transaction.mchid} is not ours`);
      if (transaction.appid !== settings.appid) throw new NotificationRefusal(`appid ${transaction.appid} is not ours`);
      const total = transaction.amount?.total;
      if (!transaction.out_trade_no || !transaction.transaction_id || !Number.isSafeInteger(total))
        throw new NotificationRefusal('order, transaction or amount missing');
      const state = transaction.trade_state ?? '';
      return {
        orderId: transaction.out_trade_no,
        providerTxId: transaction.transaction_id,
        paidFen: total!,
        outcome: state === 'SUCCESS' ? 'success' : state === 'CLOSED' || state === 'PAYERROR' ? 'failure' : 'ignore',
      };
    },
    answers: {
      ok: { status: 204, contentType: 'application/json', body: '' },
      refused: {
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'FAIL', message: 'refused' }),
      },
    },
    async query(orderId): Promise<TProviderOrderState> {
      const answer = await call(
        'GET',
        `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderId)}?mchid=${encodeURIComponent(settings.mchid)}`,
      );
      if (answer.status === 404) return { state: 'unpaid' };
      if (answer.status !== 200) throw new Error(`wechat pay query refused: ${answer.status}`);
      const t = answer.json as TTransaction;
      if (t.trade_state === 'SUCCESS' && t.transaction_id && Number.isSafeInteger(t.amount?.total)) {
        return { state: 'paid', providerTxId: t.transaction_id, paidFen: t.amount!.total! };
      }
      return t.trade_state === 'CLOSED' ? { state: 'closed' } : { state: 'unpaid' };
    },
  };
}
