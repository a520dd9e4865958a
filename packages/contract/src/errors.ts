import { interpolate, type TLang } from './i18n';

/** One entry of the error catalogue: body code, HTTP status and the message in both languages. */
export type TErrorDef = { code: number; status: number; zh: string; en: string };

/**
 * The API's stable error codes. The body `code` of a failed answer is the
 * number; `data.error` is the name. Later features add their own entries here.
 */
export const ERRORS = {
  /** Input failed validation; `data.issues` lists the fields at fault. */
  BAD_REQUEST: { code: 400, status: 400, zh: '请求参数错误', en: 'Invalid request parameters' },
  /** Missing, malformed or expired access token. */
  UNAUTHORIZED: {
    code: 401,
    status: 401,
    zh: '登录已过期，请重新登录！',
    en: 'Your session has expired, please sign in again!',
  },
  /** The token was valid but its session was revoked (logout, password change, disabled account). */
  SESSION_REVOKED: {
    code: -401,
    status: 401,
    zh: '登录已失效，请重新登录！',
    en: 'Your session is no longer valid, please sign in again!',
  },
  /** Signed in, but not allowed. */
  FORBIDDEN: { code: 403, status: 403, zh: '没有权限', en: 'Permission denied' },
  /** No such resource, or it belongs to someone else. */
  NOT_FOUND: { code: 404, status: 404, zh: '资源或接口不存在', en: 'Resource or endpoint not found' },
  /** Too many attempts in a short time. */
  RATE_LIMITED: {
    code: 429,
    status: 429,
    zh: '操作过于频繁，请稍后再试',
    en: 'Too many attempts, please try again later',
  },
  /** The request body is larger than the API accepts. */
  PAYLOAD_TOO_LARGE: { code: 413, status: 413, zh: '请求内容过大', en: 'The request body is too large' },
  /** The request body's content type is not JSON or a form. */
  UNSUPPORTED_MEDIA_TYPE: {
    code: 415,
    status: 415,
    zh: '不支持的请求内容类型，请使用 JSON 或表单',
    en: 'Unsupported content type; send JSON or a form',
  },
  /** A path parameter longer than the router takes (a 400-digit id). */
  URI_TOO_LONG: { code: 414, status: 414, zh: '请求地址过长', en: 'The request URL is too long' },
  /** The request line or headers (for example a very long query string) are too large. */
  HEADERS_TOO_LARGE: {
    code: 431,
    status: 431,
    zh: '请求头或查询字符串过长',
    en: 'The request headers or query string are too long',
  },
  /** Unexpected failure; details are in the server log only. */
  INTERNAL: { code: 500, status: 500, zh: '服务器异常', en: 'Server error' },
  /** Readiness (GET /health/ready): a check failed; `data.reasons` says which and why. */
  NOT_READY: {
    code: 9001,
    status: 503,
    zh: '服务尚未就绪',
    en: 'The service is not ready',
  },
  /** The call exists in the route table but is not available in this version. */
  NOT_AVAILABLE: { code: 501, status: 501, zh: '该功能暂未开放', en: 'This feature is not available yet' },
  /** The database connection was lost in the middle of the request (restart, failover, terminated): its transaction was cut off (at the commit itself, it may have gone through: retry with the same Idempotency-Key). */
  DATABASE_UNAVAILABLE: {
    code: 503,
    status: 503,
    zh: '处理请求时数据库连接中断，请稍后重试',
    en: 'The database connection was lost while handling the request; please try again',
  },
  /** A serialization failure or a deadlock with a concurrent request, still there after the retries (or where none is safe): nothing was changed. */
  DATABASE_CONFLICT: {
    code: 409,
    status: 409,
    zh: '操作与其他操作同时发生冲突，本次操作未生效，请重试',
    en: 'The operation collided with another one at the same time; nothing was changed, please try again',
  },

  /** Wrong e-mail/username or password (no hint which one). */
  INVALID_CREDENTIALS: { code: 1001, status: 401, zh: '账号或密码错误', en: 'Incorrect account or password' },
  /** Registration with an e-mail that has an account, and a password that does not match it. */
  EMAIL_TAKEN: {
    code: 1002,
    status: 409,
    zh: '该邮箱已注册，请直接登录或重置密码',
    en: 'This e-mail is already registered; sign in or reset your password',
  },
  /** The username is used by another account. */
  USERNAME_TAKEN: { code: 1003, status: 409, zh: '用户名已被使用', en: 'This username is already taken' },
  /** Verification code wrong, expired, used or locked after too many tries. */
  CODE_INVALID: {
    code: 1004,
    status: 400,
    zh: '验证码错误或已过期',
    en: 'The verification code is wrong or has expired',
  },
  /** A code was sent to this address less than a minute ago. */
  CODE_TOO_FREQUENT: {
    code: 1005,
    status: 429,
    zh: '验证码发送过于频繁，请 {seconds} 秒后再试',
    en: 'Codes are sent at most once a minute; try again in {seconds} s',
  },
  /** An operator may not disable their own account. */
  SELF_ACTION_REFUSED: {
    code: 1015,
    status: 409,
    zh: '不能对自己的账号执行此操作',
    en: 'You cannot do this to your own account',
  },
  /** A sign-in link that is wrong, used or expired. */
  SIGN_IN_LINK_INVALID: {
    code: 1061,
    status: 400,
    zh: '登录链接无效、已使用或已过期，请重新获取',
    en: 'This sign-in link is wrong, used or expired; ask for a new one',
  },
  /** The account is disabled. */
  ACCOUNT_DISABLED: { code: 1006, status: 403, zh: '账号已被禁用', en: 'This account is disabled' },
  /** The invite code does not exist. */
  INVITE_CODE_INVALID: {
    code: 1007,
    status: 400,
    zh: '邀请码不存在或已失效',
    en: 'Invalid invitation code: it does not exist or has expired',
  },
  /** The current password given in the user center is wrong. */
  PASSWORD_INCORRECT: { code: 1008, status: 400, zh: '当前密码不正确', en: 'The current password is incorrect' },
  /** The new password given in the user center is the current one. */
  PASSWORD_UNCHANGED: {
    code: 1043,
    status: 400,
    zh: '新密码不能与当前密码相同',
    en: 'The new password must differ from the current one',
  },
  /** The verification e-mail could not be sent. */
  MAIL_SEND_FAILED: { code: 1009, status: 502, zh: '验证码发送失败', en: 'Failed to send the verification code' },
  /** GitHub or Google sign-in failed (bad state, code exchange, profile). */
  OAUTH_FAILED: {
    code: 1010,
    status: 400,
    zh: 'Google 或 GitHub 登录失败，请重试',
    en: 'Google or GitHub sign-in failed, please try again',
  },
  /** The sign-in provider has no credentials configured. */
  OAUTH_NOT_CONFIGURED: { code: 1011, status: 404, zh: '该登录方式未启用', en: 'This sign-in method is not enabled' },
  /** The provider did not give a verified e-mail address. */
  OAUTH_EMAIL_UNVERIFIED: {
    code: 1012,
    status: 400,
    zh: '第三方账号没有已验证的邮箱',
    en: 'The provider account has no verified e-mail address',
  },
  /** The new e-mail is the current one. */
  EMAIL_UNCHANGED: {
    code: 1013,
    status: 400,
    zh: '新邮箱与当前邮箱相同',
    en: 'The new e-mail is the same as the current one',
  },
  /** The notification does not exist. */
  NOTIFICATION_NOT_FOUND: { code: 1014, status: 404, zh: '通知不存在', en: 'Notification not found' },

  /** The session does not exist, is already ended, or belongs to another user. */
  SESSION_NOT_FOUND: {
    code: 1016,
    status: 404,
    zh: '登录会话不存在或已结束',
    en: 'Session not found or already ended',
  },

  /** An operator asks to e-mail a disabled account (it could not use a code or a reset). */
  MAIL_ACCOUNT_DISABLED: {
    code: 1041,
    status: 409,
    zh: '该账号已被禁用，不能发送邮件',
    en: 'This account is disabled; no e-mail is sent to it',
  },
  /** An operator asks to resend a verification e-mail to an account whose address is verified. */
  EMAIL_ALREADY_VERIFIED: {
    code: 1042,
    status: 409,
    zh: '该账号的邮箱已验证（注册或第三方登录时已验证），无需再发送验证邮件',
    en: "This account's e-mail is already verified (at registration or by the sign-in provider); no verification e-mail is needed",
  },

  /** A two-factor code (or recovery code) that is wrong, or a code already used in its time window. */
  TOTP_INVALID_CODE: {
    code: 1051,
    status: 400,
    zh: '动态验证码或恢复码错误',
    en: 'The authentication code or recovery code is incorrect',
  },
  /** The two-factor sign-in step timed out or no longer matches the account (sign in again). */
  TOTP_CHALLENGE_EXPIRED: {
    code: 1052,
    status: 401,
    zh: '两步验证已超时，请重新登录',
    en: 'The two-factor step has expired; please sign in again',
  },
  /** Enabling, disabling or regenerating before enrolment started, or enabling twice. */
  TOTP_NOT_ENABLED: { code: 1053, status: 409, zh: '尚未开启两步验证', en: 'Two-factor authentication is not enabled' },
  /** Enrolment asked for while two-factor is already on. */
  TOTP_ALREADY_ENABLED: {
    code: 1054,
    status: 409,
    zh: '两步验证已开启',
    en: 'Two-factor authentication is already enabled',
  },
  /** Enabling before the set-up step made a secret. */
  TOTP_SETUP_REQUIRED: { code: 1055, status: 409, zh: '请先开始设置两步验证', en: 'Start the two-factor set-up first' },
  /** The operator area requires two-factor and the operator has not enabled it. */
  TOTP_REQUIRED_FOR_ADMIN: {
    code: 1056,
    status: 403,
    zh: '管理后台要求开启两步验证，请先在用户中心开启两步验证',
    en: 'The operator area requires two-factor authentication; enable it in the user centre first',
  },
  /** The account signs in with a one-time password someone else saw: it must choose its own first. */
  PASSWORD_CHANGE_REQUIRED: {
    code: 1057,
    status: 403,
    zh: '请先设置新密码：该账户使用的是一次性密码',
    en: 'Choose a new password first: this account signs in with a one-time password',
  },

  /** The available balance does not cover the amount. */
  INSUFFICIENT_BALANCE: { code: 2001, status: 402, zh: '余额不足', en: 'Insufficient balance' },
  /** An idempotency key was reused for a different operation. */
  IDEMPOTENCY_CONFLICT: {
    code: 2002,
    status: 409,
    zh: '该 Idempotency-Key 已用于另一个不同的请求，请为新请求使用新的标识',
    en: 'This Idempotency-Key was already used for a different request; use a new key for a new request',
  },
  /** Frozen balance does not cover the amount. */
  INSUFFICIENT_FROZEN: { code: 2003, status: 409, zh: '冻结余额不足', en: 'Insufficient frozen balance' },

  /** No exit node in the chosen area can serve the purchase (or the renewal of a released static IP). */
  NO_STOCK: { code: 3001, status: 409, zh: '所选地区库存不足', en: 'No stock in the selected area' },
  /** The area is served only by upstream pools, and every one of them is failing now (docs/pools.md, "What customers see"). */
  AREA_UNAVAILABLE: {
    code: 3004,
    status: 409,
    zh: '所选地区暂时不可用，请稍后再试或选择其他地区',
    en: 'The selected area is temporarily unavailable; try again later or choose another area',
  },
  /** Retiring (or disabling) an exit that live proxies are pinned to, without moving them. */
  INVENTORY_NODE_PINNED: {
    code: 3101,
    status: 409,
    zh: '该出口仍有 {count} 个有效代理绑定，不能下架：请选择同类型、同地区的空闲出口迁移这些代理',
    en: 'This exit still has {count} live proxies pinned to it and cannot be retired: choose a free exit of the same kind and area to move them to',
  },
  /** The exit chosen to take over pinned proxies is not a free, active upstream exit of the same kind and area. */
  INVENTORY_MOVE_TARGET_INVALID: {
    code: 3102,
    status: 409,
    zh: '迁移目标必须是同类型、同地区、启用中且空闲的另一个上游出口',
    en: 'The exit to move to must be another active, free upstream exit of the same kind and area',
  },
  /** The gateway host's own exit is labelled by the DIRECT_EXIT_* settings. */
  INVENTORY_DIRECT_NODE: {
    code: 3103,
    status: 409,
    zh: '网关本机出口由 DIRECT_EXIT_* 配置决定，不能在此编辑或下架',
    en: "The gateway host's own exit is set by the DIRECT_EXIT_* settings and cannot be edited or retired here",
  },
  /** An edit would make the node a copy of another one (same endpoint and area). */
  INVENTORY_NODE_DUPLICATE: {
    code: 3104,
    status: 409,
    zh: '已有相同地址和地区的出口',
    en: 'Another exit has the same address and area',
  },
  /** Another pool has this name (names are compared without case). */
  POOL_NAME_TAKEN: { code: 3201, status: 409, zh: '已有同名的上游池', en: 'Another pool has this name' },
  /** Deleting a pool that is enabled: proxies may be connected through it. */
  POOL_ENABLED: {
    code: 3202,
    status: 409,
    zh: '上游池启用中，可能有代理正通过它连接，不能删除：请先暂停',
    en: 'The pool is enabled and proxies may be connected through it, so it cannot be deleted: pause it first',
  },
  /** Deleting a paused pool that still carries connections (a gateway reported them in the last minute). */
  POOL_IN_USE: {
    code: 3206,
    status: 409,
    zh: '上游池仍有 {open} 个连接（暂停后已建立的连接会继续到结束），请稍后再删除',
    en: 'The pool still carries {open} connections (those opened before the pause run until they end); delete it later',
  },
  /** The template's required part has a placeholder this area gives no value (a check of a country for {state}). */
  POOL_USERNAME_MISSING: {
    code: 3203,
    status: 409,
    zh: '模板中必填的占位符 {placeholder} 在此地区没有取值：请把它放进可选段 [...]，或检查更具体的地区',
    en: 'The template requires {placeholder}, which this area has no value for: put it in an optional segment [...], or check a more specific area',
  },
  /** The provider's spelling of this area holds a separator of the template (or a character no provider takes). */
  POOL_USERNAME_SEPARATOR: {
    code: 3204,
    status: 409,
    zh: '此地区的 {placeholder} 写法 {value} 含有字符 {char}，上游会把用户名读错：请为该地区导入写法映射',
    en: 'This area spells {placeholder} as {value}, which holds {char}: the provider would misread the username. Import a spelling for the area',
  },
  /** The rendered username is longer than SOCKS5 carries. */
  POOL_USERNAME_TOO_LONG: {
    code: 3205,
    status: 409,
    zh: '生成的用户名超过 255 字节',
    en: 'The username made from the template is longer than 255 bytes',
  },
  /** The economics' range: from after to, or longer than ECONOMICS_MAX_DAYS. */
  ECONOMICS_RANGE_INVALID: {
    code: 3301,
    status: 400,
    zh: '日期范围无效：开始日期不能晚于结束日期，且最长 {max} 天',
    en: 'Invalid date range: the start must not be after the end, and the range is at most {max} days',
  },
  /** A provider usage report with bad lines (each named in data.issues); nothing was imported. */
  RECONCILIATION_CSV_INVALID: {
    code: 3302,
    status: 400,
    zh: '上游用量报表有错误行，未导入任何数据',
    en: 'The provider usage report has bad lines; nothing was imported',
  },
  /** The product does not exist (data-center proxies are static only). */
  PRODUCT_NOT_OFFERED: { code: 3002, status: 400, zh: '该产品暂不提供', en: 'This product is not offered' },
  /** The call does not apply to this proxy (renewing a traffic product, enabling an expired one...). */
  TOKEN_NOT_APPLICABLE: {
    code: 3003,
    status: 409,
    zh: '该代理不支持此操作',
    en: 'This operation does not apply to this proxy',
  },
  /** A cancel-this-renewal link that is malformed or forged (the signature does not match its notice). */
  RENEWAL_LINK_INVALID: {
    code: 3011,
    status: 403,
    zh: '取消续费链接无效',
    en: 'This cancel-renewal link is not valid',
  },
  /** The cancel link was already used once (it works exactly once). */
  RENEWAL_LINK_USED: {
    code: 3012,
    status: 409,
    zh: '该取消续费链接已使用过',
    en: 'This cancel-renewal link has already been used',
  },
  /** The renewal of the link is past its charge time, or the proxy was renewed, deleted or switched since. */
  RENEWAL_LINK_EXPIRED: {
    code: 3013,
    status: 410,
    zh: '该取消续费链接已过期，请登录控制台管理自动续费',
    en: 'This cancel-renewal link has expired; sign in to the console to manage auto-renew',
  },
  /** No auto-renewal of this proxy that can be undone (none, already undone, or a later renewal followed it). */
  AUTO_RENEW_UNDO_NONE: {
    code: 3014,
    status: 409,
    zh: '该代理没有可撤销的自动续费',
    en: 'This proxy has no auto-renewal to undo',
  },
  /** The auto-renewal is more than 24 hours old. */
  AUTO_RENEW_UNDO_TOO_LATE: {
    code: 3015,
    status: 409,
    zh: '自动续费已超过 24 小时，无法撤销',
    en: 'The auto-renewal is more than 24 hours old and can no longer be undone',
  },
  /** The proxy carried traffic after the auto-renewal. */
  AUTO_RENEW_UNDO_USED: {
    code: 3016,
    status: 409,
    zh: '自动续费后代理已产生流量，无法撤销',
    en: 'The proxy has carried traffic since the auto-renewal, so it cannot be undone',
  },

  /** An IP list entry is not a single address, CIDR block or range "a-b" (spec section 5); names the entry. */
  IP_FORMAT_INVALID: { code: 4101, status: 400, zh: 'IP 格式无效：{entry}', en: 'Invalid IP Format: {entry}' },
  /** The entry's normalised range is already in the list, or given twice in one submission (spec section 5). */
  IP_DUPLICATE: {
    code: 4102,
    status: 409,
    zh: 'IP 已存在于{listName}中：{entry}',
    en: 'IP already exists in {listName}: {entry}',
  },
  /** The list would hold more than the per-user maximum of entries. */
  IP_LIST_FULL: {
    code: 4103,
    status: 409,
    zh: '{listName}最多可添加 {max} 条，当前已有 {count} 条',
    en: 'The {listName} holds at most {max} entries; it has {count}',
  },

  /** The payment method is not configured on this server. */
  PAY_METHOD_UNAVAILABLE: {
    code: 5001,
    status: 400,
    zh: '该支付方式暂不可用',
    en: 'This payment method is not available',
  },
  /** The order has already ended (paid, failed, cancelled or timed out). */
  PAY_ORDER_NOT_PENDING: {
    code: 5002,
    status: 409,
    zh: '该订单已结束，无法取消',
    en: 'This order has already ended and cannot be cancelled',
  },
  /** The payment provider could not be reached or refused to create the payment. */
  PAY_PROVIDER_FAILED: {
    code: 5003,
    status: 502,
    zh: '支付渠道暂时不可用，请稍后再试或更换支付方式',
    en: 'The payment provider is not available right now; try again later or use another method',
  },
  /** Every unique USDT amount near this price is held by an open order on the network. */
  PAY_AMOUNT_BUSY: {
    code: 5004,
    status: 409,
    zh: '该金额的 USDT 订单过多，请稍后再试或更换金额',
    en: 'Too many open USDT orders of this amount; try again in a while or choose another amount',
  },
  /** The account already has the most unpaid USDT orders of the network whose amounts are held (USDT_MAX_UNPAID_PER_ACCOUNT). */
  PAY_USDT_OPEN_LIMIT: {
    code: 5009,
    status: 409,
    zh: '您在该网络上已有 {max} 笔未支付的 USDT 订单（已取消或已超时的订单在其迟到付款窗口结束前仍计入）；请先支付其中一笔，或使用其他支付方式',
    en: 'You have {max} unpaid USDT orders on this network (a cancelled or expired one counts until its window for late payments ends); pay one of them, or use another payment method',
  },
  /** "I have paid" applies to a pending or expired order only. */
  PAY_ORDER_NOT_CHECKABLE: {
    code: 5010,
    status: 409,
    zh: '只有待支付或已超时的订单可以查询支付结果',
    en: 'Only a pending or expired order can be checked for a payment',
  },
  /** Only a successful recharge that has not been reversed yet can be reversed. */
  ORDER_NOT_REVERSIBLE: {
    code: 5006,
    status: 409,
    zh: '只有支付成功且未冲正的充值订单可以冲正',
    en: 'Only a paid recharge that has not been reversed can be reversed',
  },
  /** Only a pending order can be reconciled with its provider. */
  ORDER_NOT_RECONCILABLE: {
    code: 5041,
    status: 409,
    zh: '只有待支付的订单可以与支付渠道对账',
    en: 'Only a pending order can be reconciled with its provider',
  },
  /** The provider's answer about an order does not match it (amount, transaction): nothing is credited. */
  ORDER_RECONCILE_REFUSED: {
    code: 5042,
    status: 409,
    zh: '支付渠道返回的订单信息与订单不符，未入账：{reason}',
    en: "The provider's answer does not match the order; nothing was credited: {reason}",
  },
  /** An operator switched the payment method off: not offered, new orders refused. */
  PAY_METHOD_DISABLED: {
    code: 5007,
    status: 409,
    zh: '该支付方式已暂停使用，请选择其他支付方式',
    en: 'This payment method is switched off for now; please choose another method',
  },
  /** An operator tried to switch on a method whose provider has no settings on this server. */
  PAY_METHOD_NOT_CONFIGURED: {
    code: 5008,
    status: 409,
    zh: '该支付方式未在服务器上配置（缺少商户参数），无法开启；请先在服务器配置中填写后重启',
    en: 'This payment method is not configured on the server (its provider settings are missing), so it cannot be switched on; add its settings and restart first',
  },
  /** An operator assigns a USDT transfer that has been credited already (to an order or by another assignment). */
  TRANSFER_ALREADY_CREDITED: {
    code: 5005,
    status: 409,
    zh: '该转账已入账，不能重复分配',
    en: 'This transfer has been credited already and cannot be assigned again',
  },

  /** The available balance does not cover a supply request's fee: nothing is frozen. */
  SUPPLY_INSUFFICIENT_BALANCE: {
    code: 6101,
    status: 402,
    zh: '余额不足：本次补货需冻结 {cost} 元，可用余额 {balance} 元，请先充值',
    en: 'Insufficient balance: this supply request freezes {cost} yuan and {balance} yuan is available; please top up first',
  },
  /** Take: the supply request is no longer pending (a revoke of an ended one answers SUPPLY_ENDED). */
  SUPPLY_NOT_PENDING: {
    code: 6102,
    status: 409,
    zh: '该补货申请已不是待处理状态',
    en: 'This supply request is no longer pending',
  },
  /** Complete: the supply request is not being processed. */
  SUPPLY_NOT_PROCESSING: {
    code: 6103,
    status: 409,
    zh: '该补货申请不在处理中，请先接单',
    en: 'This supply request is not being processed; take it first',
  },
  /** Fail: the supply request has already ended. */
  /** A contact address confirmation link that is wrong or expired. */
  SUPPLY_CONTACT_LINK_INVALID: {
    code: 6111,
    status: 400,
    zh: '联系邮箱确认链接无效或已过期',
    en: 'This contact address confirmation link is wrong or has expired',
  },
  SUPPLY_ENDED: { code: 6104, status: 409, zh: '该补货申请已结束', en: 'This supply request has already ended' },
  /** Complete by IP: the region lacks free exits; says what is missing. */
  SUPPLY_NO_STOCK: {
    code: 6105,
    status: 409,
    zh: '{region} 的可用出口不足：需要 {needed} 个，现有 {available} 个，请先导入库存',
    en: 'Not enough free exits in {region}: {needed} needed, {available} available; import more first',
  },

  /** The offline IP data packages could not be read (missing after an install, or unreadable); the IP check cannot answer. */
  IP_DATA_UNAVAILABLE: {
    code: 4201,
    status: 503,
    zh: 'IP 数据暂不可用，请稍后再试',
    en: 'The IP data is not available right now, please try again later',
  },

  /** The browser plugin cannot use a SOCKS5 proxy: Chromium cannot authenticate to one. */
  PLUGIN_SOCKS5_UNSUPPORTED: {
    code: 4301,
    status: 400,
    zh: '浏览器插件不支持 SOCKS5 代理：Chromium 无法向 SOCKS5 代理提供用户名和密码，请选择 HTTP 代理',
    en: 'The browser plugin does not support SOCKS5 proxies: Chromium cannot send a username and password to a SOCKS5 proxy; choose an HTTP proxy',
  },
  /** Software download needs the role "user" (spec section 6: a total top-up above 1 yuan). */
  SOFTWARE_ROLE_REQUIRED: {
    code: 7001,
    status: 403,
    zh: '累计充值超过 1 元后即可下载软件，请先充值',
    en: 'Software downloads open once you have topped up more than 1 yuan in total; please top up first',
  },
  /** No manifest in DATA_DIR/downloads (or an unreadable one). */
  SOFTWARE_NOT_PUBLISHED: {
    code: 7002,
    status: 404,
    zh: '软件暂未发布，请稍后再来',
    en: 'The software has not been published yet, please check back later',
  },
  /** The manifest names a file that is not there, or names no such file. */
  SOFTWARE_FILE_MISSING: {
    code: 7003,
    status: 404,
    zh: '该安装包暂时无法下载，请稍后再试或联系客服',
    en: 'This download is not available right now; please try again later or contact support',
  },
  /** A download link that is forged, for another file, or expired. */
  DOWNLOAD_LINK_INVALID: {
    code: 7004,
    status: 403,
    zh: '下载链接无效或已过期，请回到软件下载页重新下载',
    en: 'The download link is invalid or has expired; download again from the software page',
  },
  /** The file at a release link is not the one the operator described (size or SHA-256); the issue says which and what was found. */
  SOFTWARE_FILE_MISMATCH: {
    code: 7005,
    status: 400,
    zh: '文件与填写的大小或 SHA-256 不符',
    en: 'The file does not match the size or SHA-256 given',
  },
  /** The file at a release link could not be fetched (an HTTP error, a timeout, no connection); the issue says which. */
  SOFTWARE_FILE_UNREACHABLE: {
    code: 7006,
    status: 400,
    zh: '无法获取链接处的文件',
    en: 'The file at the link could not be fetched',
  },
  /** A release link to a loopback, private or link-local address (DOWNLOAD_ALLOW_PRIVATE is for tests). */
  SOFTWARE_URL_REFUSED: {
    code: 7007,
    status: 400,
    zh: '下载链接须为公网地址',
    en: 'A download link must point to a public address',
  },
  /** A release of this version (in any letter case) is already published. */
  SOFTWARE_VERSION_TAKEN: {
    code: 7008,
    status: 409,
    zh: '版本 {version} 已发布',
    en: 'Version {version} is already published',
  },
  /** No such software release. */
  SOFTWARE_RELEASE_NOT_FOUND: {
    code: 7009,
    status: 404,
    zh: '该版本不存在',
    en: 'No such release',
  },
  /** No such file in the release. */
  SOFTWARE_RELEASE_FILE_NOT_FOUND: {
    code: 7010,
    status: 404,
    zh: '该文件不存在',
    en: 'No such file',
  },
  /** Removing a release's only file: a release keeps at least one. */
  SOFTWARE_RELEASE_LAST_FILE: {
    code: 7011,
    status: 409,
    zh: '版本至少保留一个文件，请改为删除版本',
    en: 'A release keeps at least one file: delete the release instead',
  },
  /** The release already has a file for this platform and architecture. */
  SOFTWARE_RELEASE_FILE_TAKEN: {
    code: 7012,
    status: 409,
    zh: '该版本已有此平台和架构的文件',
    en: 'The release already has a file for this platform and architecture',
  },
  /** No such work order among the caller's own (another customer's answers the same). */
  WORK_ORDER_NOT_FOUND: { code: 7101, status: 404, zh: '工单不存在', en: 'Work order not found' },
  /** The work order is closed or cancelled: no reply, cancel or close any more. */
  WORK_ORDER_ENDED: {
    code: 7102,
    status: 409,
    zh: '该工单已关闭或已取消',
    en: 'This work order is already closed or cancelled',
  },
  /** token_id of a new work order is none of the caller's proxies. */
  WORK_ORDER_TOKEN_NOT_FOUND: {
    code: 7103,
    status: 404,
    zh: '所选代理不存在',
    en: 'The selected proxy does not exist',
  },
  /** supply_request_id is not one of the caller's supply requests. */
  WORK_ORDER_SUPPLY_NOT_FOUND: {
    code: 7107,
    status: 404,
    zh: '所选补货申请不存在',
    en: 'The selected supply request does not exist',
  },
  /** An attachment id is not one of the caller's uploads waiting to be sent. */
  WORK_ORDER_ATTACHMENT_NOT_FOUND: {
    code: 7104,
    status: 404,
    zh: '附件不存在或已发送',
    en: 'The attachment does not exist or was already sent',
  },
  /** The upload is not a PNG, JPEG or WebP image (by its content). */
  WORK_ORDER_ATTACHMENT_TYPE: {
    code: 7105,
    status: 415,
    zh: '仅支持 PNG、JPEG 或 WebP 图片',
    en: 'Only PNG, JPEG or WebP images are accepted',
  },
  /** Too many uploaded attachments not yet sent with a message. */
  WORK_ORDER_ATTACHMENTS_PENDING: {
    code: 7106,
    status: 409,
    zh: '待发送的附件过多，请先提交工单或回复',
    en: 'Too many uploaded images are waiting; send them with a work order or a reply first',
  },
  /** The account already has the most webhook endpoints it may register. */
  WEBHOOK_LIMIT: {
    code: 7201,
    status: 409,
    zh: '最多可添加 {max} 个 Webhook 地址',
    en: 'You can register at most {max} webhook endpoints',
  },
  /** The endpoint's host is a loopback, private or link-local address: webhooks go to public HTTPS addresses only. */
  WEBHOOK_ADDRESS_REFUSED: {
    code: 7202,
    status: 400,
    zh: 'Webhook 地址须为公网 HTTPS 地址，不能是本机、内网或链路本地地址',
    en: 'A webhook must point to a public HTTPS address, not a loopback, private or link-local one',
  },
} as const satisfies Record<string, TErrorDef>;

/** Name of an error in the catalogue. */
export type TErrorName = keyof typeof ERRORS;

/** Message of an error in the given language, with `{placeholders}` filled. */
export function errorMessage(name: TErrorName, lang: TLang, params?: Record<string, string | number>): string {
  return interpolate(ERRORS[name][lang], params);
}

/**
 * Default client messages by HTTP status when an answer carries none
 * (spec section 8).
 */
export const DEFAULT_STATUS_MESSAGES: Record<TLang, Record<number, string>> = {
  zh: { 400: '请求参数错误', 401: '登录已过期', 403: '没有权限', 404: '资源或接口不存在', 500: '服务器异常' },
  en: {
    400: 'Invalid request parameters',
    401: 'Session expired',
    403: 'Permission denied',
    404: 'Resource or endpoint not found',
    500: 'Server error',
  },
};

/** Client message for an unknown status: "【code】: 未知异常!" (spec section 8). */
export function unknownErrorMessage(code: number | string, lang: TLang): string {
  return lang === 'zh' ? `【${code}】: 未知异常!` : `[${code}]: Unknown error!`;
}
