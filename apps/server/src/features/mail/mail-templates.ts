import { PRODUCT_NAME, type TCodePurpose, type TLang } from '@proxy/contract';
import type { TMail } from '../../lib/mailer';

/** A rendered e-mail without its recipient. */
export type TMailContent = Omit<TMail, 'to'>;

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** Plain paragraphs become both the text and the HTML body, so the two never drift apart. */
export function compose(subject: string, paragraphs: string[], link?: { href: string; label: string }): TMailContent {
  const textLines = [...paragraphs];
  if (link) textLines.splice(1, 0, `${link.label}: ${link.href}`);
  const htmlParts = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`);
  if (link) htmlParts.splice(1, 0, `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`);
  return {
    subject,
    text: `${textLines.join('\n\n')}\n\n— ${PRODUCT_NAME}\n`,
    html: `<!doctype html><html><body style="font-family:sans-serif;line-height:1.6">${htmlParts.join('')}<p>— ${PRODUCT_NAME}</p></body></html>`,
  };
}

const PURPOSE_TEXT: Record<TCodePurpose, Record<TLang, string>> = {
  register: { zh: '注册账号', en: 'create your account' },
  reset: { zh: '重置密码', en: 'reset your password' },
  change_email: { zh: '更换邮箱', en: 'change your e-mail address' },
};

/** The e-mail carrying a 6-digit verification code. */
export function renderCodeMail(
  lang: TLang,
  options: { code: string; purpose: TCodePurpose; minutes: number },
): TMailContent {
  const purpose = PURPOSE_TEXT[options.purpose][lang];
  if (lang === 'zh') {
    return compose(`${PRODUCT_NAME} 验证码：${options.code}`, [
      `您正在${purpose}，验证码为：${options.code}`,
      `验证码 ${options.minutes} 分钟内有效，仅可使用一次。请勿将验证码告诉他人。`,
      '如果这不是您本人的操作，请忽略此邮件。',
    ]);
  }
  return compose(`${PRODUCT_NAME} verification code: ${options.code}`, [
    `Your code to ${purpose} is: ${options.code}`,
    `It is valid for ${options.minutes} minutes and can be used once. Never share it with anyone.`,
    'If you did not ask for it, you can ignore this e-mail.',
  ]);
}

/**
 * Sent instead of a registration code when the address already has an
 * account (the answer of /user/code stays the same, so nobody learns that):
 * names the account, links sign-in and password reset, and carries a code
 * with which the registration form signs the owner in when the password
 * given there is the account's (spec section 4).
 */
export function renderAccountExistsMail(
  lang: TLang,
  options: { code: string; minutes: number; username: string; publicUrl: string },
): TMailContent {
  const base = options.publicUrl.replace(/\/$/, '');
  if (lang === 'zh') {
    return compose(
      `${PRODUCT_NAME} 账号已存在`,
      [
        `有人（可能是您）正在使用此邮箱注册 ${PRODUCT_NAME}，但该邮箱已有账号（用户名：${options.username}），无需再次注册。`,
        `请直接登录：${base}/login 。忘记密码可在此重置：${base}/reset-password 。`,
        `如果您正在注册页面，也可以填写验证码 ${options.code} 和该账号的密码，即可直接登录（${options.minutes} 分钟内有效，仅可使用一次）。`,
        '如果这不是您本人的操作，请忽略此邮件，您的账号不会有任何变化。',
      ],
      { href: `${base}/login`, label: '立即登录' },
    );
  }
  return compose(
    `${PRODUCT_NAME}: you already have an account`,
    [
      `Someone (probably you) tried to register at ${PRODUCT_NAME} with this e-mail address, but it already has an account (username: ${options.username}), so there is nothing to register.`,
      `Sign in at ${base}/login. If you forgot your password, reset it at ${base}/reset-password.`,
      `If you are on the registration page, you can also enter the code ${options.code} with the account's password there to sign in (valid for ${options.minutes} minutes, usable once).`,
      'If this was not you, ignore this e-mail: nothing changes on your account.',
    ],
    { href: `${base}/login`, label: 'Sign in now' },
  );
}

/** Welcome e-mail after registration, with a sign-in link (the specification's activation link). */
export function renderWelcomeMail(lang: TLang, options: { username: string; publicUrl: string }): TMailContent {
  const href = `${options.publicUrl.replace(/\/$/, '')}/login`;
  if (lang === 'zh') {
    return compose(
      `欢迎加入 ${PRODUCT_NAME}`,
      [`${options.username}，您好！您的账号已创建并激活。`, '新用户首次登录即可获得 15 元免费试用额度。'],
      {
        href,
        label: '立即登录',
      },
    );
  }
  return compose(
    `Welcome to ${PRODUCT_NAME}`,
    [
      `Hello ${options.username}, your account is ready and active.`,
      'New users receive a free trial credit of 15 yuan on their first sign-in.',
    ],
    { href, label: 'Sign in now' },
  );
}

/** Notice that the account's password was changed or reset. */
export function renderPasswordChangedMail(lang: TLang, options: { username: string; publicUrl: string }): TMailContent {
  const href = `${options.publicUrl.replace(/\/$/, '')}/reset-password`;
  if (lang === 'zh') {
    return compose(
      `${PRODUCT_NAME} 密码已修改`,
      [
        `${options.username}，您好！您的账号密码刚刚已被修改，其他设备上的登录已全部退出。`,
        '如果这不是您本人的操作，请立即重置密码。',
      ],
      { href, label: '重置密码' },
    );
  }
  return compose(
    `${PRODUCT_NAME}: your password was changed`,
    [
      `Hello ${options.username}, the password of your account was just changed and every other session was signed out.`,
      'If this was not you, reset your password now.',
    ],
    { href, label: 'Reset password' },
  );
}

/**
 * One alert per burst of failed sign-ins of an account from elsewhere, in both
 * languages (the request that triggered it is someone else's): the password
 * was not accepted; sign-ins now bring an extra check; a sign-in link or a
 * password reset is always open to the owner.
 */
export function renderSignInAlertMail(options: {
  username: string;
  failures: number;
  publicUrl: string;
}): TMailContent {
  const base = options.publicUrl.replace(/\/$/, '');
  return compose(
    `${PRODUCT_NAME} 登录失败提醒 / Failed sign-ins to your account`,
    [
      `${options.username}，您好！刚才有 ${options.failures} 次使用错误密码登录您账号的尝试，均未成功。在一段时间内，新的登录需要浏览器先完成一次额外校验（自动进行，几秒钟），您的正确密码仍可登录。`,
      `如果不是您本人，建议修改为更强的密码：${base}/reset-password 。无法登录时，可在登录页选择“通过邮件发送登录链接”。`,
      `Hello ${options.username}, there were ${options.failures} attempts to sign in to your account with a wrong password; none succeeded. For a while, new sign-ins need the browser to pass an extra check first (automatic, a few seconds); your right password still signs you in.`,
      `If this was not you, consider a stronger password: ${base}/reset-password. If you cannot sign in, choose "E-mail me a sign-in link" on the sign-in page.`,
    ],
    { href: `${base}/login`, label: '登录 / Sign in' },
  );
}

/** A one-time sign-in link the owner asked for on the sign-in page. */
export function renderSignInLinkMail(
  lang: TLang,
  options: { username: string; href: string; minutes: number },
): TMailContent {
  if (lang === 'zh') {
    return compose(
      `${PRODUCT_NAME} 登录链接`,
      [
        `${options.username}，您好！点击下面的链接即可登录，无需密码（若已开启两步验证仍需输入验证码）。`,
        `链接 ${options.minutes} 分钟内有效，仅可使用一次。请勿转发给他人。`,
        '如果这不是您本人的操作，请忽略此邮件，您的账号不会有任何变化。',
      ],
      { href: options.href, label: '登录' },
    );
  }
  return compose(
    `${PRODUCT_NAME}: your sign-in link`,
    [
      `Hello ${options.username}, open the link below to sign in without your password (two-factor, when on, still asks for its code).`,
      `It is valid for ${options.minutes} minutes and works once. Never forward it.`,
      'If you did not ask for it, ignore this e-mail: nothing changes on your account.',
    ],
    { href: options.href, label: 'Sign in' },
  );
}

/** Notice of a credited recharge, in both languages (it is sent by a notification, outside any request). */
export function renderRechargeMail(options: {
  username: string;
  orderId: string;
  amount: string;
  value: string;
  balance: string;
  publicUrl: string;
}): TMailContent {
  const href = `${options.publicUrl.replace(/\/$/, '')}/charge`;
  return compose(
    `${PRODUCT_NAME}: 充值成功 / Top-up received`,
    [
      `${options.username}，您好！订单 ${options.orderId} 充值 ${options.amount} 已到账，余额增加 ${options.value}，当前余额 ${options.balance}。充值不可退款。`,
      `Hello ${options.username}, the top-up of ${options.amount} (order ${options.orderId}) has been credited: your balance grew by ${options.value} and is now ${options.balance}. Top-ups are non-refundable.`,
    ],
    { href, label: '查看账单 / View bills' },
  );
}

/** Notice of an operator's reply in a work order, in both languages (sent from the operator's request). */
export function renderWorkOrderReplyMail(options: {
  username: string;
  workOrderId: number;
  subject: string;
  reply: string;
  publicUrl: string;
}): TMailContent {
  const href = `${options.publicUrl.replace(/\/$/, '')}/work-orders/${options.workOrderId}`;
  return compose(
    `${PRODUCT_NAME}: 工单 #${options.workOrderId} 有新回复 / New reply in work order #${options.workOrderId}`,
    [
      `${options.username}，您好！客服回复了您的工单 #${options.workOrderId}「${options.subject}」：`,
      options.reply,
      `Hello ${options.username}, support replied to your work order #${options.workOrderId} "${options.subject}" (above).`,
    ],
    { href, label: '查看工单 / Open the work order' },
  );
}

/** An alert's e-mail (features/alerts): its notification text in the user's language, with a link to the alert settings. */
export function renderAlertMail(
  lang: TLang,
  options: { title: string; content: string; username: string; publicUrl: string },
): TMailContent {
  const href = `${options.publicUrl.replace(/\/$/, '')}/user-center`;
  if (lang === 'zh') {
    return compose(
      `${PRODUCT_NAME} 提醒：${options.title}`,
      [`${options.username}，您好！${options.content}`, '可在“用户中心”的提醒设置中调整提醒阈值及各类提醒的通知方式。'],
      { href, label: '提醒设置' },
    );
  }
  return compose(
    `${PRODUCT_NAME} alert: ${options.title}`,
    [
      `Hello ${options.username}, ${options.content}`,
      'Change the thresholds and the channels of each alert in the alert settings of the user centre.',
    ],
    { href, label: 'Alert settings' },
  );
}

/** The auto-renewal notice's e-mail: its text and the one-click cancel link (no sign-in, works once, until the charge time). */
export function renderAutoRenewNoticeMail(
  lang: TLang,
  options: { title: string; content: string; username: string; publicUrl: string; cancelUrl: string },
): TMailContent {
  const settings = `${options.publicUrl.replace(/\/$/, '')}/user-center`;
  if (lang === 'zh') {
    return compose(
      `${PRODUCT_NAME} 提醒：${options.title}`,
      [`${options.username}，您好！${options.content}`, `可在“用户中心”的提醒设置中关闭此类提醒：${settings}`],
      { href: options.cancelUrl, label: '取消本次续费' },
    );
  }
  return compose(
    `${PRODUCT_NAME} alert: ${options.title}`,
    [
      `Hello ${options.username}, ${options.content}`,
      `Turn these notices off in the alert settings of the user centre: ${settings}`,
    ],
    { href: options.cancelUrl, label: 'Cancel this renewal' },
  );
}
