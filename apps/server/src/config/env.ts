import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { metricsListenProblems, zSettingFlag, zSettingListen, zSettingText } from '@proxy/contract';
import { tronAddressToHex } from '../features/payments/usdt/tron-address';
import { parseUsdtRate } from '../features/payments/usdt/usdt-amount';
import { newDataKeyText, parseDataKey } from '@proxy/db';

const bool = zSettingFlag;
const optionalText = zSettingText;

/** Every setting of the API server, read from the environment (see .env.example). */
export const ZServerEnv = z.object({
  /** Address the HTTP server binds to. */
  HOST: z.string().default('127.0.0.1'),
  /** HTTP port of the console and API. */
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Public URL of the console, used in e-mails and OAuth redirects. */
  PUBLIC_URL: optionalText,
  /** Host name customers put in their proxy settings (default: PUBLIC_URL's host). */
  GATEWAY_PUBLIC_HOST: optionalText,
  /** Port customers put in their proxy settings (the gateway's GATEWAY_PORT; the launcher fills it in embedded mode). */
  GATEWAY_PUBLIC_PORT: z.coerce.number().int().min(0).max(65535).default(7777),
  /** Data folder: PGlite files, outbox, generated secrets. */
  DATA_DIR: z.string().default('./data'),
  /** postgres:// URL; unset means embedded PGlite in DATA_DIR/pg. */
  DATABASE_URL: optionalText,
  /** HS256 secret of access tokens; generated into DATA_DIR when unset. */
  JWT_SECRET: optionalText,
  /**
   * AES-256 key of secrets at rest (two-factor secrets, webhook signing secrets, upstream exit and pool passwords):
   * 32 bytes as 64 hex digits or base64; generated into DATA_DIR/data-encryption-key when unset. The same on every API
   * instance and standalone gateway; never change it while such secrets exist (they would no longer open).
   */
  DATA_ENCRYPTION_KEY: optionalText.refine(
    (v) => v === undefined || parseDataKey(v) !== null,
    '32 bytes as 64 hex digits or base64 (openssl rand -base64 32)',
  ),
  /** smtp:// or smtps:// URL; unset means e-mails are written to DATA_DIR/outbox. */
  SMTP_URL: optionalText,
  /** Sender of e-mails. */
  MAIL_FROM: z.string().default('ProxyHub <no-reply@proxyhub.local>'),
  GITHUB_CLIENT_ID: optionalText,
  GITHUB_CLIENT_SECRET: optionalText,
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  /** OAuth endpoint overrides (tests point them at local providers). */
  OAUTH_GITHUB_AUTHORIZE_URL: z.string().url().default('https://github.com/login/oauth/authorize'),
  OAUTH_GITHUB_TOKEN_URL: z.string().url().default('https://github.com/login/oauth/access_token'),
  OAUTH_GITHUB_API_URL: z.string().url().default('https://api.github.com'),
  OAUTH_GOOGLE_AUTHORIZE_URL: z.string().url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  OAUTH_GOOGLE_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
  OAUTH_GOOGLE_USERINFO_URL: z.string().url().default('https://openidconnect.googleapis.com/v1/userinfo'),
  /** Registration requires an invite code. */
  REGISTRATION_INVITE_REQUIRED: bool,
  /** Allowed browser origins besides PUBLIC_URL (comma separated). */
  CORS_ORIGINS: z.string().default(''),
  /**
   * Attempts per window on code, register, reset, OAuth and password change, and failed
   * sign-ins per window, per address, per account and per account+address. Kept in
   * PostgreSQL when DATABASE_URL is set, so every API instance counts together.
   */
  RATE_LIMIT_AUTH_MAX: z.coerce.number().int().min(1).default(10),
  /** Length of a rate-limit window in seconds (the Retry-After of a 429 is at most this). */
  RATE_LIMIT_AUTH_WINDOW_S: z.coerce.number().int().min(1).default(60),
  /**
   * Password sign-in budget per account across every address: RATE_LIMIT_AUTH_MAX failures in a
   * window of this many seconds; past it a sign-in brings a proof of work (never a refusal of the
   * right password), and the owner gets one alert e-mail per window.
   */
  SIGN_IN_ACCOUNT_WINDOW_S: z.coerce.number().int().min(1).default(3600),
  /** Zero bits of the proof of work past the budget (one more per doubling of the failures, at most 6 more). */
  SIGN_IN_PROOF_BITS: z.coerce.number().int().min(1).max(30).default(16),
  /** Supply requests an account may submit per SUPPLY_SUBMIT_WINDOW_S seconds (all instances together on PostgreSQL). */
  SUPPLY_SUBMIT_MAX: z.coerce.number().int().min(1).default(5),
  SUPPLY_SUBMIT_WINDOW_S: z.coerce.number().int().min(1).default(3600),
  /** argon2id memory cost in KiB and time cost (production: 19456 and 2; tests may lower them). */
  ARGON2_MEMORY_KIB: z.coerce.number().int().min(8).default(19456),
  ARGON2_TIME_COST: z.coerce.number().int().min(1).default(2),
  /** Operator account created on a fresh install. */
  OPERATOR_EMAIL: z.string().email().default('admin@proxyhub.local'),
  /** Log level. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Where Prometheus scrapes this process (GET /metrics, and /health/live, /health/ready): host:port, or off. Never
   * the public port; with the embedded gateway, its metrics are here too. Off loopback, METRICS_TOKEN is required.
   */
  METRICS_LISTEN: zSettingListen('127.0.0.1:9464'),
  /** Bearer token a scraper of METRICS_LISTEN sends (Authorization: Bearer <token>), at least 16 characters. */
  METRICS_TOKEN: optionalText,
  /** Trust X-Forwarded-For (behind a reverse proxy). */
  TRUST_PROXY: bool,
  /** Folder of the built console; unset means apps/web/dist. */
  WEB_DIST_DIR: optionalText,
  /** Country (ISO 3166-1 alpha-2) of the gateway host: the area of the seeded direct exit nodes. */
  DIRECT_EXIT_COUNTRY: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z]{2}$/, 'two-letter country code')
    .default('us'),
  /** State or region slug of the gateway host ('' when not told). */
  DIRECT_EXIT_STATE: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9_]*$/, 'lower-case slug of letters, digits and _')
    .default(''),
  /** City slug of the gateway host ('' when not told). */
  DIRECT_EXIT_CITY: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9_]*$/, 'lower-case slug of letters, digits and _')
    .default(''),
  /** Memory for the answers and sessions kept per account (lib/answer-cache.ts), in MB; 0 turns it off. */
  ANSWER_CACHE_MB: z.coerce.number().int().min(0).max(65_536).default(64),
  /** Run the lifecycle jobs (expiry, exhaustion, auto-renew) in this process. */
  JOBS_ENABLED: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  /**
   * At a clean stop (SIGTERM): seconds the requests in flight and the job pass in progress have to finish after the
   * API stopped accepting connections; then the connections still open are closed and the pass is abandoned.
   */
  SHUTDOWN_GRACE_S: z.coerce.number().int().min(0).max(3600).default(30),
  /** Pause between two runs of each lifecycle job, in milliseconds. */
  JOBS_INTERVAL_MS: z.coerce.number().int().min(100).default(5000),
  /** Hours an invitee's recharge waits before its rebate is paid to the inviter (0: at the next job pass). */
  REBATE_HOLD_HOURS: z.coerce.number().min(0).max(8760).default(0),
  /** Seconds between two passes of the inventory probe through every active upstream exit; 0 turns it off. */
  INVENTORY_PROBE_INTERVAL_S: z.coerce.number().int().min(0).max(86_400).default(300),
  /** IP echo the probe fetches through each upstream (answers the caller's IP as text, JSON {ip} or {data: {ip}}); default: the proxy test's echo. */
  INVENTORY_PROBE_URL: z
    .string()
    .optional()
    .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined))
    .refine((v) => v === undefined || /^https?:\/\/[^/\s]+/i.test(v), 'http:// or https:// URL'),
  /** Time one probe attempt may take, in milliseconds. */
  INVENTORY_PROBE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Failed attempts in a row that mark an exit down (a pass retries at once up to this many). */
  INVENTORY_PROBE_FAILURES: z.coerce.number().int().min(1).max(10).default(2),
  /** Exits probed at the same time. */
  INVENTORY_PROBE_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  /** Tests only: webhooks may go to loopback and private addresses (production sends to public HTTPS addresses only). */
  WEBHOOK_ALLOW_PRIVATE: bool,
  /** Tests only: a PEM certificate (text or a file path) webhooks trust besides the system's CAs (a local HTTPS receiver). */
  WEBHOOK_EXTRA_CA: optionalText,
  /**
   * Time the API gives itself to fetch a software release's file when the operator adds it (docs/operator-guide.md,
   * "Software downloads"), in milliseconds: below the console's 60 s request timeout, so the operator reads the reason.
   */
  DOWNLOAD_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(50_000),
  /** Tests only: release links may point to loopback and private addresses (production fetches public addresses only). */
  DOWNLOAD_ALLOW_PRIVATE: bool,
  /** Pause between two passes of the webhook deliveries, in milliseconds. */
  WEBHOOK_INTERVAL_MS: z.coerce.number().int().min(50).default(2000),
  /** URL the proxy test fetches through the gateway (default PUBLIC_URL/api/proxy/echo); the gateway must allow it as a target. */
  TOKEN_TEST_ECHO_URL: z
    .string()
    .optional()
    .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined))
    .refine((v) => v === undefined || /^https?:\/\/[^/\s]+/i.test(v), 'http:// or https:// URL'),
  /**
   * The sandbox payment provider: no real money moves (a fresh install, tests). `npm start`
   * turns it on for the embedded database while no real provider is configured; it may not
   * be on together with Alipay or WeChat Pay.
   */
  PAY_SANDBOX: bool,
  /** Minutes a recharge order waits for its payment before it times out. */
  PAY_ORDER_TTL_MIN: z.coerce.number().int().min(1).max(1440).default(15),
  /** Bounds of a recharge amount in yuan. */
  PAY_MIN_AMOUNT: z.coerce.number().min(0.01).default(1),
  PAY_MAX_AMOUNT: z.coerce.number().min(1).max(10_000_000).default(50_000),
  /** Alipay (on when ALIPAY_APP_ID is set): keys as PEM text, bare base64, or a path to a PEM file. */
  ALIPAY_APP_ID: optionalText,
  ALIPAY_PRIVATE_KEY: optionalText,
  ALIPAY_KEY_TYPE: z.enum(['PKCS1', 'PKCS8']).default('PKCS8'),
  ALIPAY_PUBLIC_KEY: optionalText,
  ALIPAY_SELLER_ID: optionalText,
  ALIPAY_GATEWAY: z.string().url().default('https://openapi.alipay.com/gateway.do'),
  /** WeChat Pay API v3 (on when WECHAT_PAY_MCHID is set): keys as PEM text or a path to a PEM file. */
  WECHAT_PAY_MCHID: optionalText,
  WECHAT_PAY_APPID: optionalText,
  WECHAT_PAY_SERIAL: optionalText,
  WECHAT_PAY_PRIVATE_KEY: optionalText,
  WECHAT_PAY_PLATFORM_SERIAL: optionalText,
  WECHAT_PAY_PLATFORM_PUBLIC_KEY: optionalText,
  WECHAT_PAY_API_V3_KEY: optionalText,
  WECHAT_PAY_BASE_URL: z.string().url().default('https://api.mch.weixin.qq.com'),
  /** USDT (on for a network when its receiving address is set): yuan per USDT, frozen into each order (e.g. 7.20). */
  USDT_CNY_RATE: optionalText,
  /** Minutes a USDT order waits for its transfer. */
  USDT_ORDER_TTL_MIN: z.coerce.number().int().min(1).max(1440).default(30),
  /**
   * Minutes after an order's time a transfer of its exact amount is still credited to it (late).
   * The order holds its amount that long, paid or not, so each price has 99 amounts per
   * USDT_ORDER_TTL_MIN + this; later transfers wait for an operator.
   */
  USDT_LATE_MATCH_MIN: z.coerce.number().int().min(0).max(10_080).default(120),
  /** Seconds between two polls of each chain (the jobs run more often; the watchers skip the passes in between). */
  USDT_POLL_INTERVAL_S: z.coerce.number().int().min(1).max(3600).default(15),
  /** USDT on TRON: our receiving address (T...), the TronGrid-style API, its optional key, and the token contract (testnets differ). */
  USDT_TRC20_ADDRESS: optionalText,
  USDT_TRC20_API_URL: z.string().url().default('https://api.trongrid.io'),
  USDT_TRC20_API_KEY: optionalText,
  USDT_TRC20_CONTRACT: z.string().trim().default('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
  /** USDT on Ethereum: our receiving address (0x...), a JSON-RPC endpoint, and the token contract (testnets differ). */
  USDT_ERC20_ADDRESS: optionalText,
  USDT_ERC20_RPC_URL: optionalText,
  USDT_ERC20_CONTRACT: z.string().trim().default('0xdAC17F958D2ee523a2206206994597C13D831ec7'),
  /** First block the Ethereum watcher scans on a fresh database (default: the finalized block minus about a day). */
  USDT_ERC20_START_BLOCK: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce.number().int().min(0).optional(),
  ),
  /** Most blocks one eth_getLogs call asks for (endpoints limit ranges). */
  USDT_ERC20_BLOCK_RANGE: z.coerce.number().int().min(1).max(100_000).default(500),
  /** host:port of the gateway the proxy test dials (default 127.0.0.1:GATEWAY_PUBLIC_PORT). */
  TOKEN_TEST_GATEWAY: z
    .string()
    .optional()
    .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined))
    .refine((v) => v === undefined || /^(\[[0-9a-f:.]+\]|[^:\s/]+):\d{1,5}$/i.test(v), 'host:port'),
  /** Ed25519 private key (PEM text or a path to a PEM file) that signs the browser plugin's grants; generated into DATA_DIR when unset. */
  PLUGIN_SIGNING_KEY: optionalText,
  /** Folder of the built browser plugin; unset means apps/browser-plugin/dist. */
  PLUGIN_DIST_DIR: optionalText,
  /** External help-center site the console's menu opens in a new tab; unset hides the entry. Read at run time. */
  HELP_CENTER_URL: z
    .string()
    .optional()
    .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined))
    .refine((v) => v === undefined || /^https?:\/\/[^/\s]+/i.test(v), 'http:// or https:// URL'),
});

/** Parsed settings plus derived values. */
export type TServerConfig = z.output<typeof ZServerEnv> & {
  jwtSecret: string;
  /** The key of secrets at rest (DATA_ENCRYPTION_KEY, or the one kept in DATA_DIR). */
  dataEncryptionKey: Buffer;
  publicUrl: string;
  gatewayPublicHost: string;
  /** Echo endpoint of the proxy test. */
  tokenTestEchoUrl: string;
  /** Gateway the proxy test dials. */
  tokenTestGateway: { host: string; port: number };
  /** IP echo the inventory probe fetches through each upstream exit. */
  inventoryProbeUrl: string;
  /** DATA_DIR/downloads: the software manifest (manifest.json) and its files. */
  downloadsDir: string;
  /** DATA_DIR/terms: the operator's terms of service (terms.zh.md, terms.en.md). */
  termsDir: string;
};

/** Reads a secret file in DATA_DIR, creating it on first start. */
function loadOrCreateSecret(
  dataDir: string,
  name: string,
  create = () => randomBytes(48).toString('base64url'),
): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = create();
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** DATA_ENCRYPTION_KEY, else the key kept in DATA_DIR/data-encryption-key (made on first start, like jwt-secret). */
function dataKeyOf(c: z.output<typeof ZServerEnv>): Buffer {
  if (c.DATA_ENCRYPTION_KEY) return parseDataKey(c.DATA_ENCRYPTION_KEY)!;
  const key = parseDataKey(loadOrCreateSecret(c.DATA_DIR, 'data-encryption-key', newDataKeyText));
  if (!key)
    throw new Error(
      `Invalid configuration:\n  ${path.join(c.DATA_DIR, 'data-encryption-key')}: not a 32-byte key (64 hex digits or base64)`,
    );
  return key;
}

// "host:port" or "[v6]:port" (already checked by the schema).
function parseHostPort(text: string): { host: string; port: number } {
  const at = text.lastIndexOf(':');
  return { host: text.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(text.slice(at + 1)) };
}

// Payment settings that cannot work together or are incomplete.
function paymentProblems(c: z.output<typeof ZServerEnv>): string[] {
  const problems: string[] = [];
  const isAlipay = c.ALIPAY_APP_ID !== undefined;
  const isWechat = c.WECHAT_PAY_MCHID !== undefined;
  const isTrc20 = c.USDT_TRC20_ADDRESS !== undefined;
  const isErc20 = c.USDT_ERC20_ADDRESS !== undefined;
  if (c.PAY_SANDBOX && (isAlipay || isWechat || isTrc20 || isErc20)) {
    problems.push('PAY_SANDBOX: the sandbox may not be on together with Alipay, WeChat Pay or USDT');
  }
  if (isAlipay) {
    for (const name of ['ALIPAY_PRIVATE_KEY', 'ALIPAY_PUBLIC_KEY'] as const)
      if (!c[name]) problems.push(`${name}: required with ALIPAY_APP_ID`);
  }
  if (isWechat) {
    for (const name of [
      'WECHAT_PAY_APPID',
      'WECHAT_PAY_SERIAL',
      'WECHAT_PAY_PRIVATE_KEY',
      'WECHAT_PAY_PLATFORM_SERIAL',
      'WECHAT_PAY_PLATFORM_PUBLIC_KEY',
      'WECHAT_PAY_API_V3_KEY',
    ] as const) {
      if (!c[name]) problems.push(`${name}: required with WECHAT_PAY_MCHID`);
    }
    if (c.WECHAT_PAY_API_V3_KEY && Buffer.byteLength(c.WECHAT_PAY_API_V3_KEY) !== 32)
      problems.push('WECHAT_PAY_API_V3_KEY: must be 32 bytes');
  }
  if (isTrc20 || isErc20) {
    if (!c.USDT_CNY_RATE) problems.push('USDT_CNY_RATE: required with USDT_TRC20_ADDRESS or USDT_ERC20_ADDRESS');
    else if (parseUsdtRate(c.USDT_CNY_RATE) === null)
      problems.push('USDT_CNY_RATE: a positive decimal of yuan per USDT with at most 6 decimals, such as 7.20');
  }
  if (isTrc20) {
    if (tronAddressToHex(c.USDT_TRC20_ADDRESS!) === null)
      problems.push('USDT_TRC20_ADDRESS: not a TRON address (T..., 34 characters, valid checksum)');
    if (tronAddressToHex(c.USDT_TRC20_CONTRACT) === null)
      problems.push('USDT_TRC20_CONTRACT: not a TRON address (T..., 34 characters, valid checksum)');
  }
  if (isErc20) {
    const hex = /^0x[0-9a-fA-F]{40}$/;
    if (!hex.test(c.USDT_ERC20_ADDRESS!))
      problems.push('USDT_ERC20_ADDRESS: not an Ethereum address (0x and 40 hex digits)');
    if (!hex.test(c.USDT_ERC20_CONTRACT))
      problems.push('USDT_ERC20_CONTRACT: not an Ethereum address (0x and 40 hex digits)');
    if (!c.USDT_ERC20_RPC_URL) problems.push('USDT_ERC20_RPC_URL: required with USDT_ERC20_ADDRESS');
    else if (!/^https?:\/\/[^/\s]+/i.test(c.USDT_ERC20_RPC_URL))
      problems.push('USDT_ERC20_RPC_URL: http:// or https:// URL');
  }
  if (c.PAY_MIN_AMOUNT > c.PAY_MAX_AMOUNT) problems.push('PAY_MIN_AMOUNT: larger than PAY_MAX_AMOUNT');
  return problems;
}

/** Parses the environment; throws a readable list of what is wrong. */
export function loadServerConfig(env: NodeJS.ProcessEnv = process.env): TServerConfig {
  const parsed = ZServerEnv.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const problems = [
    ...paymentProblems(c),
    ...metricsListenProblems(c.METRICS_LISTEN, c.METRICS_TOKEN, { listen: 'METRICS_LISTEN', token: 'METRICS_TOKEN' }),
  ];
  if (problems.length > 0) throw new Error(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  const publicUrl = (c.PUBLIC_URL ?? `http://${c.HOST === '0.0.0.0' ? '127.0.0.1' : c.HOST}:${c.PORT}`).replace(
    /\/$/,
    '',
  );
  return {
    ...c,
    jwtSecret: c.JWT_SECRET ?? loadOrCreateSecret(c.DATA_DIR, 'jwt-secret'),
    dataEncryptionKey: dataKeyOf(c),
    publicUrl,
    gatewayPublicHost: c.GATEWAY_PUBLIC_HOST ?? new URL(publicUrl).hostname,
    tokenTestEchoUrl: c.TOKEN_TEST_ECHO_URL ?? `${publicUrl}/api/proxy/echo`,
    inventoryProbeUrl: c.INVENTORY_PROBE_URL ?? c.TOKEN_TEST_ECHO_URL ?? `${publicUrl}/api/proxy/echo`,
    tokenTestGateway: parseHostPort(c.TOKEN_TEST_GATEWAY ?? `127.0.0.1:${c.GATEWAY_PUBLIC_PORT}`),
    downloadsDir: path.join(c.DATA_DIR, 'downloads'),
    termsDir: path.join(c.DATA_DIR, 'terms'),
  };
}
