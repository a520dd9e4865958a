import { describe, expect, it } from 'vitest';
import { checkIpField } from './check-ip-field';

describe('checkIpField', () => {
  it('accepts several entries and normalises them', () => {
    const { ranges, problem } = checkIpField(' 1.2.3.4; 10.0.0.9/24 ;10.0.1.1-10.0.1.5;');
    expect(problem).toBeNull();
    expect(ranges.map((r) => r.text)).toEqual(['1.2.3.4', '10.0.0.0/24', '10.0.1.1-10.0.1.5']);
  });
  it('names the first wrong entry and why', () => {
    expect(checkIpField('1.2.3.4; 010.0.0.1').problem).toEqual({ kind: 'format', entry: '010.0.0.1' });
    expect(checkIpField('1.2.3.4/33').problem).toEqual({ kind: 'prefix', entry: '1.2.3.4/33' });
    expect(checkIpField('10.0.0.5-10.0.0.1').problem).toEqual({ kind: 'order', entry: '10.0.0.5-10.0.0.1' });
    expect(checkIpField('10.0.0.1-::1').problem).toEqual({ kind: 'family', entry: '10.0.0.1-::1' });
    expect(checkIpField('1.2.3.4 5.6.7.8').problem).toEqual({ kind: 'format', entry: '1.2.3.4 5.6.7.8' });
  });
  it('wants at least one entry', () => {
    expect(checkIpField('').problem).toEqual({ kind: 'required' });
    expect(checkIpField(' ; ;').problem).toEqual({ kind: 'required' });
    expect(checkIpField(undefined).problem).toEqual({ kind: 'required' });
  });
  it('finds a range given twice', () => {
    expect(checkIpField('1.2.3.4; ::ffff:1.2.3.4').problem).toEqual({ kind: 'duplicate', entry: '1.2.3.4' });
  });
  it('counts against the per-list cap', () => {
    expect(checkIpField('1.1.1.1; 1.1.1.2', 498).problem).toBeNull();
    expect(checkIpField('1.1.1.1; 1.1.1.2; 1.1.1.3', 498).problem).toEqual({ kind: 'tooMany', count: 498, max: 500 });
  });
});
