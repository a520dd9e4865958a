import { createHash } from 'node:crypto';

/**
 * TRON addresses: base58check of 0x41 followed by the 20-byte account id
 * ("T..." , 34 characters). Logs and topics carry the 20 bytes in hex.
 */

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const TRON_PREFIX = 0x41;

function checksum(payload: Buffer): Buffer {
  const once = createHash('sha256').update(payload).digest();
  return createHash('sha256').update(once).digest().subarray(0, 4);
}

function base58Decode(text: string): Buffer | null {
  let value = 0n;
  for (const char of text) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) return null;
    value = value * 58n + BigInt(digit);
  }
  const hex = value === 0n ? '' : value.toString(16);
  const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const zeros = /^1*/.exec(text)![0].length;
  return Buffer.concat([Buffer.alloc(zeros), body]);
}

function base58Encode(bytes: Buffer): string {
  let value = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let out = '';
  while (value > 0n) {
    out = ALPHABET[Number(value % 58n)] + out;
    value /= 58n;
  }
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros += 1;
  return '1'.repeat(zeros) + out;
}

/** The 20-byte account id (40 lower-case hex digits) of a TRON address, or null when it is not one (bad characters, length or checksum). */
export function tronAddressToHex(address: string): string | null {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address)) return null;
  const bytes = base58Decode(address);
  if (!bytes || bytes.length !== 25 || bytes[0] !== TRON_PREFIX) return null;
  const payload = bytes.subarray(0, 21);
  if (!checksum(payload).equals(bytes.subarray(21))) return null;
  return payload.subarray(1).toString('hex');
}

/** The TRON address of a 20-byte account id given in hex (40 digits, or the last 40 of a 32-byte topic). */
export function tronAddressFromHex(hex: string): string {
  const id = hex.replace(/^0x/, '').slice(-40).padStart(40, '0');
  const payload = Buffer.concat([Buffer.from([TRON_PREFIX]), Buffer.from(id, 'hex')]);
  return base58Encode(Buffer.concat([payload, checksum(payload)]));
}
