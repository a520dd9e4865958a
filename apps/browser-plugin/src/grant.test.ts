import { describe, expect, it } from 'vitest';
import { handleExternalMessage, isFromConsole, type TExternalDeps } from './external';
import { importPublicKey, verifyGrant } from './grant';
import { CONSOLE_ORIGIN, payload, signGrant, testKeys } from './test-grants';

const NOW = 1_800_000_000;
const keys = testKeys();
const publicKey = await importPublicKey(keys.publicKeyBase64);
const verify = (grant: unknown, nowS = NOW) => verifyGrant(grant, { publicKey, consoleOrigin: CONSOLE_ORIGIN, nowS });

describe('grant verification', () => {
  it('accepts a grant the server signed for this console', async () => {
    const result = await verify(signGrant(payload(NOW), keys.privateKey));
    expect(result).toEqual({ ok: true, proxy: expect.objectContaining({ token_id: 7, password: 'Secret123' }) });
  });

  it('refuses a grant signed by another key', async () => {
    const other = testKeys();
    expect(await verify(signGrant(payload(NOW), other.privateKey))).toEqual({ ok: false, reason: 'bad-grant' });
  });

  it('refuses a grant whose payload was changed after signing', async () => {
    const [, signature] = signGrant(payload(NOW), keys.privateKey).split('.');
    const forged = `${Buffer.from(JSON.stringify(payload(NOW, { host: 'evil.example.com' }))).toString('base64url')}.${signature}`;
    expect(await verify(forged)).toEqual({ ok: false, reason: 'bad-grant' });
  });

  it('refuses a grant for another console', async () => {
    expect(await verify(signGrant(payload(NOW, { origin: 'https://other.example.com' }), keys.privateKey))).toEqual({
      ok: false,
      reason: 'wrong-origin',
    });
  });

  it('refuses an expired grant', async () => {
    const grant = signGrant(payload(NOW), keys.privateKey);
    expect(await verify(grant, NOW + 121)).toEqual({ ok: false, reason: 'expired-grant' });
    expect(await verify(grant, NOW + 120)).toMatchObject({ ok: true });
  });

  it('refuses a signed SOCKS5 grant before anything changes', async () => {
    expect(await verify(signGrant(payload(NOW, { network: 'SOCKS5' }), keys.privateKey))).toEqual({
      ok: false,
      reason: 'socks5-unsupported',
    });
  });

  it.each([undefined, 42, '', 'abc', 'a.b.c', 'not base64!.x', 'x'.repeat(5000)])(
    'refuses the malformed grant %j',
    async (grant) => {
      expect(await verify(grant)).toEqual({ ok: false, reason: 'bad-grant' });
    },
  );
});

describe('messages from web pages', () => {
  function deps(patch: Partial<TExternalDeps> = {}) {
    const applied: number[] = [];
    const value: TExternalDeps = {
      consoleOrigin: CONSOLE_ORIGIN,
      version: '1.2.3',
      verify: (grant) => verify(grant),
      apply: async (proxy) => {
        applied.push(proxy.token_id);
        return null;
      },
      activeTokenId: async () => applied.at(-1) ?? null,
      ...patch,
    };
    return { value, applied };
  }

  it('hears only the console origin', () => {
    expect(isFromConsole({ origin: CONSOLE_ORIGIN }, CONSOLE_ORIGIN)).toBe(true);
    expect(isFromConsole({ origin: 'https://console.example.com:8443' }, CONSOLE_ORIGIN)).toBe(false);
    expect(isFromConsole({ origin: 'http://console.example.com' }, CONSOLE_ORIGIN)).toBe(false);
    expect(isFromConsole({ url: `${CONSOLE_ORIGIN}/proxy/isp/static` }, CONSOLE_ORIGIN)).toBe(true);
    expect(isFromConsole({ url: 'https://console.example.com.evil.com/' }, CONSOLE_ORIGIN)).toBe(false);
    expect(isFromConsole({}, CONSOLE_ORIGIN)).toBe(false);
    expect(isFromConsole({ origin: CONSOLE_ORIGIN }, null)).toBe(false);
  });

  it('applies a valid grant from the console and says hello with the active proxy', async () => {
    const { value, applied } = deps();
    const grant = signGrant(payload(NOW), keys.privateKey);
    expect(await handleExternalMessage({ type: 'apply', grant }, { origin: CONSOLE_ORIGIN }, value)).toEqual({
      ok: true,
      type: 'apply',
      version: '1.2.3',
      token_id: 7,
    });
    expect(applied).toEqual([7]);
    expect(await handleExternalMessage({ type: 'hello' }, { origin: CONSOLE_ORIGIN }, value)).toEqual({
      ok: true,
      type: 'hello',
      version: '1.2.3',
      active_token_id: 7,
    });
  });

  it('changes nothing for another origin, even with a valid grant', async () => {
    const { value, applied } = deps();
    const grant = signGrant(payload(NOW), keys.privateKey);
    expect(
      await handleExternalMessage({ type: 'apply', grant }, { origin: 'https://evil.example.com' }, value),
    ).toEqual({ ok: false, reason: 'wrong-origin' });
    expect(await handleExternalMessage({ type: 'hello' }, { origin: 'https://evil.example.com' }, value)).toEqual({
      ok: false,
      reason: 'wrong-origin',
    });
    expect(applied).toEqual([]);
  });

  it('changes nothing for a SOCKS5 grant or an unknown message', async () => {
    const { value, applied } = deps();
    const grant = signGrant(payload(NOW, { network: 'SOCKS5' }), keys.privateKey);
    expect(await handleExternalMessage({ type: 'apply', grant }, { origin: CONSOLE_ORIGIN }, value)).toEqual({
      ok: false,
      reason: 'socks5-unsupported',
    });
    expect(await handleExternalMessage({ type: 'reset' }, { origin: CONSOLE_ORIGIN }, value)).toEqual({
      ok: false,
      reason: 'bad-message',
    });
    expect(await handleExternalMessage(null, { origin: CONSOLE_ORIGIN }, value)).toEqual({
      ok: false,
      reason: 'bad-message',
    });
    expect(applied).toEqual([]);
  });

  it('tells the console when the browser will not take the proxy', async () => {
    const { value } = deps({ apply: async () => 'proxy-not-controllable' });
    const grant = signGrant(payload(NOW), keys.privateKey);
    expect(await handleExternalMessage({ type: 'apply', grant }, { origin: CONSOLE_ORIGIN }, value)).toEqual({
      ok: false,
      reason: 'proxy-not-controllable',
    });
  });
});
