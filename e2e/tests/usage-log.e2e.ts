import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { registerUser, sharedServer, type TAppServer, callApi } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { signIn } from '../support/console';

// Issue "Beyond the anchors, part 2": turn the usage log on in the user centre,
// send traffic through a proxy with real clients, find each connection in the
// proxy's log with the bytes the client saw, and export them as CSV.
let server: TAppServer;
let browser: Browser;

beforeAll(async () => {
  server = sharedServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const run = promisify(execFile);
const CURL = '/usr/bin/curl';

const callJson = (path: string, token: string, init?: { method?: string; body?: unknown }) =>
  callApi(server.url, path, token, init);

/**
 * A GET of the API's echo forwarded by the gateway, and the bytes the client
 * sent and received on its connection to the gateway: curl's own counts when
 * curl is installed, else a raw socket's.
 */
async function forwardGet(
  proxy: { username: string; password: string },
  target: string,
): Promise<{ up: number; down: number }> {
  if (existsSync(CURL)) {
    const { stdout } = await run(CURL, [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code} %{size_request} %{size_header} %{size_download}',
      '-x',
      `http://${proxy.username}:${proxy.password}@127.0.0.1:${server.gatewayPort}`,
      target,
    ]);
    const [status, request, header, body] = stdout.trim().split(' ').map(Number);
    expect(status).toBe(200);
    return { up: request, down: header + body };
  }
  const host = new URL(target).host;
  const request = Buffer.from(
    `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nProxy-Authorization: Basic ${Buffer.from(`${proxy.username}:${proxy.password}`).toString('base64')}\r\nConnection: close\r\n\r\n`,
  );
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.gatewayPort, '127.0.0.1', () => socket.write(request));
    let down = 0;
    socket.on('data', (d: Buffer) => (down += d.length));
    socket.on('error', reject);
    socket.on('close', () => resolve({ up: request.length, down }));
  });
}

describe('the usage log in the browser', () => {
  it('is turned on in the user centre, shows each connection with its bytes, and exports them as CSV', async () => {
    const account = await registerUser(server, 'usagelog');
    const bought = await callJson('/token/static/ip', account.token, {
      method: 'POST',
      body: { category: 'isp', country_id: 'us', quantity: 1, days: 1, network: 'HTTP' },
    });
    expect(bought.code, bought.msg).toBe(0);
    const proxy = (bought.data.tokens as { token_id: number; username: string; password: string }[])[0];
    const echo = `${server.url}/api/proxy/echo`;

    const { context, page } = await newPage(browser, { locale: 'en-US' });
    try {
      await signIn(page, server.url, account);
      // Off by default: the user centre turns it on.
      await page.goto(`${server.url}/user-center`);
      const enabled = page.getByTestId('usage-log-enabled');
      await enabled.waitFor();
      expect(await enabled.getAttribute('aria-checked')).toBe('false');
      await enabled.click();
      await page.getByTestId('usage-log-save').click();
      await expect.poll(() => page.locator('body').innerText()).toContain('Usage settings saved');
      expect((await callJson('/user/usage-log/settings', account.token)).data).toEqual({
        enabled: true,
        retention_days: 7,
        domain_usage_enabled: true,
      });

      // Two connections through the gateway with a real client.
      const first = await forwardGet(proxy, echo);
      const second = await forwardGet(proxy, `${echo}?again=1`);

      // From the proxy's detail drawer to its usage log.
      await page.goto(`${server.url}/proxy/isp/static`);
      const row = page.locator('.ant-table-tbody tr.ant-table-row').first();
      await row.getByRole('button', { name: 'Details' }).click();
      await page.getByTestId('detail-usage-log').click();
      await page.waitForURL(`**/proxy/usage-log/${proxy.token_id}`);
      const rows = page.getByTestId('usage-log-table').locator('.ant-table-tbody tr.ant-table-row');
      // Written by the gateway in batches: refresh until both are there.
      await expect
        .poll(async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return rows.count();
        })
        .toBe(2);
      const cells = async (testId: string) => (await page.getByTestId(testId).allInnerTexts()).map(Number);
      // Newest first: the bytes each connection carried, as the client counted them.
      expect(await cells('bytes-up')).toEqual([second.up, first.up]);
      expect(await cells('bytes-down')).toEqual([second.down, first.down]);
      const total = first.up + first.down + second.up + second.down;
      expect(await page.getByTestId('usage-log-totals').getAttribute('data-bytes')).toBe(String(total));
      expect(await rows.first().innerText()).toContain(`${new URL(server.url).hostname}:${new URL(server.url).port}`);
      expect(await rows.first().innerText()).toContain('Closed');

      // The totals are the proxy's metered usage.
      await expect
        .poll(
          async () =>
            ((await callJson(`/token/session/traffic?token_id=${proxy.token_id}&granularity=hour`, account.token)).data
              .total_bytes as number) ?? 0,
        )
        .toBe(total);

      // A filter that matches nothing, then back.
      await page.getByLabel('Outcome').click();
      await page.locator('.ant-select-dropdown:visible').getByText('Refused', { exact: true }).click();
      await page.getByRole('button', { name: 'Search' }).click();
      await expect.poll(() => rows.count()).toBe(0);
      await page.getByRole('button', { name: 'Reset' }).click();
      await expect.poll(() => rows.count()).toBe(2);

      // Export as CSV: the same connections and bytes.
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(`usage-log-${proxy.token_id}.csv`);
      const [header, ...lines] = readFileSync((await file.path())!, 'utf8')
        .trim()
        .split(/\r?\n/);
      const cols = header.split(',');
      expect(cols).toEqual([
        'started_at',
        'ended_at',
        'protocol',
        'source_ip',
        'target_host',
        'target_port',
        'bytes_up',
        'bytes_down',
        'outcome',
        'reason',
        'uncharged_bytes',
      ]);
      const parsed = lines.map((line) => {
        const c = line.split(',');
        return { protocol: c[2], up: Number(c[6]), down: Number(c[7]), outcome: c[8] };
      });
      expect(parsed).toEqual([
        { protocol: 'http', up: first.up, down: first.down, outcome: 'closed' },
        { protocol: 'http', up: second.up, down: second.down, outcome: 'closed' },
      ]);
    } finally {
      await context.close();
    }
  });
});
