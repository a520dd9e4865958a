import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { TDbHandle } from '@proxy/db';
import { createTestDatabase } from '@proxy/db/testing';
import type { FastifyInstance } from 'fastify';
import { loadServerConfig, type TServerConfig } from '../src/config/env';
import { buildApp, type TAppOptions } from '../src/app';
import type { TClock } from '../src/lib/clock';
import type { TMail, TMailer } from '../src/lib/mailer';
import type { TDeps } from '../src/lib/deps';

export {
  createTestDatabase,
  describeOnPglite,
  describeOnPostgres,
  isPostgres,
  itOnPglite,
  itOnPostgres,
} from '@proxy/db/testing';

/** Test configuration: cheap argon2, generous rate limits, a temporary data folder. */
export function createTestConfig(overrides: Record<string, string> = {}): TServerConfig {
  return loadServerConfig({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'proxy-data-')),
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    // Like JWT_SECRET, the same for every app of a run (a test restarting the server reads its secrets again).
    DATA_ENCRYPTION_KEY: '7e57'.repeat(16),
    ARGON2_MEMORY_KIB: '1024',
    ARGON2_TIME_COST: '1',
    RATE_LIMIT_AUTH_MAX: '1000',
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: path.join(tmpdir(), 'no-web-dist'),
    ...overrides,
  });
}

/** A mailer that keeps what it sends. */
export type TMemoryMailer = TMailer & { sent: TMail[]; last(to?: string): TMail | undefined };

/** A mailer that keeps what it sends, for tests that read codes. */
export function createMemoryMailer(): TMemoryMailer {
  const sent: TMail[] = [];
  return {
    describe: 'memory',
    sent,
    async send(mail) {
      sent.push(mail);
    },
    last(to) {
      return [...sent].reverse().find((m) => !to || m.to === to);
    },
  };
}

/** A clock tests move by hand. */
export function createFakeClock(
  start = new Date('2026-01-01T00:00:00Z'),
): TClock & { advance(ms: number): void; set(d: Date): void } {
  let t = start.getTime();
  return {
    now: () => new Date(t),
    advance(ms) {
      t += ms;
    },
    set(d) {
      t = d.getTime();
    },
  };
}

/** A test app on its own database. */
export type TTestApp = { app: FastifyInstance; deps: TDeps; db: TDbHandle; mailer: TMailer; close(): Promise<void> };

/** The app on a fresh database; close() stops both. */
export async function createTestApp(
  options: {
    config?: Record<string, string>;
    clock?: TClock;
    mailer?: TMailer;
    /** A database of the caller's (migrated): the app runs on it and leaves it open on close. */
    database?: TDbHandle;
    /** The handlers by route group (default: every feature's), e.g. with one group left out. */
    handlers?: TAppOptions['handlers'];
  } = {},
): Promise<TTestApp> {
  const db = options.database ?? (await createTestDatabase());
  const mailer = options.mailer ?? createMemoryMailer();
  const { app, deps } = await buildApp({
    config: createTestConfig(options.config),
    database: db,
    clock: options.clock,
    mailer,
    logger: false,
    handlers: options.handlers,
  });
  await app.ready();
  return {
    app,
    deps,
    db,
    mailer,
    async close() {
      await app.close();
      if (!options.database) await db.close();
    },
  };
}

/** A log stream for an app built in a test (`logger: { stream }`) and the lines written to it so far. */
export function captureLog(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { stream, lines };
}
