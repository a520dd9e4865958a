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
export function withPasswordConfirm<
  T extends z.ZodObject<{ password: z.ZodType<string>; confirm_password: z.ZodType<string> }>,
>(schema: T) {
  return schema.refine((v: { password: string; confirm_password: string }) => v.password === v.confirm_password, {
    error: 'passwordMismatch',
    path: ['confirm_password'],
  });
}

// Canonical decimal integer: an optional minus, no leading zeros, no sign
// "+", exponent, hex, spaces or fraction; at most 15 digits (a safe integer).
const CANONICAL_INT = /^-?(0|[1-9]\d{0,14})$/;

/**
 * An integer from a query string, a path or a form field: canonical decimal
 * digits only ("06", "0x6", "6e0", " 6", "true" are refused with
 * `integerFormat`); the number is then checked by `rules`, which carry their
 * own messages (`formatMessage` replaces `integerFormat` where a field has
 * one message for every failure). A finite JS number is taken as is (the
 * console's typed calls).
 */
export function zDigits<T extends z.ZodType<number, number>>(rules: T, formatMessage = 'integerFormat') {
  const digits = z
    .custom<string | number>(
      (v) => (typeof v === 'string' && CANONICAL_INT.test(v)) || (typeof v === 'number' && Number.isFinite(v)),
      {
        error: formatMessage,
      },
    )
    .transform((v) => Number(v));
  DECIMAL_DIGITS_INPUTS.add(digits);
  return digits.pipe(rules);
}

/** The input side of every zDigits schema: the OpenAPI document describes them by their number rules. */
export const DECIMAL_DIGITS_INPUTS = new WeakSet<z.ZodType>();

/** A number of a JSON body: a JSON number only (no string, boolean or array is coerced). */
export function zJsonNumber(message: string = 'numberRequired') {
  return z.number({ error: message });
}

/** A date or instant of a query: ISO 8601 only (2026-01-31 or 2026-01-31T08:00:00Z). */
export const zQueryDate = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], { error: 'dateInvalid' })
  .transform((v) => new Date(v));

/** A positive integer id (path parameters and id fields of queries and forms). */
export const zId = zDigits(z.number().int({ error: 'invalidValue' }).positive({ error: 'invalidValue' }));
/** Path parameters of calls on one row: `/:id`. */
export const zIdParam = z.object({ id: zId });
