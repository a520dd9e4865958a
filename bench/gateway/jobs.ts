/**
 * What the orchestrator asks the load generator to do, and what it answers.
 * Shared by run.ts and loadgen.ts (types and constants only: no side effects).
 */

/** Credentials of the tokens the benchmark gateway is seeded with. */
export const BENCH_TOKENS = {
  http: { username: 'benchhttp', network: 'HTTP' },
  socks: { username: 'benchsocks', network: 'SOCKS5' },
  meterConnect: { username: 'meterconnect', network: 'HTTP' },
  meterHttp: { username: 'meterhttp', network: 'HTTP' },
  meterSocks: { username: 'metersocks', network: 'SOCKS5' },
  // The soak's: settled connections per protocol (compared byte for byte), and connections aborted mid-transfer.
  soakHttp: { username: 'soakhttp', network: 'HTTP' },
  soakConnect: { username: 'soakconnect', network: 'HTTP' },
  soakSocks: { username: 'soaksocks', network: 'SOCKS5' },
  soakAbortHttp: { username: 'soakaborthttp', network: 'HTTP' },
  soakAbortSocks: { username: 'soakabortsocks', network: 'SOCKS5' },
  // Traffic tokens with an allowance far beyond the run (bulk through the lease path), and ones with a small allowance
  // spent at full speed (the overshoot past it).
  trafficHttp: { username: 'traffichttp', network: 'HTTP' },
  trafficSocks: { username: 'trafficsocks', network: 'SOCKS5' },
  capConnect: { username: 'capconnect', network: 'HTTP' },
  capHttp: { username: 'caphttp', network: 'HTTP' },
  capSocks: { username: 'capsocks', network: 'SOCKS5' },
  // A dynamic traffic token of the pool's country, where no exit is: it leaves through the loopback pool.
  poolHttp: { username: 'benchpool', network: 'HTTP' },
  // A static traffic token whose exit is the same loopback proxy as an upstream exit (a fixed username): the gateway's
  // upstream-exit path beside its pool path, through the same upstream.
  poolExitHttp: { username: 'benchpoolexit', network: 'HTTP' },
} as const;

/** The loopback upstream pool of the pool scenario (pool-child.ts) and its row in the gateway's database. */
export const BENCH_POOL = {
  // No session segment: the fake keeps a session on one loopback source address, and at thousands of tunnels a second
  // its connections from one address then limit its rate (and the comparison with the exit path through it).
  template: 'user-{user}-country-{country}',
  user: 'benchpool',
  password: 'bench-Pool-1',
  country: 'de',
} as const;

/** The allowance of the overshoot scenario's tokens, and the gateway's lease (GATEWAY_LEASE_BYTES, its default). */
export const CAP_BYTES = 1024 ** 3;
export const CAP_LEASE_BYTES = 8 * 1024 ** 2;

/** The password of every benchmark token. */
export const BENCH_PASSWORD = 'bench-Secret-1';

/** Username and password sent to a proxy. */
export type TAuth = { username: string; password: string };

/**
 * How a client reaches the origin:
 * - plain: connect to `port`, which leads to the target by itself (the origin, or a bare relay);
 * - connect: an HTTP proxy at `port`, tunnel with CONNECT;
 * - socks5: a SOCKS5 proxy at `port` (RFC 1929 username/password when `auth` is set, else no authentication);
 * - forward: an HTTP proxy at `port`, absolute-URI requests.
 */
export type TPath = { mode: 'plain' | 'connect' | 'socks5' | 'forward'; port: number; auth?: TAuth };

/** A job for the load generator. */
export type TJob =
  | { type: 'bulk'; path: TPath; targetPort: number; bytes: number }
  | { type: 'keepalive'; path: TPath; targetPort: number; connections: number; durationMs: number; warmupMs: number }
  | { type: 'tunnels'; path: TPath; targetPort: number; clients: number; durationMs: number; warmupMs: number }
  | { type: 'idleOpen'; path: TPath; targetPort: number; count: number }
  | { type: 'idleClose' }
  | { type: 'meter'; path: TPath; targetPort: number }
  | { type: 'overshoot'; path: TPath; targetPort: number; connections: number };

/** Result of a bulk transfer. */
export type TBulkResult = { bytes: number; seconds: number };

/** Result of a timed request run (keep-alive or tunnel per request). */
/** `completed` counts answers inside the measured window, `total` all answers (warm-up included). */
export type TRateResult = {
  completed: number;
  total: number;
  errors: number;
  reconnects: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  firstError?: string;
};

/** Result of opening idle tunnels. */
export type TIdleResult = { opened: number; errors: number; firstError?: string };

/** An endless download on `connections` connections until the proxy closes them all: the bytes the client got. */
export type TOvershootResult = { bytes: number; seconds: number; refused: number; firstError?: string };

/** Bytes that crossed the client socket after the proxy handshake, both directions. */
export type TMeterResult = { clientBytes: number; connections: number; requests: number };
