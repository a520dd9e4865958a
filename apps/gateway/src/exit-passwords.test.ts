import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox, EXIT_PASSWORD_PURPOSE, type TDbHandle } from '@proxy/db';
import { startGateway, type TGateway } from './index';
import { MISSING_DATA_KEY } from './exit-nodes.repository';
import { gatewayOptionsOf, loadGatewaySettings } from './settings';
import {
  createTestDatabase,
  fetchViaProxy,
  insertExit,
  insertToken,
  insertUser,
  startOrigin,
  startUpstreamHttpProxy,
} from '../test/fixtures';

// Upstream exit passwords are stored sealed by the API (DATA_ENCRYPTION_KEY); the gateway opens them when it loads
// its exits, and dials the upstream with the password in the clear.
describe('sealed upstream exit passwords', () => {
  const key = Buffer.alloc(32, 7);
  const box = createSecretBox(key);
  const password = 'p@ss:sealed/1';
  let handle: TDbHandle;
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let upstream: Awaited<ReturnType<typeof startUpstreamHttpProxy>>;
  let gateway: TGateway | undefined;

  const options = (secretBox: ReturnType<typeof createSecretBox> | null) => ({
    db: handle.db,
    host: '127.0.0.1',
    port: 0,
    policy: { allowPrivateTargets: true, echoUrls: [] },
    pollIntervalMs: 100,
    secretBox,
  });

  beforeAll(async () => {
    handle = await createTestDatabase();
    origin = await startOrigin();
    upstream = await startUpstreamHttpProxy({ localAddress: '127.0.0.6', username: 'up', password });
    const userId = await insertUser(handle.db);
    const nodeId = await insertExit(handle.db, {
      egress: 'http',
      host: '127.0.0.1',
      port: upstream.port,
      username: 'up',
      password: box.seal(password, EXIT_PASSWORD_PURPOSE),
      country: 'jp',
    });
    await insertToken(handle.db, { userId, username: 'usealed', exitNodeId: nodeId, country: 'jp' });
  });
  afterAll(async () => {
    await gateway?.close();
    origin?.close();
    upstream?.close();
    await handle?.close();
  });

  it('without the key the gateway does not start, and says which setting it needs', async () => {
    await expect(startGateway(options(null))).rejects.toThrow(MISSING_DATA_KEY);
    await expect(startGateway(options(createSecretBox(Buffer.alloc(32, 8))))).rejects.toThrow(
      /another DATA_ENCRYPTION_KEY/,
    );
  });

  it('with the key it opens the password and dials the upstream with it', async () => {
    gateway = await startGateway(options(box));
    const res = await fetchViaProxy({
      proxyPort: gateway.port,
      username: 'usealed',
      password: 'secret',
      url: `http://127.0.0.1:${origin.port}/`,
      tunnel: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toContain('seen-from=127.0.0.6');
    expect(upstream.connects).toBe(1);
  });

  it('reads DATA_ENCRYPTION_KEY from its settings; an embedded gateway takes the API key instead', () => {
    const settings = loadGatewaySettings({ DATA_ENCRYPTION_KEY: key.toString('base64') });
    const run = { database: handle, defaultHost: '127.0.0.1' };
    const sealed = box.seal('x', EXIT_PASSWORD_PURPOSE);
    expect(gatewayOptionsOf(settings, run).secretBox?.open(sealed, EXIT_PASSWORD_PURPOSE).plain).toBe('x');
    expect(gatewayOptionsOf(loadGatewaySettings({}), run).secretBox).toBeNull();
    expect(gatewayOptionsOf(loadGatewaySettings({}), { ...run, dataKey: key }).secretBox?.keyId).toBe(box.keyId);
    expect(() => loadGatewaySettings({ DATA_ENCRYPTION_KEY: 'short' })).toThrow(/DATA_ENCRYPTION_KEY: 32 bytes/);
  });
});
