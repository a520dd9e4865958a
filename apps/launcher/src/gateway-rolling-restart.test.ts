import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TDbHandle } from '@proxy/db';
import { createTestDatabase, describeOnPostgres, insertExit, insertToken, insertUser } from '@proxy/gateway/testing';
import { freePort } from '../test/api-with-gateway';
import { openTunnel, startGatewayProcess, type TGatewayProcess } from '../test/standalone-gateway';

// Clients each on their own traffic token, one connection at a time, opening and transferring without pause.
const CLIENTS = 4;
// Simultaneous connections per token (GATEWAY_MAX_CONNECTIONS_PER_TOKEN), for every token.
const LIMIT = 3;
// Connections each client completes before the restart, while the first old worker drains, and after it.
const ROUNDS = 3;

/** The tunnel's answer status and socket; rejects if the connection fails or closes before the answer. */
function connectThrough(port: number, target: string, credentials: string) {
  return new Promise<{ status: number; socket: net.Socket }>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let head = '';
    const onClose = () => reject(new Error(`closed before the answer (${head.length} bytes)`));
    socket.once('error', reject);
    socket.once('close', onClose);
    socket.on('data', function onData(d: Buffer) {
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', reject);
      resolve({ status: Number(head.slice(9, 12)), socket });
    });
    socket.write(
      `CONNECT ${target} HTTP/1.1\r\nHost: x\r\nProxy-Authorization: Basic ${Buffer.from(credentials).toString('base64')}\r\n\r\n`,
    );
  });
}

/** Sends `size` bytes and reads the echo; resolves the bytes received, rejects if the tunnel fails first. */
function transfer(socket: net.Socket, size: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let got = 0;
    const onClose = () => reject(new Error(`tunnel closed after ${got} of ${size} bytes`));
    socket.once('error', reject);
    socket.once('close', onClose);
    socket.on('data', (d: Buffer) => {
      got += d.length;
      if (got < size) return;
      socket.off('close', onClose);
      resolve(got);
    });
    socket.write(Buffer.alloc(size, 5));
  });
}

// `npm run start:gateway` with two workers, told SIGHUP while clients keep opening tunnels and moving bytes through
// it: it forks a new worker, waits for it to be ready, drains an old one and waits for its exit, then the next. No
// connection is refused, the per-token connection counts hold across the swap, and after a SIGTERM the usage in
// the database equals the bytes the clients and the origin counted.
describeOnPostgres('a clustered gateway restarted one worker at a time (SIGHUP) under load', () => {
  let db: TDbHandle & { url?: string };
  let origin: net.Server;
  let originPort: number;
  let originReceived = 0;
  let port: number;
  let gateway: TGatewayProcess;
  const tokenIds = new Map<string, number>();

  beforeAll(async () => {
    db = await createTestDatabase();
    // The loopback origin: an echo that counts what it received.
    origin = net.createServer((s) => {
      s.on('error', () => s.destroy());
      s.on('data', (d: Buffer) => {
        originReceived += d.length;
        s.write(d);
      });
    });
    originPort = await new Promise<number>((resolve) =>
      origin.listen(0, '127.0.0.1', () => resolve((origin.address() as net.AddressInfo).port)),
    );
    const userId = await insertUser(db.db);
    const exitNodeId = await insertExit(db.db, { egress: 'direct', country: 'us' });
    for (const username of [...Array.from({ length: CLIENTS }, (_, i) => `uroll${i}`), 'uheld'])
      tokenIds.set(
        username,
        await insertToken(db.db, {
          userId,
          username,
          exitNodeId,
          billing: 'traffic',
          trafficLimitBytes: 10_000_000_000,
        }),
      );
    port = await freePort();
    gateway = await startGatewayProcess(
      {
        DATABASE_URL: db.url,
        GATEWAY_WORKERS: '2',
        GATEWAY_PORT: String(port),
        GATEWAY_MAX_CONNECTIONS_PER_TOKEN: String(LIMIT),
        // Small leases: they are claimed and returned many times over the run.
        GATEWAY_LEASE_BYTES: String(256 * 1024),
      },
      '(2 workers)',
    );
  });

  afterAll(async () => {
    await gateway?.kill();
    origin?.close();
    await db?.close();
  });

  const target = () => `127.0.0.1:${originPort}`;

  it('refuses no connection, keeps the connection limits, and meters every byte carried', async () => {
    type TClient = { username: string; attempts: number; completed: number; carried: number; failures: string[] };
    const clients: TClient[] = Array.from({ length: CLIENTS }, (_, i) => ({
      username: `uroll${i}`,
      attempts: 0,
      completed: 0,
      carried: 0,
      failures: [],
    }));
    let isStopping = false;
    async function run(client: TClient): Promise<void> {
      while (!isStopping) {
        client.attempts += 1;
        // 16 to 128 KiB, varying by connection.
        const size = ((client.attempts % 8) + 1) * 16 * 1024;
        try {
          const { status, socket } = await connectThrough(port, target(), `${client.username}:secret`);
          if (status !== 200) {
            socket.destroy();
            client.failures.push(`status ${status}`);
            continue;
          }
          const received = await transfer(socket, size);
          client.carried += size + received;
          client.completed += 1;
          socket.destroy();
        } catch (error) {
          client.failures.push((error as NodeJS.ErrnoException).code ?? String(error));
        }
      }
    }
    // Waits until every client has completed `rounds` more connections than it had when called.
    const progress = async (rounds: number) => {
      const from = clients.map((c) => c.completed);
      try {
        await expect.poll(() => clients.every((c, i) => c.completed >= from[i] + rounds)).toBe(true);
      } catch (error) {
        throw new Error(`clients stalled: ${JSON.stringify(clients)}\n${gateway.output()}`, { cause: error });
      }
    };
    const load = Promise.all(clients.map(run));
    await progress(ROUNDS);

    // A token at its limit across the workers: its tunnels stay counted while their worker drains.
    const held: net.Socket[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const t = await openTunnel(port, target(), 'uheld:secret');
      expect(t.status, gateway.output()).toBe(200);
      held.push(t.socket);
    }

    gateway.signal('SIGHUP');
    await gateway.waitFor(/ready; draining worker/);
    const over = await openTunnel(port, target(), 'uheld:secret');
    expect(over.status).toBe(429);
    over.socket.destroy();
    // Traffic goes on while the first old worker drains (it waits for the held tunnels it has).
    await progress(ROUNDS);
    for (const socket of held) socket.destroy();

    await gateway.waitFor('gateway rolling restart done');
    await progress(ROUNDS);
    isStopping = true;
    await load;
    const swaps = gateway.output().match(/ready; draining worker \d+/g) ?? [];
    expect(swaps, gateway.output()).toHaveLength(2);
    expect(gateway.output()).toContain('2 of 2 replaced');

    // After the swap the limit is exact: LIMIT tunnels pass, the next is refused.
    const again: net.Socket[] = [];
    await expect
      .poll(async () => {
        const t = await openTunnel(port, target(), 'uheld:secret');
        if (t.status === 200) again.push(t.socket);
        else t.socket.destroy();
        return again.length;
      })
      .toBe(LIMIT);
    const refused = await openTunnel(port, target(), 'uheld:secret');
    expect(refused.status).toBe(429);
    refused.socket.destroy();
    for (const socket of again) socket.destroy();

    // A clean stop of the whole gateway writes what the new workers hold.
    await gateway.stop();
    expect(await gateway.exited, gateway.output()).toBe(0);

    const attempts = clients.reduce((n, c) => n + c.attempts, 0);
    const failures = clients.flatMap((c) => c.failures);
    const carried = clients.reduce((n, c) => n + c.carried, 0);
    const { rows } = (await db.db.execute(
      sql`SELECT t.username, t.traffic_used_bytes AS used, t.traffic_leased_bytes AS leased,
            (SELECT coalesce(sum(bytes), 0) FROM token_usage u WHERE u.token_id = t.id) AS bucketed,
            (SELECT count(*) FROM gateway_leases l WHERE l.token_id = t.id) AS leases
          FROM proxy_tokens t WHERE t.username LIKE 'uroll%'`,
    )) as unknown as { rows: { username: string; used: string; leased: string; bucketed: string; leases: string }[] };
    const metered = rows.reduce((n, r) => n + Number(r.used), 0);
    console.log(
      `rolling restart under load: ${attempts} connections attempted, ${failures.length} refused or failed; ` +
        `${carried} bytes carried (origin received ${originReceived}), ${metered} bytes metered`,
    );
    expect(failures).toEqual([]);
    expect(carried).toBe(2 * originReceived);
    for (const client of clients) {
      const row = rows.find((r) => r.username === client.username)!;
      expect(Number(row.used), client.username).toBe(client.carried);
      expect(Number(row.bucketed), client.username).toBe(client.carried);
      // Every lease was returned: what is counted as leased is what was used.
      expect(Number(row.leases)).toBe(0);
      expect(Number(row.leased)).toBe(Number(row.used));
    }
    const instances = (await db.db.execute(sql`SELECT count(*) AS n FROM gateway_instances`)) as unknown as {
      rows: { n: string }[];
    };
    expect(Number(instances.rows[0].n)).toBe(0);
  });
});
