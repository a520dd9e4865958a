import {
  ALERT_KINDS,
  AUTO_RENEW_NOTICE_HOURS,
  BYTES_PER_GB,
  DEFAULT_ALERT_CHANNELS,
  DEFAULT_USAGE_THRESHOLDS,
  EXPIRY_REMINDER_DAYS,
  USAGE_THRESHOLDS,
  fenToYuan,
  interpolate,
  yuanToFen,
  type TAlertChannel,
  type TAlertKind,
  type TAlertSettings,
  type TLang,
} from '@proxy/contract';
import type { TTx } from '@proxy/db';
import type { TDeps } from '../../lib/deps';
import { renderAlertMail, renderAutoRenewNoticeMail } from '../mail/mail-templates';
import { findRenewalNoticeFor, insertRenewalNotice } from '../proxies/auto-renewals.repository';
import { renewalCancelUrl } from '../proxies/auto-renewals.service';
import { AUTO_RENEW_WINDOW_MS } from '../proxies/proxies-lifecycle.service';
import { NOTIFICATION_TEXTS } from '../notifications/notification-texts';
import { writeNotification } from '../notifications/notifications.service';
import {
  expiringPeriod,
  findAlertSettings,
  findNextAutoRenewNotice,
  findNextAutoRenewShortfall,
  findNextExpiredAlert,
  findNextExpiringAlert,
  findNextUsageAlert,
  insertAlertEvent,
  lockAlertSettings,
  lockNextBalanceChange,
  lockNextPendingMail,
  setBalancePeriod,
  setMailState,
  upsertAlertSettings,
  usagePeriod,
  type TAlertSettingsRow,
  type TAlertToken,
} from './alerts.repository';
import { emitAlertWebhook } from '../webhooks/webhooks.service';

type TAlertDeps = Pick<TDeps, 'db' | 'clock'>;
const HOUR_MS = 60 * 60 * 1000;

/** The channels of every kind, the stored ones over the defaults. */
function channelsOf(row: TAlertSettingsRow | undefined): TAlertSettings['channels'] {
  return Object.fromEntries(
    ALERT_KINDS.map((k) => [
      k,
      {
        console: row?.channels[k]?.console ?? DEFAULT_ALERT_CHANNELS[k].console,
        email: row?.channels[k]?.email ?? DEFAULT_ALERT_CHANNELS[k].email,
      },
    ]),
  ) as TAlertSettings['channels'];
}

/** Settings as the API shows them. */
function toSettings(row: TAlertSettingsRow | undefined): TAlertSettings {
  return {
    usage_thresholds: [...(row?.usageThresholds ?? DEFAULT_USAGE_THRESHOLDS)].sort((a, b) => a - b),
    balance_low_yuan: row?.balanceLowFen == null ? null : fenToYuan(row.balanceLowFen),
    channels: channelsOf(row),
  };
}

/** GET /user/alerts/settings. */
export async function getAlertSettings(deps: Pick<TDeps, 'db'>, userId: number): Promise<TAlertSettings> {
  return toSettings(await findAlertSettings(deps.db, userId));
}

/**
 * PUT /user/alerts/settings: saves them, with the request's language for the
 * e-mails. A changed balance threshold starts a new balance period (the next
 * fall below it alerts again).
 */
export async function saveAlertSettings(
  deps: TAlertDeps,
  userId: number,
  input: TAlertSettings,
  lang: TLang,
): Promise<TAlertSettings> {
  const balanceLowFen = input.balance_low_yuan === null ? null : yuanToFen(input.balance_low_yuan);
  const saved = await deps.db.transaction(async (tx) => {
    const before = await lockAlertSettings(tx, userId);
    const isNewThreshold = (before?.balanceLowFen ?? null) !== balanceLowFen;
    return upsertAlertSettings(tx, {
      userId,
      usageThresholds: [...new Set(input.usage_thresholds)].filter((n) =>
        (USAGE_THRESHOLDS as readonly number[]).includes(n),
      ),
      balanceLowFen,
      balanceLowPeriod: (before?.balanceLowPeriod ?? 0) + (isNewThreshold ? 1 : 0),
      isBalanceLowAlerted: isNewThreshold ? false : (before?.isBalanceLowAlerted ?? false),
      channels: input.channels,
      lang,
      updatedAt: deps.clock.now(),
    });
  });
  return toSettings(saved);
}

function isOn(settings: TAlertSettingsRow | undefined, kind: TAlertKind, channel: TAlertChannel): boolean {
  return channelsOf(settings)[kind][channel];
}

type TAlert = {
  userId: number;
  kind: TAlertKind;
  subjectType: 'proxy' | 'account';
  subjectId: number;
  period: string;
  /** The notification texts' parameters; also the record's payload (a later webhook's body). */
  payload: Record<string, string | number>;
};

/**
 * Writes an alert once (the unique key refuses a copy written by another
 * instance) and, in the same transaction, its console notification when that
 * channel is on; the e-mail is sent by the alert-mail job. Answers whether
 * this call wrote it.
 */
export async function raiseAlert(deps: TAlertDeps, alert: TAlert, outer?: TTx): Promise<boolean> {
  const write = async (tx: TTx) => {
    const settings = await findAlertSettings(tx, alert.userId);
    const event = await insertAlertEvent(tx, {
      ...alert,
      mailState: isOn(settings, alert.kind, 'email') ? 'pending' : 'none',
      createdAt: deps.clock.now(),
    });
    if (!event) return false;
    await emitAlertWebhook(tx, event);
    if (isOn(settings, alert.kind, 'console'))
      await writeNotification(deps, alert.userId, alert.kind, tx, alert.payload);
    return true;
  };
  return outer ? write(outer) : deps.db.transaction(write);
}

const gb = (bytes: number) => `${(bytes / BYTES_PER_GB).toFixed(2)} GB`;
const utc = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const yuan = (fen: number) => fenToYuan(fen).toFixed(2);

function proxyAlert(
  token: TAlertToken,
  kind: TAlertKind,
  period: string,
  payload: Record<string, string | number>,
): TAlert {
  return {
    userId: token.userId,
    kind,
    subjectType: 'proxy',
    subjectId: token.id,
    period,
    payload: { proxy: token.username, proxy_id: token.id, ...payload },
  };
}

/** One usage threshold crossed (of the thresholds 50, 80, 100 in order); answers whether there was one. */
export async function alertNextUsage(deps: TAlertDeps): Promise<boolean> {
  for (const percent of USAGE_THRESHOLDS) {
    const token = await findNextUsageAlert(deps.db, percent);
    if (!token || token.limitBytes === null) continue;
    await raiseAlert(
      deps,
      proxyAlert(token, 'usage_threshold', usagePeriod(token.limitBytes, percent), {
        percent,
        used: gb(token.usedBytes),
        limit: gb(token.limitBytes),
      }),
    );
    return true;
  }
  return false;
}

/** One expiry reminder (3 days, then 1 day before) or expired alert; answers whether there was one. */
export async function alertNextExpiry(deps: TAlertDeps): Promise<boolean> {
  const now = deps.clock.now();
  for (const [i, days] of EXPIRY_REMINDER_DAYS.entries()) {
    const token = await findNextExpiringAlert(deps.db, now, days, EXPIRY_REMINDER_DAYS[i + 1] ?? 0);
    if (!token) continue;
    await raiseAlert(
      deps,
      proxyAlert(token, 'proxy_expiring', expiringPeriod(token.expiresAt, days), {
        days,
        expires_at: utc(token.expiresAt),
      }),
    );
    return true;
  }
  const expired = await findNextExpiredAlert(deps.db, now);
  if (!expired) return false;
  await raiseAlert(
    deps,
    proxyAlert(expired, 'proxy_expired', String(expired.expiresAt.getTime()), { expires_at: utc(expired.expiresAt) }),
  );
  return true;
}

/** One auto-renewal due within the day that the balance cannot pay; answers whether there was one. */
export async function alertNextAutoRenewShortfall(deps: TAlertDeps): Promise<boolean> {
  const token = await findNextAutoRenewShortfall(deps.db, deps.clock.now());
  if (!token) return false;
  await raiseAlert(
    deps,
    proxyAlert(token, 'auto_renew_will_fail', String(token.expiresAt.getTime()), {
      expires_at: utc(token.expiresAt),
      price: yuan(token.periodPriceFen),
      due: yuan(token.dueFen),
      balance: yuan(token.availableFen),
    }),
  );
  return true;
}

/**
 * One auto-renewal notice: a day (AUTO_RENEW_NOTICE_HOURS) before the
 * auto-renew job charges a token, its owner is told what it will charge and
 * when, with a one-click cancel link (signed, single use, expiring at the
 * charge time). The notice row and the alert are written together, once per
 * token and expiry. Answers whether there was one.
 */
export async function alertNextAutoRenewNotice(deps: TAlertDeps & Pick<TDeps, 'config'>): Promise<boolean> {
  const now = deps.clock.now();
  const token = await findNextAutoRenewNotice(deps.db, now, AUTO_RENEW_WINDOW_MS, AUTO_RENEW_NOTICE_HOURS * HOUR_MS);
  if (!token) return false;
  const chargeAt = new Date(token.expiresAt.getTime() - AUTO_RENEW_WINDOW_MS);
  await deps.db.transaction(async (tx) => {
    const notice =
      (await insertRenewalNotice(tx, {
        userId: token.userId,
        tokenId: token.id,
        expiresAt: token.expiresAt,
        chargeAt,
        amountFen: token.periodPriceFen,
        createdAt: now,
      })) ??
      // Another instance wrote this period's notice first: its alert (the unique key) is written once all the same.
      (await findRenewalNoticeFor(tx, token.id, token.expiresAt));
    if (!notice) return;
    await raiseAlert(
      deps,
      proxyAlert(token, 'auto_renew_notice', String(token.expiresAt.getTime()), {
        amount: yuan(token.periodPriceFen),
        days: token.periodDays,
        charge_at: utc(chargeAt),
        expires_at: utc(token.expiresAt),
        cancel_url: renewalCancelUrl(deps, notice),
      }),
      tx,
    );
  });
  return true;
}

/**
 * One account whose balance alert changes state: below the threshold, the
 * period's alert is written; back at or above it, a new period starts.
 */
export async function alertNextBalance(deps: TAlertDeps): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const row = await lockNextBalanceChange(tx);
    if (!row || row.settings.balanceLowFen === null) return false;
    const { settings } = row;
    if (settings.isBalanceLowAlerted) {
      await setBalancePeriod(tx, settings.userId, {
        balanceLowPeriod: settings.balanceLowPeriod + 1,
        isBalanceLowAlerted: false,
      });
      return true;
    }
    const payload = { balance: yuan(row.availableFen), threshold: yuan(settings.balanceLowFen ?? 0) };
    const event = await insertAlertEvent(tx, {
      userId: settings.userId,
      kind: 'balance_low',
      subjectType: 'account',
      subjectId: settings.userId,
      period: String(settings.balanceLowPeriod),
      payload,
      mailState: isOn(settings, 'balance_low', 'email') ? 'pending' : 'none',
      createdAt: deps.clock.now(),
    });
    if (event) await emitAlertWebhook(tx, event);
    if (event && isOn(settings, 'balance_low', 'console'))
      await writeNotification(deps, settings.userId, 'balance_low', tx, payload);
    await setBalancePeriod(tx, settings.userId, { isBalanceLowAlerted: true });
    return true;
  });
}

/**
 * Sends the e-mail of one alert whose e-mail is pending, in the language the
 * user's settings were saved in; a failed send is logged and marked failed.
 */
export async function mailNextAlert(deps: Pick<TDeps, 'db' | 'clock' | 'mailer' | 'log' | 'config'>): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const row = await lockNextPendingMail(tx);
    if (!row) return false;
    const settings = await findAlertSettings(tx, row.event.userId);
    const lang: TLang = settings?.lang ?? 'zh';
    const text = NOTIFICATION_TEXTS[row.event.kind as TAlertKind][lang];
    const params = row.event.payload as Record<string, string | number>;
    const parts = {
      title: interpolate(text.title, params),
      content: interpolate(text.content, params),
      username: row.username,
      publicUrl: deps.config.publicUrl,
    };
    const cancelUrl = params.cancel_url;
    const mail =
      row.event.kind === 'auto_renew_notice' && typeof cancelUrl === 'string'
        ? renderAutoRenewNoticeMail(lang, { ...parts, cancelUrl })
        : renderAlertMail(lang, parts);
    try {
      await deps.mailer.send({ to: row.email, ...mail });
      await setMailState(tx, row.event.id, 'sent');
    } catch (error) {
      deps.log.error({ err: error, alert: row.event.id }, 'alert e-mail failed');
      await setMailState(tx, row.event.id, 'failed');
    }
    return true;
  });
}
