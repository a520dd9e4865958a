import { describe, expect, it } from 'vitest';
import { loadServerConfig } from './env';

const base = { DATA_DIR: '/tmp/proxy-env-test', JWT_SECRET: 'x'.repeat(40) };

describe('payment settings', () => {
  it('refuses the sandbox together with a real provider, and incomplete providers, listing what is wrong', () => {
    expect(() => loadServerConfig({ ...base, PAY_SANDBOX: 'true', ALIPAY_APP_ID: '1', ALIPAY_PRIVATE_KEY: 'k', ALIPAY_PUBLIC_KEY: 'k' })).toThrow(
      /PAY_SANDBOX: the sandbox may not be on together with Alipay or WeChat Pay/,
    );
    expect(() => loadServerConfig({ ...base, ALIPAY_APP_ID: '1' })).toThrow(/ALIPAY_PRIVATE_KEY: required with ALIPAY_APP_ID[\s\S]*ALIPAY_PUBLIC_KEY/);
    expect(() => loadServerConfig({ ...base, WECHAT_PAY_MCHID: '1' })).toThrow(/WECHAT_PAY_API_V3_KEY: required with WECHAT_PAY_MCHID/);
    expect(() => loadServerConfig({ ...base, PAY_MIN_AMOUNT: '100', PAY_MAX_AMOUNT: '10' })).toThrow(/PAY_MIN_AMOUNT/);
  });

  it('takes the sandbox alone, and no provider at all', () => {
    expect(loadServerConfig({ ...base, PAY_SANDBOX: 'true' }).PAY_SANDBOX).toBe(true);
    expect(loadServerConfig(base).PAY_SANDBOX).toBe(false);
  });
});
