import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { NotificationRefusal, type TPayProvider } from './provider';

/**
 * The sandbox provider (PAY_SANDBOX=true): for a fresh install and the tests.
 * Its pay page is ours (`GET /api/pay/sandbox/{order}`); paying there makes
 * the server send itself a notification signed like a real provider's, which
 * goes through the same verification and settlement as Alipay's or WeChat's.
 */

/** Header carrying the sandbox notification's signature. */
export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

/** The body of a sandbox notification. */
export type TSandboxNotification = { order_id: string; tx_id: string; paid_fen: number; result: 'success' | 'failure' };

/** The sandbox provider, with the signer its pay page uses. */
export function createSandboxProvider(options: { secret: string; publicUrl: string }): TPayProvider & {
  /** A signed notification for the order, as the pay page sends it. */
  notificationFor(
    order: { id: string; priceFen: number },
    result: 'success' | 'failure',
  ): { rawBody: string; headers: Record<string, string> };
} {
  const key = createHmac('sha256', options.secret).update('pay-sandbox').digest();
  const sign = (body: string) => createHmac('sha256', key).update(body).digest('hex');
  const pageUrl = (orderId: string) => `${options.publicUrl}/api/pay/sandbox/${encodeURIComponent(orderId)}`;
  return {
    method: 'sandbox',
    modes: ['redirect', 'qr'],
    isSandbox: true,
    async create(request) {
      const url = pageUrl(request.orderId);
      return request.mode === 'qr' ? { payUrl: null, qrCode: url } : { payUrl: url, qrCode: null };
    },
    async verify({ rawBody, headers }) {
      const given = Buffer.from(headers[SANDBOX_SIGNATURE_HEADER] ?? '', 'hex');
      const expected = Buffer.from(sign(rawBody), 'hex');
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        throw new NotificationRefusal('bad signature');
      let body: TSandboxNotification;
      try {
        body = JSON.parse(rawBody) as TSandboxNotification;
      } catch {
        throw new NotificationRefusal('malformed body');
      }
      if (typeof body.order_id !== 'string' || typeof body.tx_id !== 'string' || !Number.isSafeInteger(body.paid_fen)) {
        throw new NotificationRefusal('malformed body');
      }
      return {
        orderId: body.order_id,
        providerTxId: body.tx_id,
        paidFen: body.paid_fen,
        outcome: body.result === 'success' ? 'success' : 'failure',
      };
    },
    answers: {
      ok: { status: 200, contentType: 'text/plain; charset=utf-8', body: 'success' },
      refused: { status: 400, contentType: 'text/plain; charset=utf-8', body: 'fail' },
    },
    // Nothing is paid at the sandbox unless its page says so.
    async query() {
      return { state: 'unpaid' };
    },
    notificationFor(order, result) {
      const body: TSandboxNotification = {
        order_id: order.id,
        tx_id: `SBX${randomBytes(8).toString('hex').toUpperCase()}`,
        paid_fen: order.priceFen,
        result,
      };
      const rawBody = JSON.stringify(body);
      return { rawBody, headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: sign(rawBody) } };
    },
  };
}
