import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { registerUser, startAppServer, type TAppServer, callApi } from '../support/app-server';
import { launchBrowser, newPage } from '../support/browser';
import { signIn } from '../support/console';

// Issue "Beyond the anchors", part 2, per-proxy target rules: a customer sets a
// deny list (a domain and a CIDR) in a proxy's detail drawer and an allow list
// for the account on the security page; curl through the real gateway is
// refused with the documented refusal (403 with X-Proxy-Reason on HTTP forward
// and CONNECT, reply 0x02 on SOCKS5), allowed targets pass, and a refusal costs
// no traffic. A malformed line shows its error in English and in Chinese.
//
// Its own server: the targets are local origins on 127.0.0.1 and 127.0.0.2,
// which the shared server's gateway refuses as private before any rule applies
// (only the proxy test's echo passes there, and target rules exempt the echo).
let server: TAppServer;
let browser: Browser;
/** Local origins on 127.0.0.1 and 127.0.0.2. */
let one: { server: Server; port: number; hits: number };
let two: { server: Server; port: number; hits: number };

/** A local origin on an address that answers a short text and counts the requests that reached it. */
async function startOrigin(host: string, text: string) {
  const origin = { server: createServer(), port: 0, hits: 0 };
  origin.server.on('request', (_req, res) => {
    origin.hits += 1;
    // A fixed length (not chunked): curl's byte counts are then the bytes on the wire.
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(Buffer.byteLength(text)) }).end(text);
  });
  await new Promise<void>((resolve) => origin.server.listen(0, host, resolve));
  origin.port = (origin.server.address() as AddressInfo).port;
  return origin;
}

beforeAll(async () => {
  one = await startOrigin('127.0.0.1', 'origin one');
  two = await startOrigin('127.0.0.2', 'origin two');
  server = await startAppServer({ GATEWAY_ALLOW_PRIVATE_TARGETS: 'true' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  for (const origin of [one, two]) if (origin) await new Promise((resolve) => origin.server.close(resolve));
});

const CURL = '/usr/bin/curl';
const REASON = 'target-blocked-by-rule';

type TCurl = { exit: number; stdout: string; stderr: string };

/** Runs curl; resolves its exit code and output whether it succeeded or not. */
function curl(args: string[]): Promise<TCurl> {
  return new Promise((resolve) => {
    execFile(CURL, ['-s', '-S', '--max-time', '30', ...args], (error, stdout, stderr) => {
      const exit = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ exit, stdout, stderr });
    });
  });
}

type TProxy = { token_id: number; username: string; password: string };

const gatewayUrl = (scheme: 'http' | 'socks5', proxy: TProxy) =>
  `${scheme}://${proxy.username}:${proxy.password}@127.0.0.1:${server.gatewayPort}`;

/** The status line and X-Proxy-Reason of the last answer in curl's -i output (after a CONNECT, the tunnel's or the refusal's). */
function lastAnswer(output: string): { status: number; reason: string | null } {
  const heads = [...output.matchAll(/^HTTP\/1\.[01] (\d{3})[^\n]*\n((?:[^\r\n]+\r?\n)*)/gm)];
  const head = heads.at(-1);
  if (!head) return { status: 0, reason: null };
  return { status: Number(head[1]), reason: /^x-proxy-reason: *(\S+)/im.exec(head[2])?.[1] ?? null };
}

const SIZES = '\n%{size_request} %{size_header} %{size_download}';

/** The answer curl got, and the bytes it sent and received on its connection to the gateway (as the gateway meters them on HTTP forward). */
function answerOf(run: TCurl) {
  const cut = run.stdout.lastIndexOf('\n');
  const [up, header, body] = run.stdout
    .slice(cut + 1)
    .split(' ')
    .map(Number);
  const output = run.stdout.slice(0, cut);
  return { ...lastAnswer(output), output, bytes: up + header + body, exit: run.exit, stderr: run.stderr };
}

/** HTTP forward (absolute-form GET) through an HTTP proxy. */
async function forward(proxy: TProxy, url: string) {
  return answerOf(await curl(['-i', '-w', SIZES, '-x', gatewayUrl('http', proxy), url]));
}

/** A GET inside a CONNECT tunnel through an HTTP proxy; a refused CONNECT makes curl fail with the proxy's answer. */
async function tunnel(proxy: TProxy, url: string) {
  return answerOf(await curl(['-i', '-w', SIZES, '-p', '-x', gatewayUrl('http', proxy), url]));
}

/** A GET through a SOCKS5 proxy, the name resolved by the gateway (socks5h). */
async function socks(proxy: TProxy, url: string) {
  return answerOf(
    await curl(['-i', '-w', SIZES, '-x', gatewayUrl('socks5', proxy).replace(/^socks5:/, 'socks5h:'), url]),
  );
}

const callJson = (path: string, token: string, init?: { method?: string; body?: unknown }) =>
  callApi(server.url, path, token, init);

/** A one-day static residential IP of the network, bought through the API with the trial credit. */
async function buy(token: string, network: 'HTTP' | 'SOCKS5'): Promise<TProxy> {
  const bought = await callJson('/token/static/ip', token, {
    method: 'POST',
    body: { category: 'isp', country_id: 'us', quantity: 1, days: 1, network },
  });
  expect(bought.code, bought.msg).toBe(0);
  return (bought.data.tokens as TProxy[])[0];
}

/** The traffic the API counts for a proxy (the list's usage). */
async function usedBytes(token: string, tokenId: number): Promise<number> {
  const list = await callJson('/token/list/isp/static?page=1&page_size=50', token);
  const record = (list.data.records as { token_id: number; usage: { used_bytes: number } }[]).find(
    (r) => r.token_id === tokenId,
  );
  if (!record) throw new Error(`proxy ${tokenId} is not in the list`);
  return record.usage.used_bytes;
}

/** Opens a proxy's detail drawer from the static residential list (loaded afresh) and its target rules section. */
async function openDrawer(page: Page, proxy: TProxy): Promise<Locator> {
  await page.goto(`${server.url}/proxy/isp/static`);
  await page
    .locator('.ant-table-tbody tr.ant-table-row', { hasText: proxy.username })
    .getByRole('button', { name: 'Details' })
    .click();
  const title = page.locator('.ant-drawer-title', { hasText: new RegExp(`^Proxy #${proxy.token_id}$`) });
  await title.waitFor();
  const drawer = page.locator('.ant-drawer').filter({ has: title });
  return drawer;
}

/** Expands the drawer's target rules section; resolves what applies to the proxy, as the drawer says. */
async function openRules(drawer: Locator): Promise<Locator> {
  await drawer.getByRole('button', { name: 'Target rules' }).click();
  const applies = drawer.getByTestId('target-rules-applies');
  await applies.waitFor();
  return applies;
}

/** Stores the console's language as its switch does and loads the page again. */
async function useLanguage(page: Page, lang: 'zh' | 'en'): Promise<void> {
  await page.evaluate(
    (value) => window.localStorage.setItem('PROXYHUB_LANG', JSON.stringify({ value, time: Date.now(), expire: null })),
    lang,
  );
  await page.reload();
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang === 'zh' ? 'zh-CN' : 'en');
}

/** "Traffic used" in an open drawer. */
async function drawerUsage(drawer: Locator): Promise<string> {
  return (
    await drawer
      .locator('.ant-descriptions-row', { hasText: 'Traffic used' })
      .locator('.ant-descriptions-item-content')
      .innerText()
  ).trim();
}

describe('target rules in the browser', () => {
  it("a proxy's deny list and the account's allow list, set in the console, are enforced by the gateway at no traffic cost", async () => {
    const account = await registerUser(server, 'rules');
    const httpProxy = await buy(account.token, 'HTTP');
    const socksProxy = await buy(account.token, 'SOCKS5');
    const urlOne = `http://127.0.0.1:${one.port}/`;
    const urlTwo = `http://127.0.0.2:${two.port}/`;
    const byName = `http://localhost:${one.port}/`;

    // Without rules every target is reached (through the proxy that never gets a list of its own): what is refused below, the rules refuse.
    for (const url of [byName, urlTwo, urlOne]) {
      const reached = await socks(socksProxy, url);
      expect(reached.status, `${url}: ${reached.stderr}`).toBe(200);
    }

    const { context, page } = await newPage(browser, { locale: 'en-US' });
    try {
      await signIn(page, server.url, account);

      // The proxy's own deny list, in its detail drawer: a malformed line is pointed at, then a domain and a CIDR block are saved.
      const drawer = await openDrawer(page, httpProxy);
      expect(await drawerUsage(drawer)).toBe('0 B');
      const applies = await openRules(drawer);
      expect(await applies.innerText()).toContain('No target rules apply to this proxy');
      const editor = drawer.getByTestId('target-rules-token');
      const lines = editor.getByLabel('Rules, one per line');
      await lines.fill('localhost\nnot a rule!\n127.0.0.2/31');
      const problems = editor.getByTestId('target-rules-token-problems');
      await expect.poll(() => problems.innerText()).toContain('Line 2: Not a valid domain, IP address or CIDR block');
      expect(await editor.getByRole('button', { name: 'Save rules' }).isDisabled()).toBe(true);
      await lines.fill('localhost\n127.0.0.2/31');
      await expect.poll(() => problems.count()).toBe(0);
      await editor.getByRole('button', { name: 'Save rules' }).click();
      await expect.poll(() => page.locator('body').innerText()).toContain('Target rules saved');
      await expect.poll(() => applies.innerText()).toContain('This proxy follows its own list below');
      expect((await callJson(`/token/target-rules/${httpProxy.token_id}`, account.token)).data).toMatchObject({
        own: { mode: 'deny', rules: ['localhost', '127.0.0.2/31'] },
        applies: 'own',
      });

      // Refused at once with the gateway's documented reason, on HTTP forward and CONNECT alike: the name, and an address in the block.
      const hitsBefore = { one: one.hits, two: two.hits };
      for (const url of [byName, urlTwo]) {
        for (const refused of [await forward(httpProxy, url), await tunnel(httpProxy, url)]) {
          expect({ status: refused.status, reason: refused.reason }, `${url}: ${refused.output}`).toEqual({
            status: 403,
            reason: REASON,
          });
        }
      }
      expect({ one: one.hits, two: two.hits }).toEqual(hitsBefore);

      // An allowed target passes; the proxy's traffic is that request's bytes, nothing for the four refusals before it.
      const passed = await forward(httpProxy, urlOne);
      expect(passed.status, passed.output).toBe(200);
      expect(passed.output).toContain('origin one');
      expect(passed.bytes).toBeLessThan(1024); // so the console shows it to the byte
      await expect.poll(() => usedBytes(account.token, httpProxy.token_id)).toBeGreaterThanOrEqual(passed.bytes);
      expect(await usedBytes(account.token, httpProxy.token_id)).toBe(passed.bytes);
      const reopened = await openDrawer(page, httpProxy);
      expect(await drawerUsage(reopened)).toBe(`${passed.bytes} B`);

      // Bad input on the security page's editor, in English and in Chinese.
      await page.goto(`${server.url}/security`);
      let accountEditor = page.getByTestId('target-rules-account');
      await accountEditor.getByLabel('Rules, one per line').fill('127.0.0.1\n10.0.0.0/33');
      await expect
        .poll(() => page.getByTestId('target-rules-account-problems').innerText())
        .toContain('Line 2: Invalid CIDR prefix');
      await useLanguage(page, 'zh');
      accountEditor = page.getByTestId('target-rules-account');
      await accountEditor.getByLabel('规则，每行一条').fill('127.0.0.1\n10.0.0.0/33');
      await expect
        .poll(() => page.getByTestId('target-rules-account-problems').innerText())
        .toContain('第 2 行：CIDR 前缀长度无效');
      await accountEditor.getByLabel('规则，每行一条').fill('127.0.0.1\nnot a rule!');
      await expect
        .poll(() => page.getByTestId('target-rules-account-problems').innerText())
        .toContain('第 2 行：不是有效的域名、IP 地址或 CIDR 网段');
      await useLanguage(page, 'en');

      // The account's allow list: only 127.0.0.2.
      accountEditor = page.getByTestId('target-rules-account');
      await accountEditor.locator('label', { hasText: 'Allow list' }).click();
      await accountEditor.getByLabel('Rules, one per line').fill('127.0.0.2');
      await accountEditor.getByRole('button', { name: 'Save rules' }).click();
      await expect.poll(() => page.locator('body').innerText()).toContain('Target rules saved');
      expect((await callJson('/user/target-rules', account.token)).data).toMatchObject({
        mode: 'allow',
        rules: ['127.0.0.2/32'],
      });

      // The proxy without a list of its own follows it: over SOCKS5 a target outside is refused with reply 0x02, the one inside passes.
      const oneHits = one.hits;
      const outside = await socks(socksProxy, urlOne);
      expect(outside.exit, outside.stderr).toBe(97); // CURLE_PROXY: the SOCKS5 reply was not a success
      expect(outside.stderr).toMatch(/SOCKS5 connection to .*\(2\)/); // reply 0x02, "connection not allowed by ruleset"
      expect(one.hits).toBe(oneHits);
      const inside = await socks(socksProxy, urlTwo);
      expect(inside.status, inside.stderr).toBe(200);
      expect(inside.output).toContain('origin two');
      const socksDrawer = await openDrawer(page, socksProxy);
      expect(await (await openRules(socksDrawer)).innerText()).toContain(
        "This proxy follows the account's Allow list (rules: 1)",
      );
      // The proxy with a list of its own keeps following it alone: 127.0.0.1, outside the account's allow list, is not on its deny list.
      const own = await forward(httpProxy, urlOne);
      expect(own.status, own.output).toBe(200);
      expect((await forward(httpProxy, urlTwo)).reason).toBe(REASON);
    } catch (error) {
      await page.screenshot({ path: '/tmp/e2e-target-rules-failure.png' }).catch(() => undefined);
      throw error;
    } finally {
      await context.close();
    }
  });
});
