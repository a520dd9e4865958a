import { runGateway, runServer, type TRunning } from './run-modes';

// The composition root: `tsx apps/launcher/src/main.ts server|gateway`.
const MODES = { server: runServer, gateway: runGateway } as const;
const mode = (process.argv[2] ?? 'server') as keyof typeof MODES;
if (!(mode in MODES)) {
  console.error(`Unknown run mode "${mode}": use ${Object.keys(MODES).join(' or ')}`);
  process.exit(1);
}

let running: TRunning;
try {
  running = await MODES[mode]();
} catch (error) {
  // A configuration error is a readable list; anything else keeps its stack.
  console.error(error instanceof Error && error.message.startsWith('Invalid configuration') ? error.message : error);
  process.exit(1);
}

let isStopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (isStopping) return;
    isStopping = true;
    void running.close().then(() => process.exit(0));
  });
}
