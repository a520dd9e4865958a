import { seedChargeOptions } from './payments/payments-charge.service';
import { randomInt } from 'node:crypto';
import { isAppError } from '../lib/app-error';
import type { TDeps } from '../lib/deps';
import { hasAdminUser } from './auth/auth.repository';
import { createAccount } from './auth/auth.service';
import { argon2ParamsOf, hashPassword } from './auth/password';
import { uniqueViolationOf } from '../lib/database-errors';
import { seedPriceCatalogue } from './pricing/pricing.service';
import { seedDirectNodes } from './inventory/inventory.service';
import { sealPlainExitPasswords } from './inventory/inventory-secrets';

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
/** Length of the operator's one-time password. */
export const OPERATOR_PASSWORD_LENGTH = 16;

function generateOneTimePassword(): string {
  let password = '';
  for (let i = 0; i < OPERATOR_PASSWORD_LENGTH; i += 1)
    password += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return password;
}

/**
 * On a fresh install (no operator yet) creates the operator account
 * (OPERATOR_EMAIL, username "admin") with a one-time password and prints its
 * e-mail, password and invite code once. Later starts find the operator and
 * print nothing; the password exists nowhere else.
 */
export async function seedOperator(deps: TDeps): Promise<boolean> {
  if (await hasAdminUser(deps.db)) return false;
  const password = generateOneTimePassword();
  const passwordHash = await hashPassword(password, argon2ParamsOf(deps.config));
  try {
    const operator = await createAccount(deps, {
      email: deps.config.OPERATOR_EMAIL,
      username: 'admin',
      passwordHash,
      isAdmin: true,
      passwordChangeRequired: true,
    });
    deps.log.warn(
      `operator account created (shown once; the first sign-in asks for a new password): e-mail ${operator.email}, password ${password}, invite code ${operator.inviteCode}`,
    );
    return true;
  } catch (error) {
    // Another API instance starting at the same moment created it first.
    if (
      isAppError(error, 'EMAIL_TAKEN') ||
      isAppError(error, 'USERNAME_TAKEN') ||
      uniqueViolationOf(error) !== undefined
    ) {
      deps.log.warn({ err: error }, 'operator account not created: the e-mail or username "admin" is already used');
      return false;
    }
    throw error;
  }
}

/** Tasks run once at start-up, after migrations (for example the operator account on a fresh install). */
export async function runStartupTasks(deps: TDeps): Promise<void> {
  await seedOperator(deps);
  await seedPriceCatalogue(deps);
  await seedDirectNodes(deps);
  const sealed = await sealPlainExitPasswords(deps);
  if (sealed > 0) deps.log.info(`sealed the passwords of ${sealed} upstream exits stored before they were encrypted`);
  await seedChargeOptions(deps);
}
