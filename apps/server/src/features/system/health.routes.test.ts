import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../../../test/helpers';

// The probes beside GET /api/health (which answers as before): liveness, and readiness with its reasons.
describe('health probes', () => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const ready = (lang = 'en') => t.app.inject({ method: 'GET', url: '/api/health/ready', headers: { lang } });

  it('answers live, and ready with every check of this process', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    expect([live.statusCode, live.json()]).toEqual([200, { code: 0, msg: 'OK', data: { status: 'live' } }]);
    const res = await ready();
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      status: 'ready',
      checks: {
        database: { status: 'ok' },
        migrations: { status: 'ok' },
        change_feed: { status: 'ok' },
        // No gateway runs in this process.
        gateway: { status: 'off' },
      },
      reasons: [],
    });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is not ready while the database is behind the migrations of this build, nor with a stale embedded gateway', async () => {
    const result = (await t.db.db.execute(
      sql`SELECT id, hash, created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1`,
    )) as unknown as { rows: { id: number; hash: string; created_at: string }[] };
    const [last] = result.rows;
    await t.db.db.execute(sql`DELETE FROM drizzle.__drizzle_migrations WHERE id = ${last.id}`);
    try {
      const res = await ready();
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        code: 9001,
        msg: 'The service is not ready',
        data: {
          error: 'NOT_READY',
          status: 'not_ready',
          checks: { database: { status: 'ok' }, migrations: { status: 'failed' } },
          reasons: [expect.stringMatching(/^migrations: the database is behind this build/)],
        },
      });
      expect((await ready('zh')).json().msg).toBe('服务尚未就绪');
    } finally {
      await t.db.db.execute(
        sql`INSERT INTO drizzle.__drizzle_migrations (id, hash, created_at) VALUES (${last.id}, ${last.hash}, ${last.created_at})`,
      );
    }
    expect((await ready()).statusCode).toBe(200);
    // The launcher hands the embedded gateway's state check over (gateway.store.health()).
    t.deps.gatewayHealth = () => ({ isReady: false, reason: 'state stale: last matched the database 31 s ago' });
    try {
      const res = await ready();
      expect([res.statusCode, res.json().data.reasons]).toEqual([
        503,
        ['gateway: state stale: last matched the database 31 s ago'],
      ]);
    } finally {
      t.deps.gatewayHealth = undefined;
    }
  });
});

describe('health probes once the database is gone', () => {
  it('answers live, but not ready, naming the database', async () => {
    const t = await createTestApp();
    await t.db.close();
    try {
      const live = await t.app.inject({ method: 'GET', url: '/api/health/live' });
      expect(live.statusCode).toBe(200);
      const res = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().data).toMatchObject({
        status: 'not_ready',
        checks: { database: { status: 'failed' }, migrations: { status: 'failed' } },
      });
      expect(res.json().data.reasons[0]).toMatch(/^database: not reachable: /);
    } finally {
      // Its change feed cannot stop listening on a database that is closed.
      await t.app.close().catch(() => {});
    }
  });
});
