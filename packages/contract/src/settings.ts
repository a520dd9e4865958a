import { z } from 'zod';

/**
 * Field rules of environment settings, shared by every app's settings schema
 * (the API's config/env.ts, the gateway's settings.ts, the launcher's run modes).
 */

/** An on/off setting: "true" or "1" is on; unset, empty, "false" or "0" is off. */
export const zSettingFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** A text setting; unset or blank is undefined, otherwise trimmed. */
export const zSettingText = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));
