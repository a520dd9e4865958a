import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type TRouteDef } from '@proxy/contract';
import {
  auditEntries,
  exitNodes,
  softwareReleaseFiles,
  softwareReleases,
  usdtTransfers,
  userSessions,
} from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp, type TTestApp } from '../../../test/helpers';
import { routeCall } from '../../../test/route-calls';
import { sha256Hex, startFileOrigin, type TFileOrigin } from '../downloads/downloads-test-kit';
import { startDeadUpstream, type TLocalUpstream } from '../inventory/inventory-probe-test-kit';
import { importInventory } from '../inventory/inventory.service';
import { createPool } from '../pools/pools.service';
import { seedChargeOptions } from '../payments/payments-charge.service';
import { receiveNotification } from '../payments/payments-settle.service';
import type { TProviderOrderState } from '../payments/providers/provider';
import type { createSandboxProvider } from '../payments/providers/sandbox';
import {
  createAdmin,
  createUser,
  creditFen,
  request,
  seedProxyStartup,
  type TTestUser,
} from '../proxies/proxies-test-kit';

// Every operator call that changes data writes its audit entry inside the transaction that makes its change:
// a fault after the change (the entry's own insert refused by a trigger) rolls back both, and the refusal is
// audited after the rollback; without the fault the call leaves exactly one entry, from its parsed input.
describe('operator calls: the audit entry is written in the transaction of the change', () => {
  const clock = createFakeClock(new Date('2026-05-01T10:00:00Z'));
  const mailer = createMemoryMailer();
  const providerStates = new Map<string, TProviderOrderState>();
  let t: TTestApp;
  let dead: TLocalUpstream;
  let origin: TFileOrigin;
  const INSTALLER = Buffer.from('installer bytes of the audited release');
  let oper: TTestUser;

  const audited = Object.entries(ROUTES as Record<string, TRouteDef>)
    .filter(([, def]) => def.auth === 'admin' && def.method !== 'GET')
    .map(([name]) => name);

  const call = (name: string, input: Record<string, unknown>, token = oper.token) =>
    t.app.inject(
      routeCall(ROUTES[name as keyof typeof ROUTES], input, { headers: { authorization: `Bearer ${token}` } }),
    );

  const customer = (name: string) => createUser(t.app, mailer, name);
  const sandbox = () => t.deps.payProviders.get('sandbox') as ReturnType<typeof createSandboxProvider>;
  const charge = async (user: TTestUser, amount: string) =>
    (await request(t.app, 'POST', `/pay/charge/sandbox/${amount}`, { token: user.token })).json().data as {
      order_id: string;
      price: number;
    };
  const submitSupply = async (user: TTestUser) => {
    await creditFen(t.deps, user.userId, 100_000);
    const res = await request(t.app, 'POST', '/token/supply', {
      token: user.token,
      body: {
        type: 'traffic',
        product: 'dynamic',
        network: 'HTTP',
        amount: 2,
        region: 'us',
        wait_days: 7,
        contact_email: user.email,
        agree_terms: true,
      },
    });
    expect(res.json().code, res.body).toBe(0);
    return res.json().data.request_id as number;
  };
  const openWorkOrder = async (user: TTestUser) => {
    const res = await request(t.app, 'POST', '/user/work/order', {
      token: user.token,
      body: { category: 'other', subject: 'Help', content: 'Please help' },
    });
    expect(res.json().code, res.body).toBe(0);
    return res.json().data.id as number;
  };
  const poolFields = (name: string) => ({
    name,
    kind: 'residential' as const,
    protocol: 'http-connect' as const,
    endpoints: [{ host: '10.9.1.1', port: 7777 }],
    username: 'acme',
    username_template: 'u-{user}-c-{country}',
    area_case: 'lower' as const,
    cost_per_gb_fen: 100,
    priority: 10,
    weight: 100,
    max_connections: 100,
    exit_ip_header: null,
    session_idle_minutes: null,
  });
  const newPool = async (name: string, status: 'enabled' | 'paused' = 'paused', port?: number) =>
    (
      await createPool(t.deps, {
        ...poolFields(name),
        ...(port ? { endpoints: [{ host: '127.0.0.1', port }] } : {}),
        password: 'pool-pass',
        status,
      })
    ).id;
  const releaseFile = (platform: 'windows' | 'macos' | 'linux') => ({
    platform,
    arch: 'x64',
    url: origin.url('/files/app.bin'),
    size: INSTALLER.length,
    sha256: sha256Hex(INSTALLER),
  });
  const newRelease = async (version: string, platforms: ('windows' | 'macos' | 'linux')[]) => {
    const [row] = await t.db.db.insert(softwareReleases).values({ version, releasedOn: '2026-04-30' }).returning();
    const files = await t.db.db
      .insert(softwareReleaseFiles)
      .values(platforms.map((p) => ({ ...releaseFile(p), sizeBytes: INSTALLER.length, releaseId: row.id })))
      .returning();
    return { id: row.id, fileIds: files.map((f) => f.id) };
  };
  const nodeId = async (port: number) => (await t.db.db.select().from(exitNodes).where(eq(exitNodes.port, port)))[0].id;

  /** A successful input of every audited route, after what it needs (each call its own rows). */
  const cases: Record<string, () => Promise<Record<string, unknown>>> = {
    adminSystemSettingsUpdate: async () => ({ admin_totp_required: false }),
    adminNotificationSend: async () => ({
      user_id: (await customer('note')).userId,
      title_zh: '标题',
      title_en: 'Title',
      content_zh: '内容',
      content_en: 'Content',
    }),
    adminInventoryImport: async () => ({ csv: '10.9.0.1:3128:u:p,fr,idf,Paris\n', kind: 'residential' }),
    adminInventoryNodeUpdate: async () => {
      await importInventory(t.deps, '10.9.0.2:3128:u:p,fr,idf,Paris\n', 'residential');
      return {
        id: (await t.db.db.select().from(exitNodes).where(eq(exitNodes.host, '10.9.0.2')))[0].id,
        country: 'fr',
        state: 'idf',
        city: 'Paris',
        host: '10.9.0.3',
        port: 3129,
        username: 'u2',
        password: 'secret-pass',
        status: 'active',
      };
    },
    adminInventoryNodeRetire: async () => {
      await importInventory(t.deps, '10.9.0.4:3130,fr,idf,Paris\n', 'residential');
      return { id: await nodeId(3130) };
    },
    adminInventoryNodeProbe: async () => {
      await importInventory(t.deps, `127.0.0.1:${dead.port},fr,idf,Paris\n`, 'residential');
      return { id: await nodeId(dead.port) };
    },
    adminPoolCreate: async () => ({ ...poolFields('audit create'), password: 'secret-pass' }),
    adminPoolUpdate: async () => ({
      id: await newPool('audit update'),
      ...poolFields('audit update'),
      password: 'secret-pass',
    }),
    adminPoolPause: async () => ({ id: await newPool('audit pause', 'enabled') }),
    adminPoolResume: async () => ({ id: await newPool('audit resume') }),
    adminPoolDelete: async () => ({ id: await newPool('audit delete') }),
    adminPoolCoverage: async () => ({ id: await newPool('audit coverage'), mode: 'list', csv: 'us\nde,by\n' }),
    adminPoolAreaMapping: async () => ({ id: await newPool('audit mapping'), csv: 'us,,,US\n' }),
    adminPoolCheck: async () => ({ id: await newPool('audit check', 'paused', dead.port), country: 'us' }),
    adminEconomicsReconciliationImport: async () => ({
      id: await newPool('audit reconciliation'),
      csv: 'day,bytes\n2026-04-30,1000\n',
    }),
    inviteAdminRebateConfigUpdate: async () => ({ rate: 7.5, min_charge: 20, max_rebate: 50.5 }),
    adminUserAdjust: async () => ({
      id: (await customer('adjust')).userId,
      kind: 'credit',
      amount: '1.00',
      reason: 'goodwill',
      request_id: 'adjust-0001',
    }),
    adminUserSetAdmin: async () => ({ id: (await customer('role')).userId, is_admin: true }),
    adminUserSetStatus: async () => ({ id: (await customer('status')).userId, status: 'disabled' }),
    adminUserSessionEnd: async () => {
      const user = await customer('session');
      const [session] = await t.db.db.select().from(userSessions).where(eq(userSessions.userId, user.userId));
      return { id: user.userId, session_id: session.id };
    },
    adminUserSendMail: async () => {
      const user = await customer('mail');
      // Past the once-a-minute code throttle of the address; the operator's session is stamped with the new time first.
      clock.set(new Date(clock.now().getTime() + 61_000));
      await request(t.app, 'GET', '/admin/audit/list', { token: oper.token });
      return { id: user.userId, kind: 'password_reset' };
    },
    adminPayReverse: async () => {
      const order = await charge(await customer('reverse'), '100');
      await receiveNotification(
        t.deps,
        'sandbox',
        sandbox().notificationFor({ id: order.order_id, priceFen: Math.round(order.price * 100) }, 'success'),
        '127.0.0.1',
      );
      return { order_id: order.order_id, reason: 'Refunded by bank transfer' };
    },
    adminPayReconcile: async () => {
      const order = await charge(await customer('reconcile'), '50');
      providerStates.set(order.order_id, {
        state: 'paid',
        providerTxId: `SBX-${order.order_id}`,
        paidFen: Math.round(order.price * 100),
      });
      return { order_id: order.order_id };
    },
    adminPayAssignTransfer: async () => {
      const [row] = await t.db.db
        .insert(usdtTransfers)
        .values({
          network: 'trc20',
          txHash: 'f'.repeat(64),
          logIndex: 0,
          blockNumber: 1,
          blockTime: clock.now(),
          fromAddress: 'TFrom',
          toAddress: 'TTo',
          amountUnits: '3330000',
          status: 'unmatched',
        })
        .returning();
      return { id: row.id, user_id: (await customer('assign')).userId, amount: '23.97' };
    },
    adminNoticePublish: async () => ({
      title_zh: '公告',
      title_en: 'Notice',
      content_zh: '内容',
      content_en: 'Content',
    }),
    adminSupplyTake: async () => ({ id: await submitSupply(await customer('take')) }),
    adminSupplyComplete: async () => {
      const id = await submitSupply(await customer('complete'));
      expect((await call('adminSupplyTake', { id })).json().code).toBe(0);
      return { id };
    },
    adminSupplyFail: async () => ({ id: await submitSupply(await customer('fail')), reason: 'No stock' }),
    adminWorkOrderReply: async () => ({ id: await openWorkOrder(await customer('reply')), content: 'Answered' }),
    adminWorkOrderClose: async () => ({ id: await openWorkOrder(await customer('close')) }),
    adminPriceCreate: async () => ({ prices: [{ item: 'residential_traffic_tier0_fen', amount_fen: 4500 }] }),
    adminChargeOptionCreate: async () => ({ options: [{ amount_fen: 10_000, gift_fen: 500 }] }),
    adminPayMethodSet: async () => ({ method: 'sandbox', is_enabled: false }),
    adminSoftwareReleaseCreate: async () => ({
      version: 'audit-1.0',
      released_on: '2026-04-30',
      notes_zh: '说明',
      notes_en: 'Notes',
      files: [releaseFile('windows')],
    }),
    adminSoftwareReleaseDelete: async () => ({ id: (await newRelease('audit-delete', ['windows'])).id }),
    adminSoftwareFileAdd: async () => ({
      id: (await newRelease('audit-add', ['windows'])).id,
      ...releaseFile('linux'),
    }),
    adminSoftwareFileRemove: async () => {
      const release = await newRelease('audit-remove', ['windows', 'macos']);
      return { id: release.id, file_id: release.fileIds[1] };
    },
  };

  /** What routes that dial before their change record of the dial's outcome in their entry. */
  const effects: Record<string, unknown> = {
    adminInventoryNodeProbe: { probe: expect.stringMatching(/^down: /) },
    adminPayReconcile: { provider: 'paid' },
    // The dead upstream closes the connection without an answer.
    adminPoolCheck: { check: 'unreachable' },
  };

  /** Every table's rows but the audit's (and the limiter's counters), as one digest per table. */
  async function snapshot(): Promise<Record<string, string>> {
    const tables = (await t.db.db.execute(
      sql`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
    )) as unknown as { rows: { tablename: string }[] };
    const digests: Record<string, string> = {};
    for (const { tablename } of tables.rows) {
      if (tablename === 'audit_entries' || tablename === 'rate_limits') continue;
      const result = (await t.db.db.execute(
        sql.raw(`SELECT md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS d FROM "${tablename}" t`),
      )) as unknown as { rows: { d: string }[] };
      digests[tablename] = result.rows[0].d;
    }
    return digests;
  }

  const entries = () => t.db.db.select().from(auditEntries).orderBy(auditEntries.id);

  beforeAll(async () => {
    dead = await startDeadUpstream();
    origin = await startFileOrigin({ 'app.bin': INSTALLER });
    t = await createTestApp({
      clock,
      mailer,
      config: { PAY_SANDBOX: 'true', INVENTORY_PROBE_TIMEOUT_MS: '2000', DOWNLOAD_ALLOW_PRIVATE: 'true' },
    });
    await seedProxyStartup(t.deps);
    await seedChargeOptions(t.deps);
    // The provider's answers come from the test, as a real provider's come from its network.
    const real = sandbox();
    t.deps.payProviders.set('sandbox', {
      ...real,
      async query(orderId) {
        return providerStates.get(orderId) ?? { state: 'unpaid' };
      },
    });
    oper = await createAdmin(t.app, t.deps, mailer, 'oper');
    await t.db.db.execute(sql`
      CREATE FUNCTION test_refuse_ok_audit_entry() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'fault injected after the change'; END $$`);
  });
  afterAll(async () => {
    await t?.close();
    await dead?.close();
    await origin?.close();
  });

  it('has a case for every operator route that changes data', () => {
    expect(Object.keys(cases).sort()).toEqual([...audited].sort());
  });

  for (const name of Object.keys(cases)) {
    it(`${name}: a fault after the change rolls back the change and its entry; then one entry in the change's transaction`, async () => {
      const input = await cases[name]();
      const before = await snapshot();
      const entriesBefore = (await entries()).length;

      await t.db.db.execute(sql`
        CREATE TRIGGER test_refuse_ok_audit_entry BEFORE INSERT ON audit_entries
        FOR EACH ROW WHEN (NEW.result = 'ok') EXECUTE FUNCTION test_refuse_ok_audit_entry()`);
      let faulted;
      try {
        faulted = await call(name, input);
      } finally {
        await t.db.db.execute(sql`DROP TRIGGER test_refuse_ok_audit_entry ON audit_entries`);
      }
      expect(faulted.statusCode, faulted.body).toBe(500);
      expect(await snapshot()).toEqual(before);
      const refusal = (await entries()).slice(entriesBefore);
      expect(refusal).toEqual([expect.objectContaining({ route: name, result: 'error', errorCode: 'INTERNAL' })]);

      const done = await call(name, input);
      expect(done.json().code, done.body).toBe(0);
      const written = (await entries()).slice(entriesBefore + 1);
      expect(written).toEqual([
        expect.objectContaining({ route: name, result: 'ok', errorCode: null, operatorId: oper.userId }),
      ]);
      // From the parsed input (path ids as numbers), with secrets replaced.
      const kept = written[0].input as Record<string, unknown>;
      if ('id' in input && typeof input.id === 'number') expect(kept.id).toBe(input.id);
      expect(JSON.stringify(kept)).not.toContain('secret-pass');
      // A dial made before the change is recorded with it.
      expect(kept.effects).toEqual(effects[name]);
    });
  }

  it('an operator balance change with a deeply nested extra field is refused with 400 and moves nothing; the refusal is audited', async () => {
    const user = await customer('deep');
    const before = await snapshot();
    const entriesBefore = (await entries()).length;
    for (const depth of [1_000, 3_000]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/admin/users/${user.userId}/balance`,
        headers: { authorization: `Bearer ${oper.token}`, 'content-type': 'application/json' },
        payload: `{"kind":"credit","amount":"1.00","reason":"x","request_id":"deep-0000${depth}","note":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(400);
    }
    expect(await snapshot()).toEqual(before);
    expect((await entries()).slice(entriesBefore)).toEqual([
      expect.objectContaining({ route: 'adminUserAdjust', result: 'error', errorCode: 'BAD_REQUEST' }),
      expect.objectContaining({ route: 'adminUserAdjust', result: 'error', errorCode: 'BAD_REQUEST' }),
    ]);
  });
});
