import { createCipheriv, createSign, createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';

/**
 * A local fake of WeChat Pay API v3 (Native order and order query) with keys
 * generated here, and the signer of its notifications. It checks our
 * requests' signatures and signs its answers with the platform key.
 */
export type TFakeWechatPay = {
  baseUrl: string;
  env: Record<string, string>;
  /** Transactions the query answers, by out_trade_no. */
  transactions: Map<string, { trade_state: string; transaction_id: string; total: number }>;
  requests: { method: string; path: string; body: Record<string, unknown>; isSignedByMerchant: boolean }[];
  /** A notification: raw body and headers, signed by the platform key (or `signWith`), dated `timestamp` (seconds). */
  notification(
    transaction: Record<string, unknown>,
    options?: { timestamp?: number; signWith?: string; serial?: string; apiV3Key?: string },
  ): { rawBody: string; headers: Record<string, string> };
  close(): Promise<void>;
};

function sign(message: string, key: string): string {
  return createSign('RSA-SHA256').update(message).sign(key, 'base64');
}

/** AEAD_AES_256_GCM as WeChat Pay encrypts notification resources: base64(ciphertext || tag). */
export function encryptResource(plaintext: string, key: string, nonce: string, aad: string): string {
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key), Buffer.from(nonce));
  cipher.setAAD(Buffer.from(aad));
  return Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64');
}

/** Starts the fake on 127.0.0.1. */
export async function startFakeWechatPay(now: () => number = Date.now): Promise<TFakeWechatPay> {
  const merchant = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const platform = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const mchid = '1900000109';
  const appid = 'wxd678efh567hg6787';
  const platformSerial = '5157F09EFDC096DE15EBE81A47057A7232F1B8E1';
  const apiV3Key = randomBytes(16).toString('hex');
  const transactions: TFakeWechatPay['transactions'] = new Map();
  const requests: TFakeWechatPay['requests'] = [];

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const header = req.headers.authorization ?? '';
      const field = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(header)?.[1] ?? '';
      const isSignedByMerchant =
        header.startsWith('WECHATPAY2-SHA256-RSA2048 ') &&
        field('mchid') === mchid &&
        createVerify('RSA-SHA256')
          .update(`${req.method}\n${req.url}\n${field('timestamp')}\n${field('nonce_str')}\n${body}\n`)
          .verify(merchant.publicKey, field('signature'), 'base64');
      const parsed = body ? (JSON.parse(body) as Record<string, unknown>) : {};
      requests.push({ method: req.method ?? '', path: req.url ?? '', body: parsed, isSignedByMerchant });
      let status = 200;
      let answer: Record<string, unknown>;
      const queried = /^\/v3\/pay\/transactions\/out-trade-no\/([^?]+)\?mchid=/.exec(req.url ?? '');
      if (!isSignedByMerchant) [status, answer] = [401, { code: 'SIGN_ERROR', message: 'bad signature' }];
      else if (req.method === 'POST' && req.url === '/v3/pay/transactions/native')
        answer = { code_url: `weixin://wxpay/bizpayurl?pr=${String(parsed.out_trade_no)}` };
      else if (queried) {
        const t = transactions.get(decodeURIComponent(queried[1]));
        if (t)
          answer = {
            mchid,
            appid,
            out_trade_no: queried[1],
            transaction_id: t.transaction_id,
            trade_state: t.trade_state,
            amount: { total: t.total },
          };
        else [status, answer] = [404, { code: 'ORDER_NOT_EXIST', message: 'order not exist' }];
      } else [status, answer] = [404, { code: 'NOT_FOUND', message: 'no such api' }];
      const text = JSON.stringify(answer);
      const timestamp = String(Math.floor(now() / 1000));
      const nonce = randomBytes(16).toString('hex');
      res.writeHead(status, {
        'content-type': 'application/json',
        'wechatpay-timestamp': timestamp,
        'wechatpay-nonce': nonce,
        'wechatpay-serial': platformSerial,
        'wechatpay-signature': sign(`${timestamp}\n${nonce}\n${text}\n`, platform.privateKey),
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    baseUrl,
    env: {
      WECHAT_PAY_MCHID: mchid,
      WECHAT_PAY_APPID: appid,
      WECHAT_PAY_SERIAL: '3775B6A45ACD588826D15E583A95F5DD00000000',
      WECHAT_PAY_PRIVATE_KEY: merchant.privateKey,
      WECHAT_PAY_PLATFORM_SERIAL: platformSerial,
      WECHAT_PAY_PLATFORM_PUBLIC_KEY: platform.publicKey,
      WECHAT_PAY_API_V3_KEY: apiV3Key,
      WECHAT_PAY_BASE_URL: baseUrl,
    },
    transactions,
    requests,
    notification(transaction, options = {}) {
      const nonce = randomBytes(6).toString('hex');
      const aad = 'transaction';
      const resource = {
        algorithm: 'AEAD_AES_256_GCM',
        ciphertext: encryptResource(
          JSON.stringify({ mchid, appid, ...transaction }),
          options.apiV3Key ?? apiV3Key,
          nonce,
          aad,
        ),
        associated_data: aad,
        original_type: 'transaction',
        nonce,
      };
      const rawBody = JSON.stringify({
        id: randomBytes(8).toString('hex'),
        event_type: 'TRANSACTION.SUCCESS',
        resource_type: 'encrypt-resource',
        resource,
      });
      const timestamp = String(options.timestamp ?? Math.floor(now() / 1000));
      const headerNonce = randomBytes(16).toString('hex');
      return {
        rawBody,
        headers: {
          'content-type': 'application/json',
          'wechatpay-timestamp': timestamp,
          'wechatpay-nonce': headerNonce,
          'wechatpay-serial': options.serial ?? platformSerial,
          'wechatpay-signature': sign(
            `${timestamp}\n${headerNonce}\n${rawBody}\n`,
            options.signWith ?? platform.privateKey,
          ),
        },
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
