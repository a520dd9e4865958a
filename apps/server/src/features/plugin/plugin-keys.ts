import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The key that signs the plugin's grants, and its public half as the package carries it (base64 SPKI). */
export type TPluginSigningKey = { privateKey: KeyObject; publicKeyBase64: string };

const KEY_FILE = 'plugin-signing-key.pem';

/**
 * The grant signing key (Ed25519): PLUGIN_SIGNING_KEY (PEM text or a path to a
 * PEM file) when set, else DATA_DIR/plugin-signing-key.pem, created on first
 * use. Every API instance must share it (set it, or share DATA_DIR).
 */
export function loadPluginSigningKey(setting: string | undefined, dataDir: string): TPluginSigningKey {
  let pem: string;
  if (setting) {
    pem = setting.includes('-----BEGIN') ? setting.replace(/\\n/g, '\n') : readFileSync(setting, 'utf8');
  } else {
    const file = path.join(dataDir, KEY_FILE);
    if (existsSync(file)) pem = readFileSync(file, 'utf8');
    else {
      mkdirSync(dataDir, { recursive: true });
      pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      writeFileSync(file, pem, { mode: 0o600 });
    }
  }
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw new Error('PLUGIN_SIGNING_KEY: an Ed25519 private key (PEM) is required');
  const publicKeyBase64 = createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64');
  return { privateKey, publicKeyBase64 };
}
