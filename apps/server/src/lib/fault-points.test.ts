import { afterEach, describe, expect, it, vi } from 'vitest';
import { faultPoint } from './fault-points';

// The points themselves (SIGKILL at a held point) are exercised by the fault
// tests on PostgreSQL (apps/server/test/faults/); here, what FAULT_POINTS selects.
describe('fault points', () => {
  const saved = process.env.FAULT_POINTS;
  afterEach(() => {
    if (saved === undefined) delete process.env.FAULT_POINTS;
    else process.env.FAULT_POINTS = saved;
  });

  it('do nothing unless FAULT_POINTS names them', async () => {
    delete process.env.FAULT_POINTS;
    const tx = { execute: vi.fn(async () => undefined) };
    await faultPoint('purchase.debited', tx);
    process.env.FAULT_POINTS = 'renew.debited:40001';
    await faultPoint('purchase.debited', tx);
    expect(tx.execute).not.toHaveBeenCalled();
  });

  it('have PostgreSQL fail the transaction, or sleep on it, once per process', async () => {
    process.env.FAULT_POINTS = 'settle.credited:40001, supply.frozen:40P01,rebate.credited:sleep';
    const tx = { execute: vi.fn(async (_query: string) => undefined) };
    await faultPoint('settle.credited', tx);
    await faultPoint('supply.frozen', tx);
    await faultPoint('rebate.credited', tx);
    expect(tx.execute.mock.calls.map(([query]) => query)).toEqual([
      "DO $$ BEGIN RAISE EXCEPTION 'injected at settle.credited' USING ERRCODE = 'serialization_failure'; END $$",
      "DO $$ BEGIN RAISE EXCEPTION 'injected at supply.frozen' USING ERRCODE = 'deadlock_detected'; END $$",
      'SELECT pg_sleep(3600)',
    ]);
    // The second pass through each point goes on normally.
    await faultPoint('settle.credited', tx);
    await faultPoint('supply.frozen', tx);
    await faultPoint('rebate.credited', tx);
    expect(tx.execute).toHaveBeenCalledTimes(3);
  });
});
