import { runGateway, runServer, type TRunning } from './run-modes';

// The composition root: `node dist/launcher/main.js server|gateway` (built by `npm run build`; apps/launcher/build.mjs),
// `tsx apps/launcher/src/main.ts server|gateway` in development.
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

// SIGTERM (systemd's stop) and SIGINT (Ctrl-C) drain, then exit 0 (1 if the stop failed). A later SIGTERM changes
// nothing: a clustered gateway's workers may get one from systemd and one from their primary. A second Ctrl-C exits
// at once, without draining.
let isStopping = false;
function stop(signal: NodeJS.Signals): void {
  if (isStopping) {
    if (signal === 'SIGINT') process.exit(130);
    return;
  }
  isStopping = true;
  running.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error('stop failed:', error);
      process.exit(1);
    },
  );
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// SIGHUP (systemd's reload): a clustered gateway replaces its workers one at a time. The API keeps the default.
const { reload } = running;
if (reload) {
  process.on('SIGHUP', () => {
    if (!isStopping) void reload.call(running);
  });
}
