import { PRODUCT_NAME, TRIAL_CREDIT_FEN, fenToYuan, type TLang } from '@proxy/contract';

/** Title and content of a notification in both languages. */
export type TNotificationText = Record<TLang, { title: string; content: string }>;

const trialYuan = fenToYuan(TRIAL_CREDIT_FEN);

/** Texts of the notifications the system writes, by kind. */
export const NOTIFICATION_TEXTS = {
  /** Written when an account is created. */
  welcome: {
    zh: {
      title: `欢迎加入 ${PRODUCT_NAME}`,
      content: `您的账号已创建。首次登录即可获得 ${trialYuan} 元免费试用额度，可用于购买住宅或数据中心代理。`,
    },
    en: {
      title: `Welcome to ${PRODUCT_NAME}`,
      content: `Your account is ready. Your first sign-in brings a free trial credit of ${trialYuan} yuan to spend on residential or data-center proxies.`,
    },
  },
  /** Written when the trial credit lands on the balance. */
  trial_credit: {
    zh: { title: '试用额度已到账', content: `${trialYuan} 元免费试用额度已存入您的余额。` },
    en: {
      title: 'Trial credit received',
      content: `A free trial credit of ${trialYuan} yuan has been added to your balance.`,
    },
  },
  /** Written when the password is changed or reset. */
  password_changed: {
    zh: { title: '密码已修改', content: '您的账号密码已修改，其他设备上的登录已退出。如非本人操作，请立即重置密码。' },
    en: {
      title: 'Password changed',
      content:
        'The password of your account was changed and other sessions were signed out. If this was not you, reset your password now.',
    },
  },
  /** Written when the e-mail address is changed. */
  email_changed: {
    zh: { title: '邮箱已修改', content: '您的登录邮箱已更新。' },
    en: { title: 'E-mail changed', content: 'The e-mail address of your account was updated.' },
  },
  /** Written when an auto-renewal could not be paid: the proxy expires at its expiry time. */
  auto_renew_failed: {
    zh: { title: '自动续费失败', content: '余额不足，代理自动续费失败，将在到期时失效。请充值后手动续费。' },
    en: {
      title: 'Auto-renewal failed',
      content:
        'Your balance was too low to auto-renew a proxy; it will expire at its expiry time. Top up and renew it by hand.',
    },
  },
  /** Written when an auto-renewal was charged ({proxy}, {amount} in yuan, times in UTC): it can be undone within a day if unused. */
  auto_renewed: {
    zh: {
      title: '代理已自动续费',
      content:
        '代理 {proxy} 已自动续费，扣费 {amount} 元，新的到期时间为 {expires_at}。如非所需且续费后未产生流量，可在 {undo_until} 前于代理详情中撤销本次续费并退款。',
    },
    en: {
      title: 'Proxy auto-renewed',
      content:
        'Proxy {proxy} was auto-renewed for {amount} yuan; it now expires at {expires_at}. If you did not want it and the proxy carried no traffic since, undo the renewal for a refund in the proxy details before {undo_until}.',
    },
  },
  /** Written when an invitee's top-up earned the inviter a rebate, once it is paid. */
  rebate_paid: {
    zh: {
      title: '邀请返利已到账',
      content: '您邀请的用户充值成功，返利已存入您的余额。可在“邀请返利”页的返利记录中查看。',
    },
    en: {
      title: 'Invite rebate received',
      content:
        'A user you invited topped up and your rebate has been added to your balance. See the rebate records on the Invite page.',
    },
  },
  /** Written when a recharge is credited to the balance. */
  recharge_success: {
    zh: { title: '充值成功', content: '您的充值已到账，余额已更新。可在“充值”页的账单与交易明细中查看。' },
    en: {
      title: 'Top-up received',
      content: 'Your top-up has been credited to your balance. See the bills and transactions on the Top up page.',
    },
  },
  /** Supply requests ({id}, {cost} in yuan, {reason}): one per transition. */
  supply_pending: {
    zh: { title: '补货申请已提交', content: '补货申请 #{id} 已提交，费用 {cost} 元已冻结，补货成功后才会扣除。' },
    en: {
      title: 'Supply request submitted',
      content:
        'Supply request #{id} was submitted; its fee of {cost} yuan is frozen and only spent when the restock succeeds.',
    },
  },
  supply_processing: {
    zh: { title: '补货申请处理中', content: '补货申请 #{id} 已由运营人员接单，正在补货。' },
    en: {
      title: 'Supply request in progress',
      content: 'An operator has taken supply request #{id} and is restocking.',
    },
  },
  supply_success: {
    zh: { title: '补货成功', content: '补货申请 #{id} 已完成，冻结的 {cost} 元已扣除，代理已分配到您的代理列表。' },
    en: {
      title: 'Restock completed',
      content:
        'Supply request #{id} is complete: the frozen {cost} yuan was spent and the proxies are in your proxy lists.',
    },
  },
  supply_failed: {
    zh: { title: '补货失败', content: '补货申请 #{id} 未能完成（{reason}），冻结的 {cost} 元已退回可用余额。' },
    en: {
      title: 'Restock failed',
      content:
        'Supply request #{id} could not be completed ({reason}); the frozen {cost} yuan is back in your available balance.',
    },
  },
  supply_cancelled: {
    zh: { title: '补货申请已撤销', content: '补货申请 #{id} 已撤销，冻结的 {cost} 元已退回可用余额。' },
    en: {
      title: 'Supply request revoked',
      content: 'Supply request #{id} was revoked; the frozen {cost} yuan is back in your available balance.',
    },
  },
  supply_refunded: {
    zh: { title: '补货超时已退款', content: '补货申请 #{id} 在等待期内未能完成，冻结的 {cost} 元已退回可用余额。' },
    en: {
      title: 'Supply request refunded',
      content:
        'Supply request #{id} was not completed within its wait days; the frozen {cost} yuan is back in your available balance.',
    },
  },
  /** Written when an operator replies in one of the customer's work orders. */
  work_order_reply: {
    zh: { title: '工单有新回复', content: '客服已回复您的工单，请在“工单”页查看。' },
    en: {
      title: 'Your work order has a reply',
      content: 'Support replied to your work order. Open Work orders to read it.',
    },
  },
  /** Alerts (features/alerts): {proxy} is the proxy's username, amounts in yuan, times in UTC. */
  usage_threshold: {
    zh: {
      title: '代理流量已用 {percent}%',
      content: '代理 {proxy} 已使用 {used} / {limit} 流量（{percent}%）。用完后代理将停止工作，请及时购买流量。',
    },
    en: {
      title: 'Proxy traffic {percent}% used',
      content:
        'Proxy {proxy} has used {used} of {limit} of traffic ({percent}%). It stops working when the allowance is used up; buy more traffic in time.',
    },
  },
  proxy_expiring: {
    zh: {
      title: '代理将在 {days} 天后到期',
      content: '代理 {proxy} 将于 {expires_at} 到期，到期后将停止工作。如需继续使用，请及时续费。',
    },
    en: {
      title: 'Proxy expires soon: {days} day(s) left',
      content: 'Proxy {proxy} expires at {expires_at} and then stops working. Renew it in time to keep using it.',
    },
  },
  proxy_expired: {
    zh: { title: '代理已到期', content: '代理 {proxy} 已于 {expires_at} 到期并停止工作。' },
    en: { title: 'Proxy expired', content: 'Proxy {proxy} expired at {expires_at} and stopped working.' },
  },
  balance_low: {
    zh: {
      title: '余额不足提醒',
      content: '您的可用余额为 {balance} 元，低于您设置的提醒阈值 {threshold} 元。请及时充值，以免续费失败。',
    },
    en: {
      title: 'Low balance',
      content:
        'Your available balance is {balance} yuan, below the alert threshold of {threshold} yuan you set. Top up in time so renewals do not fail.',
    },
  },
  auto_renew_will_fail: {
    zh: {
      title: '自动续费将因余额不足而失败',
      content:
        '代理 {proxy} 将于 {expires_at} 自动续费，需 {price} 元（一天内到期的自动续费共需 {due} 元），当前可用余额 {balance} 元不足。请在到期前充值。',
    },
    en: {
      title: 'An auto-renewal will fail for lack of balance',
      content:
        'Proxy {proxy} auto-renews at {expires_at} for {price} yuan ({due} yuan for every auto-renewal due within a day), but your available balance is {balance} yuan. Top up before then.',
    },
  },
  /** A webhook endpoint was turned off after 3 days of failed deliveries. */
  webhook_disabled: {
    zh: {
      title: 'Webhook 地址已停用',
      content: 'Webhook 地址 {url} 连续 3 天投递失败，已自动停用。请检查接收端后在 Webhooks 页面重新启用。',
    },
    en: {
      title: 'Webhook endpoint turned off',
      content:
        'Deliveries to the webhook endpoint {url} failed for 3 days, so it was turned off. Check the receiver, then turn it on again on the Webhooks page.',
    },
  },
  auto_renew_notice: {
    zh: {
      title: '代理即将自动续费',
      content:
        '代理 {proxy} 将于 {charge_at} 左右自动续费 {days} 天，扣费 {amount} 元（当前到期时间 {expires_at}）。如不需要续费，请在此之前关闭自动续费，或打开一键取消链接（无需登录，仅可使用一次）：{cancel_url}',
    },
    en: {
      title: 'A proxy auto-renews soon',
      content:
        'Proxy {proxy} auto-renews for {days} day(s) at about {charge_at}, charging {amount} yuan (it expires at {expires_at}). If you do not want this renewal, turn auto-renew off before then, or open the one-click cancel link (no sign-in, works once): {cancel_url}',
    },
  },
  /** An operator's own message: the texts come as parameters. */
  operator_message: {
    zh: { title: '{title_zh}', content: '{content_zh}' },
    en: { title: '{title_en}', content: '{content_en}' },
  },
} as const satisfies Record<string, TNotificationText>;

/** A kind of system notification. */
export type TNotificationKind = keyof typeof NOTIFICATION_TEXTS;
