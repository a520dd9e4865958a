import { createSign, createVerify, generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';

/**
 * A local fake of Alipay's OpenAPI gateway (alipay.trade.precreate and
 * alipay.trade.query) with keys generated here, and the signer of Alipay's
 * asynchronous notifications. Only the network edge is fake: the provider
 * under test uses the real alipay-sdk against it.
 */
export type TFakeAlipay = {
  gateway: string;
  /** ALIPAY_* settings pointing the server at this fake. */
  env: Record<string, string>;
  /** Trades the query answers, by out_trade_no. */
  trades: Map<string, { trade_status: string; trade_no: string; total_amount: string }>;
  /** Requests seen, with whether our signature checked out. */
  requests: { method: string; biz: Record<string, unknown>; isSignedByApp: boolean }[];
  /** A notification form body signed by Alipay's key (or by `signWith`). */
  notification(params: Record<string, string>, signWith?: string): string;
  close(): Promise<void>;
};

function signContent(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((k) => k !== 'sign')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

function rsaSign(text: string, privateKey: string): string {
  return createSign('RSA-SHA256').update(text, 'utf8').sign(privateKey, 'base64');
}

/** Starts the fake on 127.0.0.1. */
export async function startFakeAlipay(options: { appId?: string; sellerId?: string } = {}): Promise<TFakeAlipay> {
  const appId = options.appId ?? '2026000000000001';
  const app = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const alipay = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const trades: TFakeAlipay['trades'] = new Map();
  const requests: TFakeAlipay['requests'] = [];

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const params: Record<string, string> = {
        ...Object.fromEntries(url.searchParams),
        ...Object.fromEntries(new URLSearchParams(body)),
      };
      const isSignedByApp = createVerify('RSA-SHA256')
        .update(signContent(params), 'utf8')
        .verify(app.publicKey, params.sign ?? '', 'base64');
      const biz = JSON.parse(params.biz_content ?? '{}') as Record<string, unknown>;
      requests.push({ method: params.method, biz, isSignedByApp });
      const key = `${params.method.replaceAll('.', '_')}_response`;
      let answer: Record<string, unknown>;
      if (!isSignedByApp) answer = { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature' };
      else if (params.method === 'alipay.trade.precreate') {
        answer = {
          code: '10000',
          msg: 'Success',
          out_trade_no: biz.out_trade_no,
          qr_code: `https://qr.alipay.com/fake${String(biz.out_trade_no)}`,
        };
      } else if (params.method === 'alipay.trade.query') {
        const trade = trades.get(String(biz.out_trade_no));
        answer = trade
          ? { code: '10000', msg: 'Success', out_trade_no: biz.out_trade_no, ...trade }
          : { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_NOT_EXIST' };
      } else answer = { code: '40004', msg: 'Business Failed', sub_code: 'isv.unknown-method' };
      const data = JSON.stringify(answer);
      res.setHeader('content-type', 'application/json;charset=utf-8');
      res.end(`{"${key}":${data},"sign":"${rsaSign(data, alipay.privateKey)}"}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const gateway = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/gateway.do`;
  return {
    gateway,
    env: {
      ALIPAY_APP_ID: appId,
      ALIPAY_PRIVATE_KEY: app.privateKey,
      ALIPAY_KEY_TYPE: 'PKCS8',
      ALIPAY_PUBLIC_KEY: alipay.publicKey,
      ...(options.sellerId ? { ALIPAY_SELLER_ID: options.sellerId } : {}),
      ALIPAY_GATEWAY: gateway,
    },
    trades,
    requests,
    notification(params, signWith) {
      const full = {
        notify_type: 'trade_status_sync',
        charset: 'utf-8',
        version: '1.0',
        sign_type: 'RSA2',
        notify_time: '2026-11-22 18:00:00',
        ...params,
      };
      return new URLSearchParams({
        ...full,
        sign: rsaSign(signContent(full), signWith ?? alipay.privateKey),
      }).toString();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
