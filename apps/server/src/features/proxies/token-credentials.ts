import { randomInt } from 'node:crypto';

const LOWER_DIGITS = 'abcdefghijklmnopqrstuvwxyz0123456789';
const LETTERS_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function pick(alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** Gateway username: 'u' + 11 lower-case letters or digits (never '-': the username option grammar uses it). */
export function generateProxyUsername(): string {
  return `u${pick(LOWER_DIGITS, 11)}`;
}

/** Gateway password: 16 letters or digits from the system's CSPRNG. */
export function generateProxyPassword(): string {
  return pick(LETTERS_DIGITS, 16);
}
