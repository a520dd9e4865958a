import { z } from 'zod';
import { defineRoute, type TRouteDef } from './route-def';

/**
 * Alerts (issue 20): what a user hears about before a proxy runs out or
 * expires, and about the account's balance. Each alert is one record with a
 * kind, a subject (a proxy or the account) and a payload, delivered on the
 * channels the user has on for its kind.
 */
export const ALERT_KINDS = [
  'usage_threshold',
  'proxy_expiring',
  'proxy_expired',
  'balance_low',
  'auto_renew_will_fail',
  'auto_renew_notice',
] as const;
/** A kind of alert. */
export type TAlertKind = (typeof ALERT_KINDS)[number];

/** The channels an alert is delivered on (webhooks come later). */
export const ALERT_CHANNELS = ['console', 'email'] as const;
/** A channel of alerts. */
export type TAlertChannel = (typeof ALERT_CHANNELS)[number];

/** Percentages of a traffic allowance that can alert. */
export const USAGE_THRESHOLDS = [50, 80, 100] as const;
/** The thresholds of an account that never changed them. */
export const DEFAULT_USAGE_THRESHOLDS: readonly number[] = [80, 100];
/** Hours before an auto-renewal charges that its notice (with the one-click cancel link) goes out. */
export const AUTO_RENEW_NOTICE_HOURS = 24;
/** Hours after an auto-renewal during which the user can undo it (when the proxy carried no traffic since). */
export const AUTO_RENEW_UNDO_HOURS = 24;
/** Days before expiry of the expiry reminders. */
export const EXPIRY_REMINDER_DAYS = [3, 1] as const;

/** Every channel of every kind is on until the user turns it off. */
export const DEFAULT_ALERT_CHANNELS: Record<TAlertKind, Record<TAlertChannel, boolean>> = Object.fromEntries(
  ALERT_KINDS.map((k) => [k, { console: true, email: true }]),
) as Record<TAlertKind, Record<TAlertChannel, boolean>>;

const zChannels = z.object({
  console: z.boolean({ error: 'booleanRequired' }),
  email: z.boolean({ error: 'booleanRequired' }),
});

/** A user's alert settings. */
export const ZAlertSettings = z.object({
  /** Which percentages of a traffic allowance alert (empty: none). */
  usage_thresholds: z
    .array(
      z
        .number({ error: 'alertThresholdsInvalid' })
        .refine((n) => (USAGE_THRESHOLDS as readonly number[]).includes(n), { error: 'alertThresholdsInvalid' }),
      { error: 'alertThresholdsInvalid' },
    )
    .max(USAGE_THRESHOLDS.length, { error: 'alertThresholdsInvalid' })
    .refine((list) => new Set(list).size === list.length, { error: 'alertThresholdsInvalid' }),
  /** Available balance in yuan under which the account alerts; null is off. */
  balance_low_yuan: z
    .number({ error: 'balanceLowRange' })
    .min(0.01, { error: 'balanceLowRange' })
    .max(1_000_000, { error: 'balanceLowRange' })
    .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, { error: 'balanceLowRange' })
    .nullable(),
  /** Channels on or off per alert kind. */
  channels: z.object(
    Object.fromEntries(ALERT_KINDS.map((k) => [k, zChannels])) as Record<TAlertKind, typeof zChannels>,
  ),
});
/** Parsed alert settings. */
export type TAlertSettings = z.infer<typeof ZAlertSettings>;

/** Alert settings in the user centre; e-mails go out in the language of the console that saved them. */
export const ALERT_ROUTES = {
  userAlertSettingsGet: defineRoute({
    method: 'GET',
    path: '/user/alerts/settings',
    auth: 'user',
    body: 'none',
    summary: 'Alert settings: traffic thresholds, balance threshold and the channels of each alert kind',
    tag: 'user',
    input: z.object({}),
    output: ZAlertSettings,
  }),
  userAlertSettingsPut: defineRoute({
    method: 'PUT',
    path: '/user/alerts/settings',
    auth: 'user',
    body: 'json',
    summary: 'Save the alert settings (alert e-mails then go out in the language of this request)',
    tag: 'user',
    input: ZAlertSettings,
    output: ZAlertSettings,
  }),
} as const satisfies Record<string, TRouteDef>;
