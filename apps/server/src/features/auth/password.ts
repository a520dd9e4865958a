import { randomBytes } from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** argon2id cost parameters (memory in KiB, passes). */
export type TArgon2Params = { memoryKib: number; timeCost: number };

/** Production parameters (ARCHITECTURE.md, Security); tests may lower them through the environment. */
export const ARGON2_PRODUCTION: TArgon2Params = { memoryKib: 19456, timeCost: 2 };

// The enum is ambient (const enum), which isolatedModules cannot read: 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;

/** The parameters of a server configuration. */
export function argon2ParamsOf(config: { ARGON2_MEMORY_KIB: number; ARGON2_TIME_COST: number }): TArgon2Params {
  return { memoryKib: config.ARGON2_MEMORY_KIB, timeCost: config.ARGON2_TIME_COST };
}

/** Hashes a password with argon2id; the answer is the PHC string ($argon2id$v=19$m=...,t=...,p=1$...). */
export async function hashPassword(password: string, params: TArgon2Params): Promise<string> {
  return hash(password, {
    algorithm: ARGON2ID,
    memoryCost: params.memoryKib,
    timeCost: params.timeCost,
    parallelism: 1,
  });
}

/** True when the password matches the hash; false for a malformed hash rather than an error. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

const dummyHashes = new Map<string, Promise<string>>();

/**
 * Verifies against a throwaway hash of the same cost, so that signing in to an
 * unknown account takes about as long as a wrong password (no account enumeration).
 */
export async function verifyDummyPassword(password: string, params: TArgon2Params): Promise<false> {
  const key = `${params.memoryKib}:${params.timeCost}`;
  let dummy = dummyHashes.get(key);
  if (!dummy) {
    dummy = hashPassword(randomBytes(18).toString('base64url'), params);
    dummyHashes.set(key, dummy);
  }
  await verifyPassword(await dummy, password);
  return false;
}
