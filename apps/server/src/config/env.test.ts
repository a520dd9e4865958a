import { describe, expect, it } from 'vitest';
import { loadServerConfig } from './env';

const base = { DATA_DIR: '/tmp/proxy-env-test', JWT_SECRET: 'x'.repeat(40) };

describe('payment settings', () => {
  it('refuses the sandbox together with a real provider, and incomplete providers, listing what is wrong', () => {
    expect(() =>
      loadServerConfig({
        ...base,
        PAY_SANDBOX: 'true',
        ALIPAY_APP_ID: '1',
        ALIPAY_PRIVATE_KEY: 'k',
        ALIPAY_PUBLIC_KEY: 'k',
      }),
    ).toThrow(/PAY_SANDBOX: the sandbox may not be on together with Alipay, WeChat Pay or USDT/);
    expect(() => loadServerConfig({ ...base, ALIPAY_APP_ID: '1' })).toThrow(
      /ALIPAY_PRIVATE_KEY: required with ALIPAY_APP_ID[\s\S]*ALIPAY_PUBLIC_KEY/,
    );
    expect(() => loadServerConfig({ ...base, WECHAT_PAY_MCHID: '1' })).toThrow(
      /WECHAT_PAY_API_V3_KEY: required with WECHAT_PAY_MCHID/,
    );
    expect(() => loadServerConfig({ ...base, PAY_MIN_AMOUNT: '100', PAY_MAX_AMOUNT: '10' })).toThrow(/PAY_MIN_AMOUNT/);
  });

  it('takes the sandbox alone, and no provider at all', () => {
    expect(loadServerConfig({ ...base, PAY_SANDBOX: 'true' }).PAY_SANDBOX).toBe(true);
    expect(loadServerConfig(base).PAY_SANDBOX).toBe(false);
  });
});

describe('USDT settings', () => {
  const trc20 = { USDT_TRC20_ADDRESS: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', USDT_CNY_RATE: '7.20' };
  const erc20 = {
    USDT_ERC20_ADDRESS: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    USDT_ERC20_RPC_URL: 'http://127.0.0.1:8545',
    USDT_CNY_RATE: '7.20',
  };

  it('takes each network with its defaults: the official contracts, 30 minutes to pay, 2 hours for late transfers', () => {
    const c = loadServerConfig({ ...base, ...trc20, ...erc20 });
    expect(c).toMatchObject({
      USDT_TRC20_CONTRACT: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      USDT_TRC20_API_URL: 'https://api.trongrid.io',
      USDT_ERC20_CONTRACT: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
      USDT_ORDER_TTL_MIN: 30,
      USDT_LATE_MATCH_MIN: 120,
      USDT_ERC20_BLOCK_RANGE: 500,
    });
    expect(c.USDT_ERC20_START_BLOCK).toBeUndefined();
    expect(loadServerConfig({ ...base, ...erc20, USDT_ERC20_START_BLOCK: '19000000' }).USDT_ERC20_START_BLOCK).toBe(
      19_000_000,
    );
  });

  it('refuses the sandbox with USDT, and a missing or bad rate, address, contract or endpoint, listing what is wrong', () => {
    expect(() => loadServerConfig({ ...base, ...trc20, PAY_SANDBOX: 'true' })).toThrow(
      /PAY_SANDBOX: the sandbox may not be on together with Alipay, WeChat Pay or USDT/,
    );
    expect(() => loadServerConfig({ ...base, ...trc20, USDT_CNY_RATE: '' })).toThrow(
      /USDT_CNY_RATE: required with USDT_TRC20_ADDRESS or USDT_ERC20_ADDRESS/,
    );
    for (const rate of ['0', '-7', '7,2', '7.1234567'])
      expect(() => loadServerConfig({ ...base, ...trc20, USDT_CNY_RATE: rate })).toThrow(
        /USDT_CNY_RATE: a positive decimal/,
      );
    expect(() =>
      loadServerConfig({ ...base, ...trc20, USDT_TRC20_ADDRESS: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T' }),
    ).toThrow(/USDT_TRC20_ADDRESS: not a TRON address/);
    expect(() =>
      loadServerConfig({ ...base, ...trc20, USDT_TRC20_CONTRACT: '0xdAC17F958D2ee523a2206206994597C13D831ec7' }),
    ).toThrow(/USDT_TRC20_CONTRACT: not a TRON address/);
    expect(() =>
      loadServerConfig({ ...base, ...erc20, USDT_ERC20_ADDRESS: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe' }),
    ).toThrow(/USDT_ERC20_ADDRESS: not an Ethereum address/);
    expect(() =>
      loadServerConfig({ ...base, ...erc20, USDT_ERC20_CONTRACT: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' }),
    ).toThrow(/USDT_ERC20_CONTRACT: not an Ethereum address/);
    expect(() => loadServerConfig({ ...base, ...erc20, USDT_ERC20_RPC_URL: '' })).toThrow(
      /USDT_ERC20_RPC_URL: required with USDT_ERC20_ADDRESS/,
    );
    expect(() => loadServerConfig({ ...base, ...erc20, USDT_ERC20_RPC_URL: 'ftp://node' })).toThrow(
      /USDT_ERC20_RPC_URL: http:\/\/ or https:\/\/ URL/,
    );
    expect(() => loadServerConfig({ ...base, ...erc20, USDT_ERC20_START_BLOCK: 'soon' })).toThrow(
      /USDT_ERC20_START_BLOCK/,
    );
  });
});

describe('answer cache setting', () => {
  it('takes megabytes (64 by default, 0 turns it off) and refuses anything else, naming the setting', () => {
    expect(loadServerConfig(base).ANSWER_CACHE_MB).toBe(64);
    expect(loadServerConfig({ ...base, ANSWER_CACHE_MB: '0' }).ANSWER_CACHE_MB).toBe(0);
    for (const bad of ['-1', '1.5', 'lots', '70000'])
      expect(() => loadServerConfig({ ...base, ANSWER_CACHE_MB: bad })).toThrow(/ANSWER_CACHE_MB/);
  });
});

describe('metrics settings', () => {
  it('listens on loopback port 9464 by default, takes another address, port 0, or off', () => {
    expect(loadServerConfig(base).METRICS_LISTEN).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(loadServerConfig({ ...base, METRICS_LISTEN: '[::1]:0' }).METRICS_LISTEN).toEqual({ host: '::1', port: 0 });
    expect(loadServerConfig({ ...base, METRICS_LISTEN: 'localhost:9100' }).METRICS_LISTEN).toEqual({
      host: 'localhost',
      port: 9100,
    });
    expect(loadServerConfig({ ...base, METRICS_LISTEN: 'off' }).METRICS_LISTEN).toBeNull();
    expect(() => loadServerConfig({ ...base, METRICS_LISTEN: '9464' })).toThrow(/METRICS_LISTEN: host:port/);
    expect(() => loadServerConfig({ ...base, METRICS_LISTEN: '127.0.0.1:70000' })).toThrow(/METRICS_LISTEN/);
  });

  it('refuses an address off loopback without a token of at least 16 characters', () => {
    expect(() => loadServerConfig({ ...base, METRICS_LISTEN: '0.0.0.0:9464' })).toThrow(
      /METRICS_TOKEN: required when METRICS_LISTEN is not a loopback address \(0\.0\.0\.0\)/,
    );
    expect(() => loadServerConfig({ ...base, METRICS_LISTEN: '10.0.0.5:9464' })).toThrow(/METRICS_TOKEN: required/);
    expect(() => loadServerConfig({ ...base, METRICS_LISTEN: '0.0.0.0:9464', METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN: at least 16 characters/,
    );
    const exposed = loadServerConfig({ ...base, METRICS_LISTEN: '0.0.0.0:9464', METRICS_TOKEN: 'a'.repeat(32) });
    expect([exposed.METRICS_LISTEN, exposed.METRICS_TOKEN]).toEqual([{ host: '0.0.0.0', port: 9464 }, 'a'.repeat(32)]);
  });
});
