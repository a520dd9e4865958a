import { z } from 'zod';

/**
 * Field rules of spec section 5, shared by the console forms and the server.
 * Messages are keys of VALIDATION_MESSAGES.
 */

/** 6-digit verification code length (spec section 9). */
export const CODE_LENGTH = 6;
/** Username length bounds (spec section 5). */
export const USERNAME_MIN = 2;
export const USERNAME_MAX = 20;
/** Minimum password length (spec section 5). */
export const PASSWORD_MIN = 8;
/** Upper bound keeps hashing cheap for absurd input. */
export const PASSWORD_MAX = 128;

const trimmed = z.string({ error: 'required' }).trim();

/** E-mail address, trimmed and lower-cased. */
export const zEmail = trimmed
  .min(1, { error: 'required' })
  .max(254, { error: 'tooLong' })
  .pipe(z.email({ error: 'emailInvalid' }))
  .transform((v) => v.toLowerCase());

/** Username: 2-20 characters, no spaces, "@" or control characters (so it never looks like an e-mail). */
export const zUsername = trimmed
  .min(USERNAME_MIN, { error: 'usernameLength' })
  .max(USERNAME_MAX, { error: 'usernameLength' })
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\s@\u0000-\u001f\u007f]+$/u, { error: 'usernameChars' });

/** Password: at least 8 characters. */
export const zPassword = z
  .string({ error: 'required' })
  .min(PASSWORD_MIN, { error: 'passwordMin' })
  .max(PASSWORD_MAX, { error: 'passwordMax' });

/** Verification code: exactly 6 digits. */
export const zCode = trimmed.regex(/^\d{6}$/, { error: 'codeFormat' });

/** Invite code as printed on invite links. */
export const zInviteCode = trimmed.regex(/^[A-Za-z0-9]{4,32}$/, { error: 'inviteFormat' });

/** Form checkbox or flag: "true"/"1"/"on" are true. */
export const zFormBool = z
  .union([z.boolean(), z.string()])
  .optional()
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'on');

/** Adds the "two passwords are inconsistent" rule to a form with password and confirm_password. */
export function withPasswordConfirm<T extends z.ZodObject<{ password: z.ZodType<string>; confirm_password: z.ZodType<string> }>>(schema: T) {
  return schema.refine((v: { password: string; confirm_password: string }) => v.password === v.confirm_password, {
    error: 'passwordMismatch',
    path: ['confirm_password'],
  });
}

/** A positive integer id (path parameters and id fields). */
export const zId = z.coerce.number().int().positive();
/** Path parameters of calls on one row: `/:id`. */
export const zIdParam = z.object({ id: zId });
