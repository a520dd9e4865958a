import { z } from 'zod';
import { SESSTIME_MAX_MINUTES } from './proxy-username';
import { zDigits, zJsonNumber } from './validators';

/**
 * The options of generated endpoint lines that both the endpoint generator
 * (endpoint-generator.ts) and the customer API (customer-api.ts) take: area
 * codes and sticky minutes. Internal to the contract: index.ts does not
 * re-export this file, so `@proxy/contract` exports none of these.
 */

/** A state or city code option: letters, digits and underscores, lower-cased; empty or absent for any. */
export const zAreaOption = z
  .string()
  .trim()
  .toLowerCase()
  .max(64, { error: 'tooLong' })
  .regex(/^[a-z0-9_]*$/, { error: 'invalidValue' })
  .optional();
/** A country code option: two letters, lower-cased; empty or absent for any. */
export const zCountryOption = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^([a-z]{2})?$/, { error: 'invalidValue' })
  .optional();
const sesstimeRule = zJsonNumber('sesstimeRange')
  .int({ error: 'sesstimeRange' })
  .min(1, { error: 'sesstimeRange' })
  .max(SESSTIME_MAX_MINUTES, { error: 'sesstimeRange' });
// The endpoint generator's body takes a JSON number; the customer API's query, decimal digits.
export const zSesstime = sesstimeRule.optional();
export const zSesstimeQuery = zDigits(sesstimeRule).optional();
