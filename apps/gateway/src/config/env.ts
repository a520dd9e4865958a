import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** Settings of the standalone gateway (`npm run start:gateway`). */
export const ZGatewayEnv = z.object({
  /** PostgreSQL URL (required: the standalone gateway shares the API's database). */
  DATABASE_URL: z.string().url(),
  /** Bind address. */
  GATEWAY_HOST: z.string().default('0.0.0.0'),
  /** Proxy port (HTTP, CONNECT and SOCKS5). */
  GATEWAY_PORT: z.coerce.number().int().min(1).max(65535).default(7777),
  /** host:port pairs always allowed as targets (the API's echo endpoint used by the proxy test), comma separated. */
  GATEWAY_ALLOWED_ENDPOINTS: z.string().default(''),
  /** Tests only: allow loopback and private targets. */
  GATEWAY_ALLOW_PRIVATE_TARGETS: bool,
  /** Simultaneous connections per proxy token. */
  GATEWAY_MAX_CONNECTIONS_PER_TOKEN: z.coerce.number().int().min(1).default(200),
  /** Idle connections are closed after this many seconds. */
  GATEWAY_IDLE_TIMEOUT_S: z.coerce.number().int().min(1).default(120),
  /** Traffic allowance claimed per lease, in bytes. */
  GATEWAY_LEASE_BYTES: z.coerce.number().int().min(1024).default(8 * 1024 * 1024),
  /** Log level: silent, error, info. */
  LOG_LEVEL: z.string().default('info'),
});

/** Parsed gateway settings. */
export type TGatewayEnv = z.output<typeof ZGatewayEnv>;

/** Parses the environment; throws a readable list of what is wrong. */
export function loadGatewayEnv(env: NodeJS.ProcessEnv = process.env): TGatewayEnv {
  const parsed = ZGatewayEnv.safeParse(env);
  if (!parsed.success) {
    throw new Error(`Invalid gateway configuration:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  }
  return parsed.data;
}
