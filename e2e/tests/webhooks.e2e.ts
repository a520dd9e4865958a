import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  startHttpsReceiver,
  verifyWebhook,
  type THttpsReceiver,
} from '@proxy/server/features/webhooks/webhooks-test-kit';
import { registerUser, startAppServer, type TAppServer } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { signIn } from '../support/console';

// Issue "Beyond the anchors", part 1: a user points a webhook at a local HTTPS
// receiver, buys a 0.1 GB traffic proxy and sends traffic through the real
// gateway past 80 %; the console shows the usage notification and the receiver
// gets the signed usage.threshold event (the alert thresholds through a real
// metering gateway, delivered by the server's webhook queue).
const LIMIT_BYTES = 107_374_182; // 0.1 GB
const BULK_BYTES = Math.ceil(LIMIT_BYTES * 0.85);

let receiver: THttpsReceiver;
let bulk: Server;
let server: TAppServer;
let browser: Browser;

beforeAll(async () => {
  receiver = await startHttpsReceiver();
  // A local origin that answers ~85 MB, fetched through the gateway.
  const chunk = Buffer.alloc(1024 * 1024, 0x61);
  bulk = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(BULK_BYTES) });
    let left = BULK_BYTES;
    const pump = () => {
      while (left > 0) {
        const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= part.length;
        if (!res.write(part)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => bulk.listen(0, '127.0.0.1', resolve));
  server = await startAppServer({
    GATEWAY_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_EXTRA_CA: receiver.ca,
    WEBHOOK_INTERVAL_MS: '200',
    JOBS_INTERVAL_MS: '500',
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await receiver?.close();
  await new Promise((resolve) => bulk?.close(resolve));
});

/** Downloads a URL through the gateway as an HTTP proxy (absolute-form GET); answers the status and the bytes read. */
function downloadThroughGateway(
  gatewayPort: number,
  username: string,
  password: string,
  target: string,
): Promise<{ status: number; bytes: number }> {
  const credentials = Buffer.from(`${username}:${password}`).toString('base64');
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: gatewayPort,
        method: 'GET',
        path: target,
        headers: { host: new URL(target).host, 'proxy-authorization': `Basic ${credentials}` },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('webhooks in the browser', () => {
  it('registers a webhook, sends a test, and receives the signed usage.threshold event after real traffic through the gateway', async () => {
    const account = await registerUser(server, 'hooks');
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    try {
      await signIn(page, server.url, account);
      await page.goto(`${server.url}/developer/webhooks`);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const dialog = page.getByRole('dialog').filter({ hasText: 'Add a webhook endpoint' });
      await dialog.getByLabel('URL').fill(receiver.url);
      await dialog.getByLabel('Description').fill('local receiver');
      await dialog.getByLabel('Traffic threshold reached').check();
      await dialog.getByRole('button', { name: 'Save' }).click();

      // The secret, shown once.
      const secretInput = page.getByTestId('webhook-secret');
      await expect.poll(() => secretInput.inputValue()).toMatch(/^whsec_[0-9a-f]{48}$/);
      const secret = await secretInput.inputValue();
      await page.getByRole('button', { name: 'I have saved it' }).click();
      await expect.poll(() => page.locator('.ant-table-tbody').innerText()).toContain(receiver.url);

      // "Send test": a signed ping arrives and the console says it was delivered.
      await page.getByRole('button', { name: 'Send test' }).click();
      await receiver.waitFor(1);
      const ping = receiver.received[0];
      expect(ping.json.type).toBe('ping');
      expect(verifyWebhook(secret, ping.headers, ping.body, Date.now() / 1000)).toBe(true);
      await expect.poll(() => page.locator('body').innerText()).toMatch(/Test delivered: HTTP 200/);

      // A 0.1 GB traffic proxy, bought with the trial credit.
      const bought = await fetch(`${server.url}/api/token/variable/traffic`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${account.token}`, lang: 'en' },
        body: JSON.stringify({ network: 'HTTP', country_id: 'us', quantity: 1, traffic_gb: 0.1 }),
      }).then((r) => r.json());
      expect(bought.code, JSON.stringify(bought)).toBe(0);
      const proxy = bought.data.tokens[0] as { token_id: number; username: string; password: string };

      // 85 % of the allowance through the real gateway.
      const got = await downloadThroughGateway(
        server.gatewayPort,
        proxy.username,
        proxy.password,
        `http://127.0.0.1:${(bulk.address() as AddressInfo).port}/bulk`,
      );
      expect(got).toEqual({ status: 200, bytes: BULK_BYTES });

      // The console's notification (the alert job, after the gateway's meter flushed the bytes)...
      const titles = async () => {
        const res = await fetch(`${server.url}/api/user/notification/list?page_size=20`, {
          headers: { authorization: `Bearer ${account.token}`, lang: 'en' },
        });
        return ((await res.json()).data.records as { title: string }[]).map((n) => n.title);
      };
      await expect.poll(titles).toContain('Proxy traffic 80% used');
      await page.goto(`${server.url}/notifications`);
      await expect.poll(() => page.locator('body').innerText()).toContain('Proxy traffic 80% used');

      // ...and the signed usage.threshold delivery at the receiver.
      await expect.poll(() => receiver.received.some((r) => r.json.type === 'usage.threshold')).toBe(true);
      const usage = receiver.received.find((r) => r.json.type === 'usage.threshold')!;
      expect(usage.json.data).toMatchObject({ proxy_id: proxy.token_id, percent: 80 });
      expect(usage.headers['webhook-id']).toBe(usage.json.id);
      expect(verifyWebhook(secret, usage.headers, usage.body, Date.now() / 1000)).toBe(true);
      expect(verifyWebhook('whsec_wrong', usage.headers, usage.body, Date.now() / 1000)).toBe(false);

      // The delivery log shows it delivered.
      await page.goto(`${server.url}/developer/webhooks`);
      await page.getByRole('button', { name: 'Deliveries' }).click();
      const drawer = page.locator('.ant-drawer');
      await expect.poll(() => drawer.innerText()).toContain(usage.json.id);
      expect(await drawer.innerText()).toContain('Traffic threshold reached');
      expect(await drawer.innerText()).toContain('Delivered');
    } finally {
      await context.close();
    }
  });
});
