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

  it('fail as PostgreSQL would, or sleep on the transaction, once per process', async () => {
    process.env.FAULT_POINTS = 'settle.credited:40001, supply.frozen:40P01,rebate.credited:sleep';
    const tx = { execute: vi.fn(async () => undefined) };
    await expect(faultPoint('settle.credited', tx)).rejects.toMatchObject({ code: '40001' });
    await expect(faultPoint('supply.frozen', tx)).rejects.toMatchObject({ code: '40P01' });
    await faultPoint('rebate.credited', tx);
    expect(tx.execute).toHaveBeenCalledWith('SELECT pg_sleep(3600)');
    // The second pass through each point goes on normally.
    await faultPoint('settle.credited', tx);
    await faultPoint('supply.frozen', tx);
    await faultPoint('rebate.credited', tx);
    expect(tx.execute).toHaveBeenCalledTimes(1);
  });
});
