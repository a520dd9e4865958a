import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDataKey } from '@proxy/db';
import { loadServerConfig } from './env';

const key = Buffer.alloc(32, 1);

describe('DATA_ENCRYPTION_KEY in the configuration', () => {
  const dataDir = () => mkdtempSync(path.join(tmpdir(), 'proxy-key-'));

  it('unset: a key is made in DATA_DIR on the first start and the same key is read on the next', () => {
    const dir = dataDir();
    const first = loadServerConfig({ DATA_DIR: dir }).dataEncryptionKey;
    expect(first).toHaveLength(32);
    expect(parseDataKey(readFileSync(path.join(dir, 'data-encryption-key'), 'utf8'))).toEqual(first);
    expect(loadServerConfig({ DATA_DIR: dir }).dataEncryptionKey).toEqual(first);
  });

  it('set: the setting wins; a malformed setting or key file stops the start with a message naming it', () => {
    expect(loadServerConfig({ DATA_DIR: dataDir(), DATA_ENCRYPTION_KEY: '01'.repeat(32) }).dataEncryptionKey).toEqual(
      key,
    );
    expect(() => loadServerConfig({ DATA_DIR: dataDir(), DATA_ENCRYPTION_KEY: 'short' })).toThrow(
      /DATA_ENCRYPTION_KEY: 32 bytes/,
    );
    const dir = dataDir();
    writeFileSync(path.join(dir, 'data-encryption-key'), 'garbage');
    expect(() => loadServerConfig({ DATA_DIR: dir })).toThrow(/data-encryption-key: not a 32-byte key/);
  });
});
