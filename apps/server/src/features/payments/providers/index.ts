import { existsSync, readFileSync } from 'node:fs';
import { PAY_METHODS, type TPayMethod } from '@proxy/contract';
import type { TServerConfig } from '../../../config/env';
import { createAlipayProvider } from './alipay';
import type { TPayProvider } from './provider';
import { createSandboxProvider } from './sandbox';
import { createUsdtProvider } from './usdt';
import { createWechatPayProvider } from './wechat';
import { createEthereumChain } from '../usdt/ethereum-chain';
import { createTronChain } from '../usdt/tron-chain';

export { NotificationRefusal, type TPayProvider } from './provider';

/** The providers that are on, by method (in PAY_METHODS order). */
export type TPayProviders = Map<TPayMethod, TPayProvider>;

// A key given as PEM text, bare base64, or the path of a PEM file.
function keyText(value: string): string {
  if (!value.includes('-----BEGIN') && !/^[A-Za-z0-9+/=\s]+$/.test(value) && existsSync(value))
    return readFileSync(value, 'utf8');
  return value;
}

/** Builds the configured providers: each on only when configured (config/env.ts checks they are complete). */
export function createPayProviders(config: TServerConfig): TPayProviders {
  const on: TPayProvider[] = [];
  if (config.ALIPAY_APP_ID) {
    on.push(
      createAlipayProvider({
        appId: config.ALIPAY_APP_ID,
        privateKey: keyText(config.ALIPAY_PRIVATE_KEY!),
        keyType: config.ALIPAY_KEY_TYPE,
        alipayPublicKey: keyText(config.ALIPAY_PUBLIC_KEY!),
        sellerId: config.ALIPAY_SELLER_ID,
        gateway: config.ALIPAY_GATEWAY,
      }),
    );
  }
  if (config.WECHAT_PAY_MCHID) {
    on.push(
      createWechatPayProvider({
        mchid: config.WECHAT_PAY_MCHID,
        appid: config.WECHAT_PAY_APPID!,
        serial: config.WECHAT_PAY_SERIAL!,
        privateKey: keyText(config.WECHAT_PAY_PRIVATE_KEY!),
        platformKeys: { [config.WECHAT_PAY_PLATFORM_SERIAL!]: keyText(config.WECHAT_PAY_PLATFORM_PUBLIC_KEY!) },
        apiV3Key: config.WECHAT_PAY_API_V3_KEY!,
        baseUrl: config.WECHAT_PAY_BASE_URL,
      }),
    );
  }
  const usdt = {
    rate: config.USDT_CNY_RATE!,
    orderTtlMin: config.USDT_ORDER_TTL_MIN,
    lateMatchMin: config.USDT_LATE_MATCH_MIN,
    pollIntervalS: config.USDT_POLL_INTERVAL_S,
  };
  if (config.USDT_TRC20_ADDRESS) {
    const address = config.USDT_TRC20_ADDRESS;
    const chain = createTronChain({
      apiUrl: config.USDT_TRC20_API_URL,
      apiKey: config.USDT_TRC20_API_KEY,
      address,
      contract: config.USDT_TRC20_CONTRACT,
    });
    on.push(createUsdtProvider({ ...usdt, network: 'trc20', address, chain }));
  }
  if (config.USDT_ERC20_ADDRESS) {
    const address = config.USDT_ERC20_ADDRESS;
    const chain = createEthereumChain({
      rpcUrl: config.USDT_ERC20_RPC_URL!,
      address,
      contract: config.USDT_ERC20_CONTRACT,
      startBlock: config.USDT_ERC20_START_BLOCK,
      blockRange: config.USDT_ERC20_BLOCK_RANGE,
    });
    on.push(createUsdtProvider({ ...usdt, network: 'erc20', address, chain }));
  }
  if (config.PAY_SANDBOX) on.push(createSandboxProvider({ secret: config.jwtSecret, publicUrl: config.publicUrl }));
  return new Map(
    PAY_METHODS.flatMap((method) => on.filter((p) => p.method === method).map((p) => [method, p] as const)),
  );
}
