import countries from 'i18n-iso-countries';
import { describe, expect, it } from 'vitest';
import { ISO_COUNTRY_CODES, SUPPLY_REGIONS, zSupplyRegion } from '@proxy/contract';

describe('supply regions', () => {
  it("the contract's country list is i18n-iso-countries' alpha-2 list, without the user-assigned xk", () => {
    const library = Object.keys(countries.getAlpha2Codes())
      .map((code) => code.toLowerCase())
      .filter((code) => code !== 'xk')
      .sort();
    expect([...ISO_COUNTRY_CODES].sort()).toEqual(library);
  });

  it("takes every country and the spec's six (uk as gb), refuses codes of no country", () => {
    const region = zSupplyRegion;
    for (const code of [...ISO_COUNTRY_CODES, ...SUPPLY_REGIONS])
      expect(region.safeParse(code.toUpperCase()).success, code).toBe(true);
    expect(region.parse('uk')).toBe('gb');
    for (const code of ['zz', 'xx', 'xk', 'aa', 'eu', 'un', 'q1', 'usa'])
      expect(region.safeParse(code).success, code).toBe(false);
  });
});
