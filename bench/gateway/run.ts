// Past ~400 lines: the benchmark's one script, read top to bottom: its options, the paths and anchors it starts,
// each measurement in turn and the report; its parts live beside it (anchors, ipc, jobs, loadgen, report).
import os from 'node:os';
import { startDante, startSquid, startTinyproxy, type TAnchor, type TAnchorSkip } from './anchors';
import { readCpuSeconds, readMemoryKb, startNodeChild, type TNodeChild } from './ipc';
import {
  BENCH_PASSWORD,
  BENCH_TOKENS,
  CAP_BYTES,
  CAP_LEASE_BYTES,
  type TBulkResult,
  type TIdleResult,
  type TJob,
  type TMeterResult,
  type TOvershootResult,
  type TPath,
  type TRateResult,
} from './jobs';
import { formatTable, median, type TCell } from './report';

/**
 * The gateway benchmark (npm run bench:gateway [-- --quick]): on loopback, side by
 * side in one run, direct, a bare Node relay, the full gateway, squid, dante and
 * tinyproxy; bulk transfer, keep-alive forwarding, a tunnel per request, idle
 * tunnels, metering accuracy, and the gateway's cost through a loopback upstream
 * pool against its direct exit (`pool`); figures as ratios against the relay and squid
 * of the same run, with the issue's targets marked met or missed.
 */

const argv = process.argv.slice(2);
const isQuick = argv.includes('--quick');
function option(name: string): number | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : undefined;
}
const GiB = 1024 ** 3;
const only = argv.includes('--only') ? new Set(argv[argv.indexOf('--only') + 1].split(',')) : null;
const isWanted = (scenario: 'bulk' | 'keepalive' | 'many' | 'tunnels' | 'idle' | 'meter' | 'overshoot' | 'pool') =>
  !only || only.has(scenario);
// Profiling the gateway child: a CPU profile written when it stops, a heap snapshot with the idle tunnels open.
const profileDir = argv.includes('--profile') ? argv[argv.indexOf('--profile') + 1] : null;
const heapSnapshotFile = argv.includes('--heap-snapshot') ? argv[argv.indexOf('--heap-snapshot') + 1] : null;
// Extra Node flags for the gateway child (experiments such as --initial-old-space-size=64), space-separated.
// The gateway runs with the flags of `npm run start:gateway` (a larger first heap avoids
// early full collections under bulk traffic); --gateway-flags replaces them.
const PRODUCTION_FLAGS = ['--initial-old-space-size=64'];
const gatewayFlags = argv.includes('--gateway-flags')
  ? argv[argv.indexOf('--gateway-flags') + 1].split(' ').filter(Boolean)
  : PRODUCTION_FLAGS;
const settings = {
  runs: option('runs') ?? (isQuick ? 2 : 5),
  bulkBytes: Math.round((option('bulk-gib') ?? (isQuick ? 0.5 : 1)) * GiB),
  durationMs: (option('seconds') ?? (isQuick ? 3 : 5)) * 1000,
  warmupMs: 500,
  connections: 50,
  // The many-clients scenario: kept-alive connections at once, and a longer warm-up while they all connect.
  manyConnections: option('many') ?? 2000,
  manyWarmupMs: 2000,
  idleCount: option('idle') ?? 2000,
  idleRuns: option('idle-runs') ?? (isQuick ? 1 : 3),
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const started = Date.now();
const children: TNodeChild[] = [];
const anchors: TAnchor[] = [];

async function stopAll(): Promise<void> {
  await Promise.allSettled([...children.map((c) => c.stop()), ...anchors.map((a) => a.stop())]);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void stopAll().finally(() => process.exit(130));
  });
}

function log(text: string): void {
  process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${text}\n`);
}

// A proxy (or the reference relay, or nothing) that a scenario goes through.
type TSubject = { label: string; pid: number | null; path: TPath; proxy: string; canGc: boolean };

async function main(): Promise<void> {
  log(
    `gateway benchmark, ${isQuick ? 'quick' : 'full'} run: ${JSON.stringify(settings)}${gatewayFlags.length ? `, gateway flags ${gatewayFlags.join(' ')}` : ''}`,
  );
  const origin = await startNodeChild('origin.ts');
  children.push(origin);
  const originPorts = origin.ready.ports as { source: number; http: number; echo: number; hold: number };
  const relay = await startNodeChild(
    'relay.ts',
    [`source=${originPorts.source}`, `http=${originPorts.http}`, `hold=${originPorts.hold}`],
    ['--expose-gc'],
  );
  children.push(relay);
  const relayPorts = relay.ready.ports as { source: number; http: number; hold: number };
  // The loopback upstream pool (its own process) the gateway's pool token leaves through.
  const poolChild = await startNodeChild('pool-child.ts');
  children.push(poolChild);
  const gateway = await startNodeChild(
    'gateway-child.ts',
    [`pool=${poolChild.ready.port as number}`],
    ['--expose-gc', ...gatewayFlags, ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
  );
  children.push(gateway);
  const gatewayPort = gateway.ready.port as number;
  const tokenIds = gateway.ready.tokenIds as Record<keyof typeof BENCH_TOKENS, number>;
  const loadgen = await startNodeChild('loadgen.ts');
  children.push(loadgen);
  const run = <T>(job: TJob) => loadgen.call<T>('run', { job });

  const skipped: TAnchorSkip[] = [];
  const anchorByName: Record<string, TAnchor> = {};
  for (const start of [startSquid, startDante, startTinyproxy]) {
    const result = await start();
    if ('port' in result) {
      anchors.push(result);
      anchorByName[result.name] = result;
      log(`${result.version} on port ${result.port}`);
    } else {
      skipped.push(result);
      log(`${result.name} skipped: ${result.reason}`);
    }
  }
  const squid = anchorByName.squid;
  const dante = anchorByName.dante;
  const tinyproxy = anchorByName.tinyproxy;

  const auth = (key: keyof typeof BENCH_TOKENS) => ({ username: BENCH_TOKENS[key].username, password: BENCH_PASSWORD });
  const direct = (port: number): TSubject => ({
    label: 'direct (no proxy)',
    pid: null,
    path: { mode: 'plain', port },
    proxy: 'direct',
    canGc: false,
  });
  const viaRelay = (port: number): TSubject => ({
    label: 'bare Node relay',
    pid: relay.pid,
    path: { mode: 'plain', port },
    proxy: 'relay',
    canGc: true,
  });
  const gwConnect: TSubject = {
    label: 'gateway CONNECT',
    pid: gateway.pid,
    path: { mode: 'connect', port: gatewayPort, auth: auth('http') },
    proxy: 'gateway',
    canGc: true,
  };
  const gwSocks: TSubject = {
    label: 'gateway SOCKS5',
    pid: gateway.pid,
    path: { mode: 'socks5', port: gatewayPort, auth: auth('socks') },
    proxy: 'gateway',
    canGc: true,
  };
  // The same through traffic tokens (an allowance far beyond the run): every chunk is taken from the token's lease.
  const gwConnectTraffic: TSubject = {
    label: 'gateway CONNECT, traffic token',
    pid: gateway.pid,
    path: { mode: 'connect', port: gatewayPort, auth: auth('trafficHttp') },
    proxy: 'gateway',
    canGc: true,
  };
  const gwSocksTraffic: TSubject = {
    label: 'gateway SOCKS5, traffic token',
    pid: gateway.pid,
    path: { mode: 'socks5', port: gatewayPort, auth: auth('trafficSocks') },
    proxy: 'gateway',
    canGc: true,
  };
  const gwForward: TSubject = {
    label: 'gateway HTTP forward',
    pid: gateway.pid,
    path: { mode: 'forward', port: gatewayPort, auth: auth('http') },
    proxy: 'gateway',
    canGc: true,
  };
  const anchorSubject = (a: TAnchor | undefined, mode: TPath['mode']): TSubject[] =>
    a
      ? [
          {
            label: `${a.name} ${mode === 'forward' ? 'HTTP forward' : mode === 'socks5' ? 'SOCKS5' : 'CONNECT'}`,
            pid: a.pid,
            path: { mode, port: a.port },
            proxy: a.name,
            canGc: false,
          },
        ]
      : [];

  const cpuOf = (subject: TSubject) => (subject.pid === null ? 0 : readCpuSeconds(subject.pid));

  // --- 1. bulk ------------------------------------------------------------
  const bulkSubjects = [
    direct(originPorts.source),
    viaRelay(relayPorts.source),
    gwConnect,
    gwSocks,
    gwConnectTraffic,
    gwSocksTraffic,
    ...anchorSubject(squid, 'connect'),
    ...anchorSubject(tinyproxy, 'connect'),
    ...anchorSubject(dante, 'socks5'),
  ];
  const bulk = new Map<string, { mbps: number[]; cpuPerGiB: number[] }>();
  for (let r = 0; r < (isWanted('bulk') ? settings.runs : 0); r++) {
    for (const s of bulkSubjects) {
      const cpu0 = cpuOf(s);
      const res = await run<TBulkResult>({
        type: 'bulk',
        path: s.path,
        targetPort: originPorts.source,
        bytes: settings.bulkBytes,
      });
      const cpu = cpuOf(s) - cpu0;
      const entry = bulk.get(s.label) ?? { mbps: [], cpuPerGiB: [] };
      entry.mbps.push(res.bytes / 1e6 / res.seconds);
      entry.cpuPerGiB.push(cpu / (res.bytes / GiB));
      bulk.set(s.label, entry);
      log(`bulk ${s.label} run ${r + 1}: ${(res.bytes / 1e6 / res.seconds).toFixed(0)} MB/s, ${cpu.toFixed(2)} CPU s`);
      await sleep(200);
    }
  }

  // --- 2. keep-alive HTTP forward ------------------------------------------
  const kaSubjects = [
    direct(originPorts.http),
    viaRelay(relayPorts.http),
    gwForward,
    ...anchorSubject(squid, 'forward'),
    ...anchorSubject(tinyproxy, 'forward'),
  ];
  const keepAlive = isWanted('keepalive') ? await runRates('keepalive', kaSubjects, originPorts.http) : null;

  // --- 2b. many kept-alive clients at once -----------------------------------
  const manySubjects = [viaRelay(relayPorts.http), gwForward, ...anchorSubject(squid, 'forward')];
  const many = isWanted('many')
    ? await runRates('keepalive', manySubjects, originPorts.http, settings.manyConnections, settings.manyWarmupMs)
    : null;

  // --- 3. a new tunnel per request -----------------------------------------
  const tunnelSubjects = [
    direct(originPorts.http),
    viaRelay(relayPorts.http),
    gwConnect,
    gwSocks,
    ...anchorSubject(squid, 'connect'),
    ...anchorSubject(tinyproxy, 'connect'),
    ...anchorSubject(dante, 'socks5'),
  ];
  const tunnels = isWanted('tunnels') ? await runRates('tunnels', tunnelSubjects, originPorts.http) : null;

  // --- 3b. through a loopback upstream pool, against the direct exit ---------
  // Both traffic tokens over CONNECT: the static one leaves by the direct exit, the dynamic one through the pool
  // (rendered username, the pool's CONNECT, the breaker's bookkeeping, attribution to the pool).
  const gwPool: TSubject = {
    label: 'gateway CONNECT via loopback pool',
    pid: gateway.pid,
    path: { mode: 'connect', port: gatewayPort, auth: auth('poolHttp') },
    proxy: 'gateway',
    canGc: true,
  };
  const gwPoolExit: TSubject = {
    label: 'gateway CONNECT via the same proxy as an exit',
    pid: gateway.pid,
    path: { mode: 'connect', port: gatewayPort, auth: auth('poolExitHttp') },
    proxy: 'gateway',
    canGc: true,
  };
  const poolSubjects = [gwConnectTraffic, gwPoolExit, gwPool];
  const poolBulk = new Map<string, { mbps: number[]; cpuPerGiB: number[]; poolCpuPerGiB: number[] }>();
  let poolRates: Awaited<ReturnType<typeof runRates>> | null = null;
  if (isWanted('pool')) {
    for (let r = 0; r < settings.runs; r++) {
      for (const s of poolSubjects) {
        const cpu0 = cpuOf(s);
        const poolCpu0 = readCpuSeconds(poolChild.pid);
        const res = await run<TBulkResult>({
          type: 'bulk',
          path: s.path,
          targetPort: originPorts.source,
          bytes: settings.bulkBytes,
        });
        const cpu = cpuOf(s) - cpu0;
        const poolCpu = readCpuSeconds(poolChild.pid) - poolCpu0;
        const entry = poolBulk.get(s.label) ?? { mbps: [], cpuPerGiB: [], poolCpuPerGiB: [] };
        entry.mbps.push(res.bytes / 1e6 / res.seconds);
        entry.cpuPerGiB.push(cpu / (res.bytes / GiB));
        entry.poolCpuPerGiB.push(poolCpu / (res.bytes / GiB));
        poolBulk.set(s.label, entry);
        log(
          `pool bulk ${s.label} run ${r + 1}: ${(res.bytes / 1e6 / res.seconds).toFixed(0)} MB/s, ${cpu.toFixed(2)} CPU s`,
        );
        await sleep(200);
      }
    }
    poolRates = await runRates('tunnels', poolSubjects, originPorts.http);
  }

  async function runRates(
    type: 'keepalive' | 'tunnels',
    subjects: TSubject[],
    targetPort: number,
    connections = settings.connections,
    warmupMs = settings.warmupMs,
  ) {
    const out = new Map<
      string,
      {
        rate: number[];
        p50: number[];
        p99: number[];
        cpu: number[];
        cpuPerRequest: number[];
        errors: number;
        reconnects: number;
        firstError?: string;
      }
    >();
    for (let r = 0; r < settings.runs; r++) {
      for (const s of subjects) {
        const cpu0 = cpuOf(s);
        const t0 = performance.now();
        const job: TJob =
          type === 'keepalive'
            ? { type, path: s.path, targetPort, connections, durationMs: settings.durationMs, warmupMs }
            : { type, path: s.path, targetPort, clients: connections, durationMs: settings.durationMs, warmupMs };
        const res = await run<TRateResult>(job);
        const wall = (performance.now() - t0) / 1000;
        const cpu = cpuOf(s) - cpu0;
        const entry = out.get(s.label) ?? {
          rate: [],
          p50: [],
          p99: [],
          cpu: [],
          cpuPerRequest: [],
          errors: 0,
          reconnects: 0,
        };
        entry.rate.push(res.completed / res.seconds);
        entry.p50.push(res.p50Ms);
        entry.p99.push(res.p99Ms);
        entry.cpu.push((cpu / wall) * 100);
        entry.cpuPerRequest.push(res.total ? (cpu / res.total) * 1e6 : NaN);
        entry.errors += res.errors;
        entry.reconnects += res.reconnects;
        entry.firstError ??= res.firstError;
        out.set(s.label, entry);
        log(
          `${type}${connections === settings.connections ? '' : ` x${connections}`} ${s.label} run ${r + 1}: ${(res.completed / res.seconds).toFixed(0)}/s p50 ${res.p50Ms.toFixed(2)} ms p99 ${res.p99Ms.toFixed(2)} ms` +
            (res.errors ? `, ${res.errors} errors (${res.firstError})` : ''),
        );
        // Let closing connections drain before the next subject.
        await sleep(type === 'tunnels' ? 1000 : 300);
      }
    }
    return out;
  }

  // --- 4. idle tunnels ----------------------------------------------------
  const idleSubjects = [
    viaRelay(relayPorts.hold),
    gwConnect,
    gwSocks,
    ...anchorSubject(squid, 'connect'),
    ...anchorSubject(tinyproxy, 'connect'),
    ...anchorSubject(dante, 'socks5'),
  ];
  const idle = new Map<
    string,
    {
      perTunnelKb: number[];
      heapPerTunnelKb: number[];
      baseMb: number[];
      openMb: number[];
      afterMb: number[];
      errors: number;
      firstError?: string;
    }
  >();
  const childOf = (s: TSubject) => (s.proxy === 'relay' ? relay : s.proxy === 'gateway' ? gateway : null);
  type TNodeMemory = { rss: number; heapUsed: number; external: number };
  // Memory once things settle; Node processes collect garbage first and also report their JS heap.
  async function settledMemory(s: TSubject): Promise<{ kb: number; heapKb: number }> {
    await sleep(300);
    const child = childOf(s);
    let heapKb = NaN;
    if (child) {
      await child.call('gc');
      const m = await child.call<TNodeMemory>('gc');
      heapKb = (m.heapUsed + m.external) / 1024;
      await sleep(200);
    }
    return { kb: readMemoryKb(s.pid!), heapKb };
  }
  for (let r = 0; r < (isWanted('idle') ? settings.idleRuns : 0); r++) {
    for (const s of idleSubjects) {
      const base = await settledMemory(s);
      const res = await run<TIdleResult>({
        type: 'idleOpen',
        path: s.path,
        targetPort: originPorts.hold,
        count: settings.idleCount,
      });
      await sleep(1000);
      const open = await settledMemory(s);
      if (heapSnapshotFile && r === 0 && s.proxy === 'gateway') {
        const file = heapSnapshotFile.replace(/(\.heapsnapshot)?$/, `-${s.path.mode}.heapsnapshot`);
        await gateway.call('heapSnapshot', { file });
        log(`heap snapshot with ${res.opened} ${s.label} tunnels open: ${file}`);
      }
      await run<{ closed: number }>({ type: 'idleClose' });
      await sleep(1500);
      const after = await settledMemory(s);
      const entry = idle.get(s.label) ?? {
        perTunnelKb: [],
        heapPerTunnelKb: [],
        baseMb: [],
        openMb: [],
        afterMb: [],
        errors: 0,
      };
      entry.perTunnelKb.push(res.opened ? (open.kb - base.kb) / res.opened : NaN);
      entry.heapPerTunnelKb.push(res.opened ? (open.heapKb - base.heapKb) / res.opened : NaN);
      entry.baseMb.push(base.kb / 1024);
      entry.openMb.push(open.kb / 1024);
      entry.afterMb.push(after.kb / 1024);
      entry.errors += res.errors;
      entry.firstError ??= res.firstError;
      idle.set(s.label, entry);
      log(
        `idle ${s.label} run ${r + 1}: ${res.opened} open, ${((open.kb - base.kb) / Math.max(1, res.opened)).toFixed(1)} KB each ` +
          `(JS heap ${((open.heapKb - base.heapKb) / Math.max(1, res.opened)).toFixed(1)} KB), ${(base.kb / 1024).toFixed(1)} -> ${(open.kb / 1024).toFixed(1)} -> ${(after.kb / 1024).toFixed(1)} MB`,
      );
    }
  }

  // --- 5. metering accuracy -----------------------------------------------
  const meterCases = [
    {
      label: 'CONNECT',
      key: 'meterConnect' as const,
      path: { mode: 'connect', port: gatewayPort, auth: auth('meterConnect') } as TPath,
      target: originPorts.echo,
    },
    {
      label: 'SOCKS5',
      key: 'meterSocks' as const,
      path: { mode: 'socks5', port: gatewayPort, auth: auth('meterSocks') } as TPath,
      target: originPorts.echo,
    },
    {
      label: 'HTTP forward',
      key: 'meterHttp' as const,
      path: { mode: 'forward', port: gatewayPort, auth: auth('meterHttp') } as TPath,
      target: originPorts.http,
    },
  ];
  const meterRows: {
    label: string;
    sent: number;
    used: number;
    buckets: number;
    isExact: boolean;
    info: TMeterResult;
  }[] = [];
  if (isWanted('meter')) {
    const clientBytes: Record<string, TMeterResult> = {};
    for (const c of meterCases)
      clientBytes[c.key] = await run<TMeterResult>({ type: 'meter', path: c.path, targetPort: c.target });
    await sleep(500);
    const usage = await gateway.call<{ tokenId: number; trafficUsedBytes: number; tokenUsageBytes: number }[]>(
      'usage',
      {
        tokenIds: meterCases.map((c) => tokenIds[c.key]),
      },
    );
    for (const c of meterCases) {
      const u = usage.find((x) => x.tokenId === tokenIds[c.key])!;
      const sent = clientBytes[c.key].clientBytes;
      meterRows.push({
        label: c.label,
        sent,
        used: u.trafficUsedBytes,
        buckets: u.tokenUsageBytes,
        isExact: u.trafficUsedBytes === sent && u.tokenUsageBytes === sent,
        info: clientBytes[c.key],
      });
    }
    log('metering checked');
  }

  // --- 6. overshoot: a small allowance spent at full speed ------------------
  const overshootCases = [
    { label: 'CONNECT', key: 'capConnect' as const, mode: 'connect' as const, target: originPorts.source },
    { label: 'SOCKS5', key: 'capSocks' as const, mode: 'socks5' as const, target: originPorts.source },
    { label: 'HTTP forward', key: 'capHttp' as const, mode: 'forward' as const, target: originPorts.http },
  ];
  const overshootRows: { label: string; result: TOvershootResult; cpu: number }[] = [];
  if (isWanted('overshoot')) {
    for (const c of overshootCases) {
      const cpu0 = cpuOf(gwConnect);
      const result = await run<TOvershootResult>({
        type: 'overshoot',
        path: { mode: c.mode, port: gatewayPort, auth: auth(c.key) },
        targetPort: c.target,
        connections: 10,
      });
      const cpu = cpuOf(gwConnect) - cpu0;
      overshootRows.push({ label: c.label, result, cpu });
      log(
        `overshoot ${c.label}: ${result.bytes} bytes for an allowance of ${CAP_BYTES}, ${(result.bytes / 1e6 / result.seconds).toFixed(0)} MB/s, ${cpu.toFixed(2)} CPU s`,
      );
      await sleep(300);
    }
  }

  // --- report -------------------------------------------------------------
  const ratio = (a: number, b: number) =>
    Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)} x` : 'n/a';
  const mark = (isMet: boolean | null) => (isMet === null ? 'n/a' : isMet ? 'met' : 'MISSED');
  const fixed = (v: number, digits: number) => (Number.isFinite(v) ? v.toFixed(digits) : '-');
  const lines: string[] = [];
  const targets: TCell[][] = [];
  const cpus = os.cpus();
  lines.push(
    `Gateway benchmark, ${new Date().toISOString().slice(0, 10)}, ${isQuick ? 'quick' : 'full'} run: ${cpus.length} cores (${cpus[0]?.model.trim()}), ` +
      `${Math.round(os.totalmem() / GiB)} GiB, Linux ${os.release()}, Node ${process.version}; ` +
      `median of ${settings.runs} runs (idle tunnels: ${settings.idleRuns}); anchors: ${anchors.map((a) => a.version).join(', ') || 'none'}` +
      (skipped.length ? `; skipped: ${skipped.map((s) => `${s.name} (${s.reason})`).join(', ')}` : ''),
    '',
  );

  if (bulk.size) {
    const relayCpu = median(bulk.get('bare Node relay')!.cpuPerGiB);
    lines.push(`Bulk: ${(settings.bulkBytes / GiB).toFixed(2)} GiB downloaded through one tunnel`, '');
    lines.push(
      formatTable(
        ['path', 'MB/s', 'proxy CPU s/GiB', 'CPU vs relay'],
        bulkSubjects.map((s) => {
          const e = bulk.get(s.label)!;
          const cpu = median(e.cpuPerGiB);
          return [
            s.label,
            fixed(median(e.mbps), 0),
            s.pid === null ? '-' : fixed(cpu, 2),
            s.pid === null ? '-' : ratio(cpu, relayCpu),
          ] as TCell[];
        }),
      ),
      '',
    );
    for (const label of ['gateway CONNECT', 'gateway SOCKS5']) {
      const cpu = median(bulk.get(label)!.cpuPerGiB);
      targets.push([
        `${label}: CPU per GiB <= 1.1 x bare relay`,
        `${fixed(cpu, 2)} s vs ${fixed(relayCpu, 2)} s = ${ratio(cpu, relayCpu)}`,
        mark(cpu <= 1.1 * relayCpu),
      ]);
    }
  }

  type TRates = NonNullable<typeof keepAlive>;
  const rateTable = (title: string, data: TRates, subjects: TSubject[], unit: string, squidRate: number) => {
    lines.push(title, '');
    lines.push(
      formatTable(
        ['path', unit, 'p50 ms', 'p99 ms', 'proxy CPU %', 'CPU µs each', 'vs squid', 'errors'],
        subjects.map((s) => {
          const e = data.get(s.label)!;
          const rate = median(e.rate);
          const notes = [
            e.errors ? `${e.errors} (${e.firstError})` : '0',
            e.reconnects ? `${e.reconnects} reconnects` : '',
          ]
            .filter(Boolean)
            .join(', ');
          const isProxy = s.pid !== null;
          return [
            s.label,
            fixed(rate, 0),
            fixed(median(e.p50), 2),
            fixed(median(e.p99), 2),
            isProxy ? fixed(median(e.cpu), 0) : '-',
            isProxy ? fixed(median(e.cpuPerRequest), 0) : '-',
            ratio(rate, squidRate),
            notes,
          ] as TCell[];
        }),
      ),
      '',
    );
  };
  if (keepAlive) {
    const squidKa = squid ? median(keepAlive.get('squid HTTP forward')!.rate) : NaN;
    rateTable(
      `Keep-alive HTTP forward: ${settings.connections} connections, ${settings.durationMs / 1000} s, 64-byte answers`,
      keepAlive,
      kaSubjects,
      'req/s',
      squidKa,
    );
    const gwKa = median(keepAlive.get('gateway HTTP forward')!.rate);
    targets.push([
      'gateway keep-alive req/s >= 1.0 x squid',
      squid ? `${fixed(gwKa, 0)} vs ${fixed(squidKa, 0)} = ${ratio(gwKa, squidKa)}` : 'squid skipped',
      mark(squid ? gwKa >= squidKa : null),
    ]);
  }
  if (many) {
    const squidMany = squid ? many.get('squid HTTP forward')! : null;
    rateTable(
      `Keep-alive HTTP forward, many clients: ${settings.manyConnections} connections at once, ${settings.durationMs / 1000} s after a ${settings.manyWarmupMs / 1000} s warm-up, 64-byte answers`,
      many,
      manySubjects,
      'req/s',
      squidMany ? median(squidMany.rate) : NaN,
    );
    const gwMany = many.get('gateway HTTP forward')!;
    const gwP99 = median(gwMany.p99);
    const squidP99 = squidMany ? median(squidMany.p99) : NaN;
    targets.push([
      `${settings.manyConnections} kept-alive clients: gateway p99 against squid's (reported)`,
      squid ? `${fixed(gwP99, 1)} ms vs ${fixed(squidP99, 1)} ms = ${ratio(gwP99, squidP99)}` : 'squid skipped',
      '-',
    ]);
  }
  if (tunnels) {
    const squidTunnels = squid ? median(tunnels.get('squid CONNECT')!.rate) : NaN;
    rateTable(
      `A new tunnel per request: ${settings.connections} clients, ${settings.durationMs / 1000} s, one GET each`,
      tunnels,
      tunnelSubjects,
      'tunnels/s',
      squidTunnels,
    );
    for (const label of ['gateway CONNECT', 'gateway SOCKS5']) {
      const gwTunnels = median(tunnels.get(label)!.rate);
      targets.push([
        `${label} tunnels/s >= squid CONNECT`,
        squid
          ? `${fixed(gwTunnels, 0)} vs ${fixed(squidTunnels, 0)} = ${ratio(gwTunnels, squidTunnels)}`
          : 'squid skipped',
        mark(squid ? gwTunnels >= squidTunnels : null),
      ]);
    }
  }

  if (idle.size) {
    lines.push(
      `Idle tunnels: ${settings.idleCount} open at once; proxy anonymous memory (RSS without file-backed pages, PSS_Anon summed over the process tree; ` +
        `Node processes after a full GC); median of ${settings.idleRuns} openings, and the first one alone (later openings of squid, tinyproxy and dante reuse the memory the first one left behind)`,
      '',
    );
    lines.push(
      formatTable(
        [
          'path',
          'KB per tunnel',
          'first opening',
          'JS heap KB per tunnel',
          'before MB',
          'open MB',
          'after close MB',
          'errors',
        ],
        idleSubjects.map((s) => {
          const e = idle.get(s.label)!;
          return [
            s.label,
            fixed(median(e.perTunnelKb), 1),
            fixed(e.perTunnelKb[0], 1),
            fixed(median(e.heapPerTunnelKb), 1),
            fixed(median(e.baseMb), 1),
            fixed(median(e.openMb), 1),
            fixed(median(e.afterMb), 1),
            e.errors ? `${e.errors} (${e.firstError})` : '0',
          ] as TCell[];
        }),
      ),
      '',
    );
    const socksKb = median(idle.get('gateway SOCKS5')!.perTunnelKb);
    const connectKb = median(idle.get('gateway CONNECT')!.perTunnelKb);
    targets.push(['idle SOCKS5 tunnel <= 12 KB', `${fixed(socksKb, 1)} KB`, mark(socksKb <= 12)]);
    targets.push(['idle CONNECT tunnel <= 16 KB', `${fixed(connectKb, 1)} KB`, mark(connectKb <= 16)]);
  }

  if (meterRows.length) {
    lines.push(
      'Metering: bytes on the client socket after the handshake (both ways) against what the gateway wrote',
      '',
    );
    lines.push(
      formatTable(
        ['protocol', 'connections / requests', 'client bytes', 'traffic_used_bytes', 'token_usage', 'equal'],
        meterRows.map(
          (m) =>
            [
              m.label,
              `${m.info.connections} / ${m.info.requests}`,
              m.sent,
              m.used,
              m.buckets,
              m.isExact ? 'yes' : `NO (${m.used - m.sent})`,
            ] as TCell[],
        ),
      ),
      '',
    );
    for (const m of meterRows)
      targets.push([`metering exact, ${m.label}`, `${m.used} of ${m.sent} bytes`, mark(m.isExact)]);
  }

  if (overshootRows.length) {
    const bound = CAP_LEASE_BYTES;
    lines.push(
      `Overshoot: a traffic allowance of ${CAP_BYTES / 1024 ** 2} MiB spent at full speed by 10 connections downloading an endless body; ` +
        `bound: gateway processes (1) x lease (${CAP_LEASE_BYTES / 1024 ** 2} MiB)`,
      '',
    );
    lines.push(
      formatTable(
        [
          'protocol',
          'client bytes',
          'overshoot MiB',
          'bound MiB',
          'MB/s',
          'proxy CPU s/GiB',
          'refused',
          'within bound',
        ],
        overshootRows.map(({ label, result, cpu }) => {
          const over = result.bytes - CAP_BYTES;
          return [
            label,
            result.bytes,
            fixed(over / 1024 ** 2, 2),
            fixed(bound / 1024 ** 2, 0),
            fixed(result.bytes / 1e6 / result.seconds, 0),
            fixed(cpu / (result.bytes / GiB), 2),
            result.refused ? `${result.refused} (${result.firstError})` : '0',
            over <= bound ? 'yes' : 'NO',
          ] as TCell[];
        }),
      ),
      '',
    );
    for (const { label, result } of overshootRows)
      targets.push([
        `overshoot past the allowance, ${label}: <= 1 process x lease`,
        `${fixed((result.bytes - CAP_BYTES) / 1024 ** 2, 2)} MiB`,
        mark(result.bytes - CAP_BYTES <= bound),
      ]);
  }

  if (poolBulk.size && poolRates) {
    const base = poolBulk.get(gwConnectTraffic.label)!;
    const baseRates = poolRates.get(gwConnectTraffic.label)!;
    lines.push(
      `Upstream pool: traffic tokens over CONNECT, the direct exit, the loopback fake pool dialled as an upstream exit, and ` +
        `the same as a pool (its own process; its CPU apart; "vs" against the direct exit); bulk ${(settings.bulkBytes / GiB).toFixed(2)} GiB, a tunnel per request ${settings.durationMs / 1000} s x ${settings.connections} clients`,
      '',
    );
    lines.push(
      formatTable(
        [
          'path',
          'bulk MB/s',
          'gateway CPU s/GiB',
          'vs direct exit',
          'pool CPU s/GiB',
          'tunnels/s',
          'gateway CPU µs/tunnel',
          'vs direct exit',
          'errors',
        ],
        poolSubjects.map((s) => {
          const b = poolBulk.get(s.label)!;
          const t = poolRates!.get(s.label)!;
          return [
            s.label,
            fixed(median(b.mbps), 0),
            fixed(median(b.cpuPerGiB), 2),
            ratio(median(b.cpuPerGiB), median(base.cpuPerGiB)),
            s === gwConnectTraffic ? '-' : fixed(median(b.poolCpuPerGiB), 2),
            fixed(median(t.rate), 0),
            fixed(median(t.cpuPerRequest), 0),
            ratio(median(t.cpuPerRequest), median(baseRates.cpuPerRequest)),
            t.errors ? `${t.errors} (${t.firstError})` : '0',
          ] as TCell[];
        }),
      ),
      '',
    );
  }

  lines.push('Targets (issue 11)', '');
  lines.push(formatTable(['target', 'measured', 'result'], targets), '');
  lines.push(`Run time ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  console.log(lines.join('\n'));
}

try {
  await main();
} finally {
  await stopAll();
}
process.exit(0);
