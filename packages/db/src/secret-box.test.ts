import { describe, expect, it } from 'vitest';
import { createSecretBox, isSealedValue, parseDataKey, SecretBoxError } from './secret-box';

const key = Buffer.alloc(32, 1);

describe('secret box (AES-256-GCM under DATA_ENCRYPTION_KEY)', () => {
  it('seals a secret so that the stored value is not the secret, and opens it again', () => {
    const box = createSecretBox(key);
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'user_totp.secret');
    expect(sealed).toMatch(/^enc:v1:[0-9a-f]{8}:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(isSealedValue(sealed)).toBe(true);
    expect(box.open(sealed, 'user_totp.secret')).toEqual({ plain: 'JBSWY3DPEHPK3PXP', isSealed: true });
    // A fresh IV each time.
    expect(box.seal('JBSWY3DPEHPK3PXP', 'user_totp.secret')).not.toBe(sealed);
  });

  it('answers a value stored before encryption as it is, marked not sealed', () => {
    expect(createSecretBox(key).open('whsec_abc', 'webhook_endpoints.secret')).toEqual({
      plain: 'whsec_abc',
      isSealed: false,
    });
  });

  it('refuses another key by name, a value of another column and a damaged value', () => {
    const sealed = createSecretBox(key).seal('s3cret', 'user_totp.secret');
    const other = createSecretBox(Buffer.alloc(32, 2));
    expect(() => other.open(sealed, 'user_totp.secret')).toThrow(SecretBoxError);
    expect(() => other.open(sealed, 'user_totp.secret')).toThrow(/another DATA_ENCRYPTION_KEY/);
    expect(() => createSecretBox(key).open(sealed, 'webhook_endpoints.secret')).toThrow(/does not open/);
    // A character inside the text carries six whole bits (the last one's may be padding bits a decoder ignores).
    const at = sealed.length - 10;
    const flipped = sealed.slice(0, at) + (sealed[at] === 'A' ? 'B' : 'A') + sealed.slice(at + 1);
    expect(() => createSecretBox(key).open(flipped, 'user_totp.secret')).toThrow(SecretBoxError);
  });

  it('reads DATA_ENCRYPTION_KEY as 64 hex digits or base64 of 32 bytes, nothing else', () => {
    expect(parseDataKey('01'.repeat(32))).toEqual(key);
    expect(parseDataKey(key.toString('base64'))).toEqual(key);
    expect(parseDataKey(key.toString('base64url'))).toEqual(key);
    expect(parseDataKey('too-short')).toBeNull();
    expect(parseDataKey(Buffer.alloc(16).toString('base64'))).toBeNull();
  });
});
