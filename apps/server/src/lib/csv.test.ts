import { describe, expect, it } from 'vitest';
import { csvCell } from './csv';

describe('csv cell', () => {
  it('quotes quotes, commas and line breaks, and defuses formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    for (const formula of ['=1+1', '+1', '-1', '@SUM(A1)']) expect(csvCell(formula)).toBe(`'${formula}`);
    expect(csvCell('=HYPERLINK("x","y")')).toBe(`"'=HYPERLINK(""x"",""y"")"`);
    expect(csvCell(null)).toBe('');
    expect(csvCell(102.5)).toBe('102.5');
  });
});
