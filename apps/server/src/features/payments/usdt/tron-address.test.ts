import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tronAddressFromHex, tronAddressToHex } from './tron-address';

describe('TRON addresses (base58check of 0x41 and 20 bytes)', () => {
  it("decodes and encodes mainnet USDT's contract", () => {
    expect(tronAddressToHex('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe('a614f803b6fd780986a42c78ec9c7f77e6ded13c');
    expect(tronAddressFromHex('a614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    // A 32-byte topic names the same account in its last 20 bytes.
    expect(tronAddressFromHex(`0x${'0'.repeat(24)}a614f803b6fd780986a42c78ec9c7f77e6ded13c`)).toBe(
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    );
  });

  it('round-trips any account id', () => {
    for (let i = 0; i < 50; i++) {
      const hex = randomBytes(20).toString('hex');
      expect(tronAddressToHex(tronAddressFromHex(hex))).toBe(hex);
    }
    expect(tronAddressToHex(tronAddressFromHex('0'.repeat(40)))).toBe('0'.repeat(40));
  });

  it.each([
    'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T', // checksum
    'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6', // length
    'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj0t', // 0 is not base58
    '1R7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    '0xdAC17F958D2ee523a2206206994597C13D831ec7',
    '',
  ])('refuses %j', (text) => {
    expect(tronAddressToHex(text)).toBeNull();
  });
});
