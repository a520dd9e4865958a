import { EXIT_PASSWORD_PURPOSE, secretBoxOf } from '@proxy/db';
import type { TDeps } from '../../lib/deps';
import { listPlainExitPasswords, replaceExitPassword } from './inventory.repository';

/**
 * Upstream exit passwords at rest (docs/security.md, "Secrets at rest"): sealed with the secret box when the
 * import or an operator's edit writes them, opened only to dial (the probe here, the gateway when it loads its
 * exits). No answer, audit entry or log line carries one.
 */

type TKeyDeps = Pick<TDeps, 'config'>;

/** A password as stored: sealed; null and '' (no password) as they are. */
export function sealExitPassword(deps: TKeyDeps, password: string | null): string | null {
  if (password === null || password === '') return password;
  return secretBoxOf(deps.config).seal(password, EXIT_PASSWORD_PURPOSE);
}

/** The password to dial with (a plain value stored before sealing is answered as it is). Throws SecretBoxError on a wrong key. */
export function openExitPassword(deps: TKeyDeps, stored: string | null): string | null {
  if (stored === null || stored === '') return stored;
  return secretBoxOf(deps.config).open(stored, EXIT_PASSWORD_PURPOSE).plain;
}

/**
 * The start-up pass: seals the passwords imported before they were sealed. A pass of the API rather than a
 * migration because the key is the API's setting (DATA_ENCRYPTION_KEY, or its file in DATA_DIR), which SQL
 * migrations never see. Each row is replaced only while it still holds the plain value, so API instances
 * starting together, or an edit meanwhile, never overwrite each other. The gateway opens either form, so it
 * needs no reload. Answers the rows sealed.
 */
export async function sealPlainExitPasswords(deps: Pick<TDeps, 'db' | 'config'>): Promise<number> {
  let sealed = 0;
  for (const row of await listPlainExitPasswords(deps.db)) {
    if (await replaceExitPassword(deps.db, row.id, row.password, sealExitPassword(deps, row.password)!)) sealed += 1;
  }
  return sealed;
}
