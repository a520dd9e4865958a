import { z } from 'zod';
import { defineRoute, type TRouteDef } from './route-def';
import { zIdParam } from './validators';

/**
 * Shared schemas of the token test (GET /token/test/{id}) and of the echo it
 * fetches through the gateway (GET /proxy/echo).
 */

/**
 * Why a token test failed: the gateway's refusal reasons (X-Proxy-Reason, or
 * the SOCKS5 reply mapped to the same names) plus what can go wrong around them.
 */
export const TOKEN_TEST_REASONS = {
  'auth-required': { zh: '网关要求代理认证', en: 'The gateway asked for proxy credentials' },
  'bad-credentials': { zh: '代理用户名或密码错误', en: 'Wrong proxy username or password' },
  'token-expired': { zh: '该代理已过期', en: 'This proxy has expired' },
  'token-disabled': { zh: '该代理已禁用', en: 'This proxy is disabled' },
  'token-exhausted': { zh: '该代理流量已用完', en: 'This proxy has no traffic left' },
  'wrong-protocol': { zh: '该代理不支持此协议', en: 'This proxy does not accept this protocol' },
  'source-refused': {
    zh: '当前来源地址不允许使用该代理（IP 白名单/黑名单）',
    en: 'This source address may not use the proxy (IP whitelist/blacklist)',
  },
  'target-refused': { zh: '目标地址不被允许', en: 'This destination is not allowed' },
  'too-many-connections': { zh: '该代理连接数过多', en: 'Too many connections for this proxy' },
  'no-exit': { zh: '该地区暂无可用出口', en: 'No exit is available in this area' },
  'area-not-served': {
    zh: '该地区暂无出口或上游代理池提供服务',
    en: 'No exit or pool serves this area right now',
  },
  'pool-down': { zh: '该地区的上游代理池暂时无法连接', en: "The area's upstream pools are not answering right now" },
  'exit-in-use': {
    zh: '该地区的出口都已被您的其他粘性会话占用',
    en: 'Every exit of this area is held by another of your sticky sessions',
  },
  'upstream-failed': { zh: '出口无法访问目标地址', en: 'The exit could not reach the destination' },
  'bad-request': { zh: '网关拒绝了格式错误的请求', en: 'The gateway refused a malformed request' },
  'not-allowed': { zh: '网关拒绝了该连接', en: 'The gateway refused the connection' },
  'gateway-unreachable': { zh: '无法连接代理网关', en: 'The proxy gateway could not be reached' },
  timeout: { zh: '测试超时（10 秒）', en: 'The test timed out (10 s)' },
  'bad-response': { zh: '测试地址返回了无法识别的内容', en: 'The test endpoint answered something unexpected' },
} as const satisfies Record<string, { zh: string; en: string }>;
/** A token test failure reason. */
export type TTokenTestReason = keyof typeof TOKEN_TEST_REASONS;
/** Seconds a token test may take. */
export const TOKEN_TEST_TIMEOUT_MS = 10_000;

/**
 * Answer of GET /token/test/{id}. A refusal or failure is still a successful
 * call (code 0) with ok false: the console shows it in place, not as a toast.
 */
export const ZTokenTestResult = z.object({
  ok: z.boolean(),
  /** Time from dialling the gateway to the echo's full answer; null when nothing came back. */
  latency_ms: z.number().int().nullable(),
  /** Address the echo endpoint saw (the exit); null on failure. */
  exit_ip: z.string().nullable(),
  /** Country of the exit address; null for loopback/private addresses or when unknown. */
  country: z.object({ code: z.string(), name_zh: z.string(), name_en: z.string() }).nullable(),
  /** HTTP status of the answer through the proxy (the gateway's refusal status for HTTP tokens); null when there was none. */
  status_code: z.number().int().nullable(),
  /** Present when ok is false: the reason name and its message (request language, and both). */
  error: z
    .object({
      reason: z.string(),
      message: z.string(),
      message_zh: z.string(),
      message_en: z.string(),
    })
    .optional(),
});
/** Parsed token test answer. */
export type TTokenTestResult = z.infer<typeof ZTokenTestResult>;

/** Answer of GET /proxy/echo: the caller's address as the server saw it. */
export const ZProxyEcho = z.object({ ip: z.string(), at: z.string() });

/** The proxy test and the echo it fetches through the gateway. */
export const PROXY_TEST_ROUTES = {
  tokenTest: defineRoute({
    method: 'GET',
    path: '/token/test/:id',
    auth: 'user',
    summary:
      'Test a proxy: a real request through the gateway with its credentials (latency, exit address and country; a refusal answers ok false with the reason; the bytes count as usage)',
    tag: 'proxy',
    input: zIdParam,
    output: ZTokenTestResult,
  }),
  proxyEcho: defineRoute({
    method: 'GET',
    path: '/proxy/echo',
    auth: 'none',
    summary: "Echo of the caller's address (the proxy test's target)",
    tag: 'tools',
    output: ZProxyEcho,
  }),
} as const satisfies Record<string, TRouteDef>;
