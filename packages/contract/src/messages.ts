import { interpolate, type TLang } from './i18n';

/**
 * Field validation messages shared by the console forms and the server
 * (spec section 5). Schemas carry the key; each side translates it.
 */
export const VALIDATION_MESSAGES = {
  required: { zh: '此项为必填项', en: 'This field is required' },
  loginRequired: { zh: '请输入用户名和密码', en: 'Please enter your username and password' },
  emailInvalid: { zh: '请输入有效的邮箱地址', en: 'Please enter a valid e-mail address' },
  usernameLength: { zh: '用户名长度为 2-20 个字符', en: 'Username must be 2-20 characters' },
  usernameChars: {
    zh: '用户名不能包含空格、@ 或控制字符',
    en: 'Username cannot contain spaces, @ or control characters',
  },
  passwordMin: { zh: '密码至少 8 位', en: 'Password must be at least 8 characters' },
  passwordMax: { zh: '密码最多 128 位', en: 'Password must be at most 128 characters' },
  passwordMismatch: { zh: '两次输入的密码不一致', en: 'The two passwords you entered are inconsistent' },
  codeFormat: { zh: '验证码为 6 位数字', en: 'The verification code is 6 digits' },
  totpFormat: { zh: '动态验证码为 6 位数字', en: 'The authentication code is 6 digits' },
  totpOrRecoveryFormat: { zh: '请输入 6 位动态验证码或恢复码', en: 'Enter the 6-digit code or a recovery code' },
  inviteRequired: { zh: '请输入邀请码', en: 'Please enter an invitation code' },
  inviteFormat: { zh: '邀请码格式不正确', en: 'Invalid invitation code format' },
  invalidValue: { zh: '取值无效', en: 'Invalid value' },
  tooLong: { zh: '内容过长', en: 'Too long' },
  alertThresholdsInvalid: {
    zh: '流量提醒阈值只能为 50、80、100（不可重复）',
    en: 'Traffic alert thresholds must be 50, 80 or 100, each at most once',
  },
  balanceLowRange: {
    zh: '余额提醒阈值为 0.01-1000000 元，最多两位小数',
    en: 'The balance alert threshold must be 0.01 to 1000000 yuan with at most two decimals',
  },
  webhookUrlInvalid: {
    zh: '请输入 https:// 开头的有效网址（不含用户名、密码或 #）',
    en: 'Enter a valid https:// URL (no user name, password or #)',
  },
  webhookEventsInvalid: { zh: '请至少选择一个事件（不可重复）', en: 'Choose at least one event, each at most once' },
  webhookDescriptionMax: { zh: '描述最多 100 个字符', en: 'The description must be at most 100 characters' },
  countryRequired: { zh: '请选择国家', en: 'Please select a country' },
  quantityRange: { zh: '数量为 1-100', en: 'Quantity must be 1-100' },
  trafficRange: { zh: '流量为 0.1-100000 GB', en: 'Traffic must be from 0.1 to 100000 GB' },
  trafficDecimals: { zh: '流量最多保留一位小数', en: 'Traffic takes at most one decimal' },
  fairUseRange: {
    zh: '合理使用流量为 0-1000 GB/天（0 为关闭），最多一位小数',
    en: 'The fair-use traffic must be 0 to 1000 GB per day (0 turns it off), with at most one decimal',
  },
  daysRange: { zh: '天数为 1-365 的整数', en: 'Days must be a whole number from 1 to 365' },
  selectionRequired: { zh: '请至少选择一项', en: 'Please select at least one item' },
  tooMany: { zh: '选择的项目过多', en: 'Too many items selected' },
  paywayRequired: { zh: '请先选择支付方式', en: 'Please select a payment option first' },
  ipRequired: { zh: '请输入 IP 地址、CIDR 网段或 IP 范围', en: 'Please enter an IP address, CIDR block or IP range' },
  ipRemarkMax: { zh: '备注最多 100 个字符', en: 'The remark must be at most 100 characters' },
  targetRuleFormat: {
    zh: '不是有效的域名、IP 地址或 CIDR 网段（如 example.com、*.example.com、203.0.113.0/24、2001:db8::/32）',
    en: 'Not a valid domain, IP address or CIDR block (e.g. example.com, *.example.com, 203.0.113.0/24, 2001:db8::/32)',
  },
  targetRulePrefix: {
    zh: 'CIDR 前缀长度无效：IPv4 为 0-32，IPv6 为 0-128',
    en: 'Invalid CIDR prefix: 0-32 for IPv4, 0-128 for IPv6',
  },
  targetRuleRange: {
    zh: '不支持 IP 范围，请改写为 CIDR 网段',
    en: 'IP ranges are not supported; write them as CIDR blocks',
  },
  targetRuleDuplicate: { zh: '该规则与前面的规则重复', en: 'This rule repeats an earlier one' },
  targetRulesTooMany: { zh: '每个列表最多 200 条规则', en: 'A list holds at most 200 rules' },
  targetRulesAllowEmpty: { zh: '允许列表至少需要一条规则', en: 'An allow list needs at least one rule' },
  targetRuleModeInvalid: {
    zh: '模式须为 deny（禁止列表）或 allow（允许列表）',
    en: 'The mode must be deny (a deny list) or allow (an allow list)',
  },
  ipAddressRequired: { zh: '请输入 IP 地址', en: 'An IP address is required' },
  ipAddressInvalid: { zh: '请输入有效的 IPv4 或 IPv6 地址', en: 'Please enter a valid IPv4 or IPv6 address' },
  tzOffsetRange: { zh: '时区偏移为 -720 到 840 分钟', en: 'The time zone offset must be -720 to 840 minutes' },
  statisticsDays: { zh: '统计天数只能为 7、30 或 90', en: 'Days must be 7, 30 or 90' },
  sesstimeRange: { zh: '会话时长为 1-120 分钟', en: 'Session time must be 1-120 minutes' },
  sesstimeStickyOnly: { zh: '仅粘性会话可设置会话时长', en: 'Session time applies to sticky sessions only' },
  spiderCountRange: { zh: '生成数量为 1-10000', en: 'Count must be 1-10000' },
  limitRange: { zh: 'limit 为 1-10000', en: 'limit must be 1-10000' },
  tokenRequired: { zh: '请选择代理', en: 'Please select a proxy' },
  stateRequired: { zh: '选择城市前请先选择州/省', en: 'Please select a state before a city' },
  rangeTooLong: { zh: '时间范围过长，请缩小范围或按天统计', en: 'The time range is too long; narrow it or use days' },
  rangeOrder: { zh: '开始时间不能晚于结束时间', en: 'The start must not be after the end' },
  integerFormat: {
    zh: '须为十进制整数（不含前导零、空格或指数）',
    en: 'Must be a whole number in plain decimal digits',
  },
  numberRequired: { zh: '须为数字', en: 'Must be a number' },
  integerRequired: { zh: '须为整数', en: 'Must be a whole number' },
  booleanRequired: { zh: '须为 true 或 false', en: 'Must be true or false' },
  tooSmall: { zh: '不能小于 {min}', en: 'Must be at least {min}' },
  tooBig: { zh: '不能大于 {max}', en: 'Must be at most {max}' },
  invalidType: { zh: '类型不正确', en: 'Wrong type' },
  invalidFormat: { zh: '格式不正确', en: 'Wrong format' },
  controlChars: { zh: '不能包含控制字符', en: 'Must not contain control characters' },
  tooDeep: { zh: '请求内容嵌套过深（最多 32 层）', en: 'The request is nested too deeply (at most 32 levels)' },
  pageRange: { zh: '页码须为不小于 1 的整数', en: 'The page must be a whole number from 1' },
  pageSizeRange: { zh: '每页条数为 1-200', en: 'The page size must be 1-200' },
  dateInvalid: { zh: '请输入有效的 ISO 8601 日期或时间', en: 'Please enter a valid ISO 8601 date or time' },
  payMethodInvalid: {
    zh: '支付方式须为 alipay、wechat、sandbox、usdt_trc20 或 usdt_erc20',
    en: 'The payment method must be alipay, wechat, sandbox, usdt_trc20 or usdt_erc20',
  },
  payModeInvalid: {
    zh: '支付形式须为 redirect（跳转支付页）或 qr（扫码）',
    en: 'The pay mode must be redirect (a payment page) or qr (a QR code)',
  },
  payModeUnavailable: { zh: '该支付方式不支持此支付形式', en: 'This payment method does not offer this pay mode' },
  amountFormat: {
    zh: '充值金额须为最多两位小数的数字，如 100 或 100.50',
    en: 'The amount must be a number with at most two decimals, such as 100 or 100.50',
  },
  amountRange: { zh: '充值金额须在 {min} 至 {max} 元之间', en: 'The amount must be between {min} and {max} yuan' },
  adjustFormat: {
    zh: '调整金额须为最多两位小数的数字，如 10 或 10.50',
    en: 'The adjustment must be a number with at most two decimals, such as 10 or 10.50',
  },
  userNotFound: { zh: '用户不存在', en: 'No such account' },
  adjustRange: {
    zh: '调整金额须大于 0 且不超过 1000000 元',
    en: 'The adjustment must be more than 0 and at most 1000000 yuan',
  },
  rebateRateRange: { zh: '返利比例须在 0% 至 50% 之间', en: 'The rebate rate must be between 0 % and 50 %' },
  rebateAmountRange: {
    zh: '最低充值须在 0 至 1000000 元之间，单笔返利上限须在 0.01 至 1000000 元之间',
    en: 'The minimum charge must be 0-1000000 yuan and the maximum rebate 0.01-1000000 yuan',
  },
  twoDecimals: { zh: '最多保留两位小数', en: 'At most two decimals' },
  priceKeyInvalid: { zh: '未知的价格项', en: 'Unknown price key' },
  priceAmountRange: {
    zh: '价格须为 1 至 100000000 分的整数',
    en: 'A price must be a whole number of fen from 1 to 100000000',
  },
  priceKeyDuplicate: { zh: '同一价格项在一次修改中只能出现一次', en: 'Each price key may appear once in a change' },
  pricesRequired: { zh: '请至少修改一项价格', en: 'Change at least one price' },
  effectiveAtPast: { zh: '生效时间不能早于当前时间', en: 'The effective time must not be in the past' },
  effectiveAtTooLate: { zh: '生效时间最多可设在一年之后', en: 'The effective time can be at most a year ahead' },
  optionsCount: { zh: '充值选项须为 1 至 20 个', en: 'An option set has 1 to 20 options' },
  optionAmountRange: {
    zh: '充值金额须为 1 至 100000000 分的整数',
    en: 'An amount must be a whole number of fen from 1 to 100000000',
  },
  optionGiftRange: {
    zh: '赠送金额须为 0 至 100000000 分的整数',
    en: 'A gift must be a whole number of fen from 0 to 100000000',
  },
  optionAmountDuplicate: { zh: '充值选项的金额不能重复', en: 'Two options cannot have the same amount' },
  downloadFileName: { zh: '文件名无效', en: 'Invalid file name' },
  softwarePlatform: { zh: '请选择平台：Windows、macOS 或 Linux', en: 'Choose a platform: Windows, macOS or Linux' },
  softwareArch: {
    zh: '架构最多 20 个字符，仅限字母、数字、点、下划线和连字符（如 x64、arm64、universal）',
    en: 'The architecture is at most 20 letters, digits, dots, underscores or hyphens (e.g. x64, arm64, universal)',
  },
  softwareUrl: {
    zh: '请输入 http:// 或 https:// 开头的下载链接（不含用户名、密码或 #）',
    en: 'Enter an http:// or https:// download link (no user name, password or #)',
  },
  softwareSize: {
    zh: '大小须为 1 至 8589934592 之间的整数（字节）',
    en: 'The size must be a whole number of bytes from 1 to 8589934592',
  },
  softwareSha256: { zh: 'SHA-256 须为 64 位十六进制字符', en: 'The SHA-256 must be 64 hexadecimal characters' },
  softwareVersion: {
    zh: '版本号最多 40 个字符，以字母或数字开头，仅限字母、数字和 . _ + -',
    en: 'The version is at most 40 characters: a letter or digit first, then letters, digits and . _ + -',
  },
  softwareFilesRequired: { zh: '请至少添加一个文件', en: 'Add at least one file' },
  softwareFileTwice: {
    zh: '同一版本中每个平台和架构只能有一个文件',
    en: 'A release has one file per platform and architecture',
  },
  softwareSizeMismatch: {
    zh: '链接处的文件大小为 {found} 字节，与填写的 {expected} 字节不符',
    en: 'The file at the link is {found} bytes, not the {expected} bytes given',
  },
  softwareSizeExceeded: {
    zh: '链接处的文件大于填写的 {expected} 字节（至少 {found} 字节），已停止下载',
    en: 'The file at the link is larger than the {expected} bytes given (at least {found} bytes); the download was stopped',
  },
  softwareSha256Mismatch: {
    zh: '链接处文件的 SHA-256 为 {found}，与填写的 {expected} 不符',
    en: 'The file at the link has SHA-256 {found}, not {expected} as given',
  },
  softwareFetchStatus: {
    zh: '无法获取链接处的文件：服务器返回 HTTP {status}',
    en: 'The file at the link could not be fetched: the server answered HTTP {status}',
  },
  softwareFetchTimeout: {
    zh: '无法获取链接处的文件：{seconds} 秒内未下载完成',
    en: 'The file at the link could not be fetched: it did not arrive within {seconds} s',
  },
  softwareFetchFailed: {
    zh: '无法获取链接处的文件：{reason}',
    en: 'The file at the link could not be fetched: {reason}',
  },
  softwareUrlRefused: {
    zh: '下载链接指向本机、内网或链路本地地址（{address}），请使用公网地址',
    en: 'The link points to a loopback, private or link-local address ({address}); use a public address',
  },
  supplyTypeInvalid: { zh: '请选择补货方式：按流量或按 IP', en: 'Please choose how to restock: by traffic or by IP' },
  supplyProductInvalid: {
    zh: '请选择产品：静态住宅、动态住宅或数据中心',
    en: 'Please choose a product: static residential, dynamic residential or data-center',
  },
  supplyTrafficRange: { zh: '补货流量为 1-1000 GB 的整数', en: 'Traffic must be a whole number from 1 to 1000 GB' },
  supplyIpRange: { zh: '补货 IP 数量为 1-100', en: 'The IP count must be 1-100' },
  supplyWaitDaysRange: { zh: '等待天数为 1-30 的整数', en: 'Wait days must be a whole number from 1 to 30' },
  supplyRegionRequired: { zh: '请选择地区', en: 'Please select a region' },
  supplyRegionInvalid: {
    zh: '地区须为真实国家的两位代码（ISO 3166-1），如 us、uk、jp',
    en: 'The region must be the two-letter code of a real country (ISO 3166-1), such as us, uk or jp',
  },
  supplyContactEmailRequired: { zh: '请输入联系邮箱', en: 'Please enter a contact e-mail' },
  supplyTermsRequired: { zh: '请阅读并同意补货条款', en: 'Please read and agree to the supply terms' },
  supplyRemarkMax: { zh: '备注最多 200 个字符', en: 'The remark must be at most 200 characters' },
  supplyReasonRequired: { zh: '请填写失败原因', en: 'Please give the reason of the failure' },
  workOrderCategory: {
    zh: '请选择问题类型：账单、代理、补货、账号或其他',
    en: 'Please choose a category: billing, proxy, supply, account or other',
  },
  workOrderStatus: {
    zh: '状态须为 open、answered、closed 或 cancelled',
    en: 'The status must be open, answered, closed or cancelled',
  },
  workOrderSubjectRequired: { zh: '请输入工单标题', en: 'Please enter a subject' },
  workOrderSubjectMax: { zh: '标题最多 100 个字符', en: 'The subject must be at most 100 characters' },
  workOrderContentRequired: { zh: '请描述您的问题', en: 'Please describe your question' },
  workOrderContentMax: { zh: '内容最多 5000 个字符', en: 'The message must be at most 5000 characters' },
  workOrderAttachmentsMax: { zh: '每条消息最多 4 张图片', en: 'A message can carry at most 4 images' },
  attachmentRequired: { zh: '请选择要上传的图片', en: 'Please choose an image to upload' },
  attachmentTooLarge: { zh: '图片不能超过 5 MB', en: 'An image must be at most 5 MB' },
  attachmentType: { zh: '仅支持 PNG、JPEG 或 WebP 图片', en: 'Only PNG, JPEG or WebP images are accepted' },
  overviewDaysRange: { zh: '统计天数为 1-90 的整数', en: 'Days must be a whole number from 1 to 90' },
  usageLogRetention: { zh: '保留天数为 1-30 的整数', en: 'Retention must be a whole number of days from 1 to 30' },
  usageLogRangeDays: { zh: '连接日志每次最多查询 31 天', en: 'The usage log covers at most 31 days per query' },
  domainUsageRangeDays: {
    zh: '域名用量每次最多查询 93 天',
    en: 'Usage by domain covers at most 93 days per query',
  },
  poolTemplateChar: {
    zh: '用户名模板不能包含字符 {char}：上游不接受它出现在用户名中',
    en: 'The username template cannot contain {char}: providers do not accept it in a username',
  },
  poolTemplateBrace: {
    zh: '占位符的花括号 { } 没有成对出现',
    en: 'A brace of a placeholder, { or }, has no partner',
  },
  poolTemplateBracket: {
    zh: '可选段的方括号 [ ] 没有成对出现',
    en: 'A bracket of an optional segment, [ or ], has no partner',
  },
  poolTemplateNested: { zh: '可选段 [...] 不能嵌套', en: 'Optional segments [...] cannot be nested' },
  poolTemplateUnknown: {
    zh: '未知的占位符 {name}，可用的占位符：{list}',
    en: 'Unknown placeholder {name}; the placeholders are {list}',
  },
  poolTemplateSessionLength: {
    zh: '占位符 {name} 有误：只有会话可以指定长度，写作 {session:N}，N 为 4-32，且全模板一致',
    en: 'Placeholder {name} is wrong: only the session takes a length, written {session:N} with N from 4 to 32, the same throughout',
  },
  poolTemplateOptionalSlot: {
    zh: '可选段 [...] 至少要包含一个占位符',
    en: 'An optional segment [...] must hold at least one placeholder',
  },
  poolTemplateOptionalStart: {
    zh: '可选段 [...] 须以普通字符（如 -）开头',
    en: 'An optional segment [...] must begin with text (such as -)',
  },
  poolTemplateAdjacent: {
    zh: '占位符 {name} 后面须有分隔字符（如 -），否则上游无法分开相邻的两个值',
    en: 'Placeholder {name} must be followed by a separator (such as -): otherwise the provider cannot tell two values apart',
  },
  poolSpellingChar: {
    zh: '写法 {spelling} 含有字符 {char}：模板把它用作分隔符，或上游不接受它',
    en: 'The spelling {spelling} contains {char}, which the template uses as a separator or providers do not accept',
  },
  poolUsernameChar: {
    zh: '账号名不能包含字符 {char}：上游不接受它出现在用户名中',
    en: 'The account name cannot contain {char}: providers do not accept it in a username',
  },
  poolPortRange: { zh: '端口为 1-65535 的整数', en: 'The port must be a whole number from 1 to 65535' },
  poolCostRange: {
    zh: '每 GB 成本为 0-100000000 分的整数',
    en: 'The cost per GB must be a whole number of fen from 0 to 100000000',
  },
  poolPriorityRange: {
    zh: '优先级为 0-1000 的整数（越小越先用）',
    en: 'The priority must be a whole number from 0 to 1000 (lower first)',
  },
  poolWeightRange: { zh: '权重为 1-1000 的整数', en: 'The weight must be a whole number from 1 to 1000' },
  poolExitIpHeader: {
    zh: '出口 IP 响应头须为头名称，最多 64 个字符',
    en: 'The exit IP header must be a header name of at most 64 characters',
  },
  poolSessionIdleRange: {
    zh: '会话空闲上限为 1-1440 的整数分钟',
    en: 'The session idle limit must be 1 to 1440 whole minutes',
  },
  poolMaxConnectionsRange: {
    zh: '每个网关进程的最大连接数为 1-100000 的整数',
    en: 'Connections per gateway process must be a whole number from 1 to 100000',
  },
  poolCsvColumns: { zh: '第 {line} 行：应为 {columns}', en: 'Line {line}: expected {columns}' },
  poolCsvCountry: {
    zh: '第 {line} 行：{value} 不是 ISO 3166-1 两位国家代码',
    en: 'Line {line}: {value} is not an ISO 3166-1 two-letter country code',
  },
  poolCsvArea: {
    zh: '第 {line} 行：州/省和城市只能包含字母、数字或 _，且城市须有所属州/省',
    en: 'Line {line}: a state or city takes letters, digits or _ only, and a city needs its state',
  },
  poolCsvSpelling: {
    zh: '第 {line} 行：写法 {spelling} 含有字符 {char}：模板把它用作分隔符，或上游不接受它',
    en: 'Line {line}: the spelling {spelling} contains {char}, which the template uses as a separator or providers do not accept',
  },
  poolCsvDuplicate: { zh: '第 {line} 行：与第 {first} 行重复', en: 'Line {line}: repeats line {first}' },
  poolCsvEmpty: { zh: '列表中没有任何地区', en: 'The list holds no area' },
  poolCsvTooMany: { zh: '最多 {max} 行', en: 'At most {max} lines' },
  exitCostPerDayRange: {
    zh: '每日成本为 0-100000000 分的整数',
    en: 'The cost per day must be a whole number of fen from 0 to 100000000',
  },
  reconciliationThresholdRange: {
    zh: '标记阈值为 0-10000 的整数（万分之一，200 即 2%）',
    en: 'The flag threshold must be a whole number from 0 to 10000 (hundredths of a percent: 200 is 2 %)',
  },
  reconciliationCsvColumns: {
    zh: '第 {line} 行：应为 日期,字节数[,单位]',
    en: 'Line {line}: expected day,bytes[,unit]',
  },
  reconciliationCsvDay: {
    zh: '第 {line} 行：{value} 不是日期（YYYY-MM-DD）',
    en: 'Line {line}: {value} is not a day (YYYY-MM-DD)',
  },
  reconciliationCsvBytes: {
    zh: '第 {line} 行：{value} 不是字节数（不带单位时须为非负整数）',
    en: 'Line {line}: {value} is not a number of bytes (a whole number of at least 0 without a unit)',
  },
  reconciliationCsvUnit: {
    zh: '第 {line} 行：单位 {value} 无效（可用 B、KB、MB、GB、TB，按 1024 进制）',
    en: 'Line {line}: {value} is not a unit (B, KB, MB, GB or TB, binary)',
  },
  reconciliationCsvEmpty: { zh: '报表中没有任何日期', en: 'The report holds no day' },
  claimText: { zh: '该数字须为 1-16 个字符', en: 'The figure must be 1 to 16 characters' },
  claimCountries: { zh: '国家数须为 1-250 的整数', en: 'The countries must be a whole number from 1 to 250' },
  mailKindInvalid: {
    zh: '邮件类型须为 verification（验证邮件）或 password_reset（重置密码邮件）',
    en: 'The e-mail kind must be verification or password_reset',
  },
} as const satisfies Record<string, Record<TLang, string>>;

/** Messages that do not say which field they are about: the API names the field before them. */
export const GENERIC_VALIDATION_KEYS: ReadonlySet<string> = new Set([
  'required',
  'invalidValue',
  'tooLong',
  'integerFormat',
  'numberRequired',
  'integerRequired',
  'booleanRequired',
  'tooSmall',
  'tooBig',
  'invalidType',
  'invalidFormat',
  'controlChars',
  'dateInvalid',
]);

/** Key of a validation message. */
export type TValidationKey = keyof typeof VALIDATION_MESSAGES;

/** True when the text is a validation message key. */
export function isValidationKey(text: string): text is TValidationKey {
  return Object.hasOwn(VALIDATION_MESSAGES, text);
}

/** Translates a validation key (or passes other text through). */
export function validationMessage(key: string, lang: TLang, params?: Record<string, string | number>): string {
  return isValidationKey(key) ? interpolate(VALIDATION_MESSAGES[key][lang], params) : key;
}
