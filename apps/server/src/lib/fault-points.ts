import { writeSync } from 'node:fs';

/**
 * Named crash points inside the money transactions, for the fault tests only
 * (apps/server/test/fault-harness.ts). Without the environment variable
 * FAULT_POINTS (never set outside those tests) every point is a no-op.
 *
 * FAULT_POINTS is a comma-separated list of `<point>` or `<point>:<mode>`.
 * The first time the process reaches a listed point it writes the line
 * `FAULT_POINT <point>` to stderr, then:
 * - `hold` (the default): blocks the whole process where it stands, with the
 *   transaction open, so the test can kill it there (SIGKILL);
 * - `sleep`: runs `pg_sleep` on the transaction's connection, so the test can
 *   terminate that backend (pg_terminate_backend) mid-transaction;
 * - `40001` or `40P01`: has PostgreSQL raise a serialization failure or a
 *   deadlock in the transaction, after its first writes.
 * Later passes through the same point go on normally.
 */

/** What a point needs of the transaction: run one statement on its connection. */
type TFaultTx = { execute(query: string): PromiseLike<unknown> };

/** The points placed in the code (each after the first write of its transaction, before the commit). */
export const FAULT_POINTS = [
  'purchase.debited',
  'renew.debited',
  'auto-renew.debited',
  'settle.credited',
  'usdt.credited',
  'reversal.debited',
  'adjust.moved',
  'supply.frozen',
  'supply.released',
  'supply.consumed',
  'rebate.credited',
] as const;

/** A named crash point. */
export type TFaultPoint = (typeof FAULT_POINTS)[number];

const reached = new Set<string>();

function modeOf(name: TFaultPoint): string | undefined {
  const list = process.env.FAULT_POINTS;
  if (!list) return undefined;
  for (const item of list.split(',')) {
    const [point, mode] = item.trim().split(':');
    if (point === name) return mode || 'hold';
  }
  return undefined;
}

/** The crash point `name`: nothing unless FAULT_POINTS names it (see above). */
export async function faultPoint(name: TFaultPoint, tx: TFaultTx): Promise<void> {
  const mode = modeOf(name);
  if (mode === undefined || reached.has(name)) return;
  reached.add(name);
  writeSync(2, `FAULT_POINT ${name}\n`);
  if (mode === 'sleep') {
    await tx.execute('SELECT pg_sleep(3600)');
    return;
  }
  if (mode === '40001' || mode === '40P01') {
    // Raised by PostgreSQL itself, so it reaches the code as a real one does (through the driver, the transaction aborted).
    const condition = mode === '40001' ? 'serialization_failure' : 'deadlock_detected';
    await tx.execute(`DO $$ BEGIN RAISE EXCEPTION 'injected at ${name}' USING ERRCODE = '${condition}'; END $$`);
    return;
  }
  // Block the event loop for good: nothing more happens in this process until it is killed.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}
