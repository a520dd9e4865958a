import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (two-factor TOTP secrets, webhook signing secrets, the
 * passwords of upstream exits and pools): AES-256-GCM under DATA_ENCRYPTION_KEY.
 * Here, in the db package, because the API seals and opens them and the
 * gateway opens the upstream passwords it dials with. A sealed value is
 * `enc:v1:<key id>:<base64url of iv (12) | ciphertext | tag (16)>`; the key id
 * (8 hex digits of a hash of the key, never the key) tells a value sealed under
 * another key apart from a damaged one, so a wrong key fails with a message
 * naming the setting. The column's purpose (e.g. `user_totp.secret`) is the
 * additional authenticated data: a value copied into another column does not
 * open. A stored value without the prefix is a secret written before
 * encryption: `open` answers it as it is (isSealed false) and the caller
 * seals it again.
 */

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Bytes of a DATA_ENCRYPTION_KEY. */
export const DATA_KEY_BYTES = 32;

/** A sealed value that this key cannot open: another key, or damaged. */
export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

/** Seals and opens secrets under one key. */
export type TSecretBox = {
  /** 8 hex digits naming the key (not secret). */
  keyId: string;
  seal(plain: string, purpose: string): string;
  /** The secret; isSealed false for a value stored before encryption (seal it again). Throws SecretBoxError when this key cannot open it. */
  open(stored: string, purpose: string): { plain: string; isSealed: boolean };
};

/** The key of DATA_ENCRYPTION_KEY's text: 32 bytes as 64 hex digits or as base64/base64url; null when it is not. */
export function parseDataKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(trimmed)) return null;
  const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return key.length === DATA_KEY_BYTES ? key : null;
}

/** A new random key as DATA_ENCRYPTION_KEY text (base64url). */
export function newDataKeyText(): string {
  return randomBytes(DATA_KEY_BYTES).toString('base64url');
}

/** Whether a stored value is sealed (else it is a secret stored before encryption). */
export function isSealedValue(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

function keyIdOf(key: Buffer): string {
  return createHash('sha256').update('proxy-console data key id\0').update(key).digest('hex').slice(0, 8);
}

/** A box over `key` (32 bytes). */
export function createSecretBox(key: Buffer): TSecretBox {
  if (key.length !== DATA_KEY_BYTES)
    throw new Error(`DATA_ENCRYPTION_KEY: ${DATA_KEY_BYTES} bytes expected, got ${key.length}`);
  const keyId = keyIdOf(key);
  return {
    keyId,
    seal(plain, purpose) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(purpose, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${PREFIX}${keyId}:${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
    },
    open(stored, purpose) {
      if (!isSealedValue(stored)) return { plain: stored, isSealed: false };
      const [id, data] = stored.slice(PREFIX.length).split(':');
      if (id !== keyId) {
        throw new SecretBoxError(
          `${purpose} was encrypted under another DATA_ENCRYPTION_KEY (key id ${id}; this server's key id is ${keyId}): set the key it was written with`,
        );
      }
      const raw = Buffer.from(data ?? '', 'base64url');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError(`${purpose}: the encrypted value is damaged`);
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(purpose, 'utf8'));
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        const plain = Buffer.concat([
          decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
        return { plain, isSealed: true };
      } catch {
        throw new SecretBoxError(
          `${purpose}: the encrypted value does not open under DATA_ENCRYPTION_KEY (damaged, or not written for this column)`,
        );
      }
    },
  };
}

const boxes = new WeakMap<Buffer, TSecretBox>();

/** The box of a configured key (made once per key). */
export function secretBoxOf(config: { dataEncryptionKey: Buffer }): TSecretBox {
  let box = boxes.get(config.dataEncryptionKey);
  if (!box) {
    box = createSecretBox(config.dataEncryptionKey);
    boxes.set(config.dataEncryptionKey, box);
  }
  return box;
}
