import type { FastifyInstance } from 'fastify';
import { API_PREFIX, formatFen } from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { findOrder } from './payments.repository';
import { receiveNotification } from './payments-settle.service';
import type { createSandboxProvider } from './providers/sandbox';

/**
 * What payment providers call, outside the customer API's route table:
 * `POST /api/pay/notify/{method}` (notifications, kept as raw text because
 * signatures cover the exact bytes), and the sandbox's own pay page
 * (`GET`/`POST /api/pay/sandbox/{order}`).
 */
export async function registerPaymentCallbacks(app: FastifyInstance, deps: TDeps): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) =>
      done(null, body),
    );

    scope.post<{ Params: { method: string } }>(`${API_PREFIX}/pay/notify/:method`, async (req, reply) => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
      const answer = await receiveNotification(
        deps,
        req.params.method,
        { rawBody: typeof req.body === 'string' ? req.body : '', headers },
        req.ip,
      );
      if (!answer) throw new AppError('NOT_FOUND');
      return reply.code(answer.status).type(answer.contentType).send(answer.body);
    });

    const sandbox = deps.payProviders.get('sandbox') as ReturnType<typeof createSandboxProvider> | undefined;
    if (!sandbox) return;

    scope.get<{ Params: { order: string } }>(`${API_PREFIX}/pay/sandbox/:order`, async (req, reply) => {
      const order = await findOrder(deps.db, req.params.order);
      if (!order || order.method !== 'sandbox') throw new AppError('NOT_FOUND');
      return reply
        .type('text/html; charset=utf-8')
        .send(sandboxPage(order.id, formatFen(order.priceFen), order.status));
    });

    scope.post<{ Params: { order: string } }>(`${API_PREFIX}/pay/sandbox/:order`, async (req, reply) => {
      const order = await findOrder(deps.db, req.params.order);
      if (!order || order.method !== 'sandbox') throw new AppError('NOT_FOUND');
      const result = new URLSearchParams(typeof req.body === 'string' ? req.body : '').get('result');
      if (result !== 'success' && result !== 'failure')
        throw new AppError('BAD_REQUEST', undefined, [{ path: 'result', message: 'invalidValue' }]);
      // The same path as a real provider's notification: signed, verified, settled exactly once.
      await receiveNotification(deps, 'sandbox', sandbox.notificationFor(order, result), req.ip);
      return reply.redirect(`${deps.config.publicUrl}/charge?order=${encodeURIComponent(order.id)}`, 303);
    });
  });
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

// The sandbox's pay page, in both languages.
function sandboxPage(orderId: string, price: string, status: string): string {
  const id = escapeHtml(orderId);
  const isPending = status === 'pending';
  return `<!doctype html>
<html lang="zh"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>沙箱支付 / Sandbox payment</title>
<style>body{font-family:system-ui,sans-serif;max-width:420px;margin:48px auto;padding:0 16px;color:#1f1f1f}
.card{border:1px solid #e5e5e5;border-radius:12px;padding:24px}.note{color:#8c8c8c;font-size:13px}
.amount{font-size:32px;font-weight:600;margin:12px 0}button{font-size:16px;padding:10px 20px;border-radius:8px;border:1px solid #d9d9d9;cursor:pointer;margin-right:8px}
.pay{background:#1677ff;border-color:#1677ff;color:#fff}</style></head>
<body><div class="card">
<h2>沙箱支付 / Sandbox payment</h2>
<p class="note">测试环境：不会产生真实扣款。<br>Sandbox: no real money moves.</p>
<p>订单 / Order: <code>${id}</code></p>
<div class="amount">${escapeHtml(price)}</div>
${
  isPending
    ? `<form method="post" action="${escapeHtml(`${API_PREFIX}/pay/sandbox/${encodeURIComponent(orderId)}`)}">
<button class="pay" type="submit" name="result" value="success">支付成功 / Pay</button>
<button type="submit" name="result" value="failure">支付失败 / Fail</button>
</form>`
    : `<p>该订单状态 / Order status: <strong>${escapeHtml(status)}</strong></p>`
}
</div></body></html>`;
}
