import { PRODUCT_NAME, TRIAL_CREDIT_FEN, fenToYuan, type TLang } from '@proxy/contract';

/** Title and content of a notification in both languages. */
export type TNotificationText = Record<TLang, { title: string; content: string }>;

const trialYuan = fenToYuan(TRIAL_CREDIT_FEN);

/** Texts of the notifications the system writes, by kind. */
export const NOTIFICATION_TEXTS = {
  /** Written when an account is created. */
  welcome: {
    zh: { title: `欢迎加入 ${PRODUCT_NAME}`, content: `您的账号已创建。首次登录即可获得 ${trialYuan} 元免费试用额度，可用于购买住宅或数据中心代理。` },
    en: {
      title: `Welcome to ${PRODUCT_NAME}`,
      content: `Your account is ready. Your first sign-in brings a free trial credit of ${trialYuan} yuan to spend on residential or data-center proxies.`,
    },
  },
  /** Written when the trial credit lands on the balance. */
  trial_credit: {
    zh: { title: '试用额度已到账', content: `${trialYuan} 元免费试用额度已存入您的余额。` },
    en: { title: 'Trial credit received', content: `A free trial credit of ${trialYuan} yuan has been added to your balance.` },
  },
  /** Written when the password is changed or reset. */
  password_changed: {
    zh: { title: '密码已修改', content: '您的账号密码已修改，其他设备上的登录已退出。如非本人操作，请立即重置密码。' },
    en: {
      title: 'Password changed',
      content: 'The password of your account was changed and other sessions were signed out. If this was not you, reset your password now.',
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
      content: 'Your balance was too low to auto-renew a proxy; it will expire at its expiry time. Top up and renew it by hand.',
    },
  },
  /** Written when a recharge is credited to the balance. */
  recharge_success: {
    zh: { title: '充值成功', content: '您的充值已到账，余额已更新。可在“充值”页的账单与交易明细中查看。' },
    en: { title: 'Top-up received', content: 'Your top-up has been credited to your balance. See the bills and transactions on the Top up page.' },
  },
} as const satisfies Record<string, TNotificationText>;

/** A kind of system notification. */
export type TNotificationKind = keyof typeof NOTIFICATION_TEXTS;
