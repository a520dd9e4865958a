import {
  PRODUCT_NAME,
  formatFen,
  type TLang,
  type TSupplyProduct,
  type TSupplyStatus,
  type TSupplyType,
} from '@proxy/contract';
import { compose, type TMailContent } from '../mail/mail-templates';
import { countryName } from '../areas/area-names';
import type { TSupplyRow } from './supply.repository';

/** Status words of the e-mails. */
const STATUS_WORDS: Record<TSupplyStatus, Record<TLang, string>> = {
  pending: { zh: '待处理', en: 'pending' },
  processing: { zh: '处理中', en: 'processing' },
  success: { zh: '补货成功', en: 'completed' },
  cancelled: { zh: '已撤销', en: 'revoked' },
  failed: { zh: '补货失败', en: 'failed' },
  refunded: { zh: '已退款', en: 'refunded' },
};

const PRODUCT_WORDS: Record<TSupplyProduct, Record<TLang, string>> = {
  static: { zh: '静态住宅', en: 'static residential' },
  dynamic: { zh: '动态住宅', en: 'dynamic residential' },
  idc: { zh: '数据中心', en: 'data-center' },
};

function amountText(type: TSupplyType, amount: number, lang: TLang): string {
  if (type === 'traffic') return `${amount} GB`;
  return lang === 'zh' ? `${amount} 个 IP` : `${amount} IP${amount === 1 ? '' : 's'}`;
}

// What happened to the money, by the state reached.
function moneyLine(status: TSupplyStatus, cost: string, lang: TLang): string {
  const zh: Record<TSupplyStatus, string> = {
    pending: `费用 ${cost} 已冻结，补货成功后才会扣除；撤销、失败或等待超时都会退回。`,
    processing: `运营人员已接单，正在补货；费用 ${cost} 仍为冻结状态。`,
    success: `冻结的 ${cost} 已扣除，代理已分配到您的代理列表。`,
    cancelled: `冻结的 ${cost} 已退回可用余额。`,
    failed: `冻结的 ${cost} 已退回可用余额。`,
    refunded: `等待期内未能补货，冻结的 ${cost} 已退回可用余额。`,
  };
  const en: Record<TSupplyStatus, string> = {
    pending: `Its fee of ${cost} is frozen and only spent when the restock succeeds; it comes back if you revoke it, if it fails or if it waits too long.`,
    processing: `An operator has taken it and is restocking; the fee of ${cost} stays frozen.`,
    success: `The frozen ${cost} was spent and the proxies are in your proxy lists.`,
    cancelled: `The frozen ${cost} is back in your available balance.`,
    failed: `The frozen ${cost} is back in your available balance.`,
    refunded: `It was not completed within its wait days: the frozen ${cost} is back in your available balance.`,
  };
  return (lang === 'zh' ? zh : en)[status];
}

/** The e-mail to a request's contact address on a transition, in both languages (jobs send it outside any request). */
export function renderSupplyMail(row: TSupplyRow, publicUrl: string): TMailContent {
  const cost = formatFen(row.costFen);
  const region = countryName(row.region);
  const zhWhat = `${PRODUCT_WORDS[row.product].zh} ${amountText(row.type, row.amount, 'zh')}（${region.zh}）`;
  const enWhat = `${PRODUCT_WORDS[row.product].en} ${amountText(row.type, row.amount, 'en')} (${region.en})`;
  const zhReason = row.status === 'failed' && row.failReason ? ` 原因：${row.failReason}` : '';
  const enReason = row.status === 'failed' && row.failReason ? ` Reason: ${row.failReason}` : '';
  return compose(
    `${PRODUCT_NAME}: 补货申请 #${row.id} ${STATUS_WORDS[row.status].zh} / Supply request #${row.id} ${STATUS_WORDS[row.status].en}`,
    [
      `补货申请 #${row.id}（${zhWhat}）${STATUS_WORDS[row.status].zh}。${moneyLine(row.status, cost, 'zh')}${zhReason}`,
      `Supply request #${row.id} (${enWhat}) is ${STATUS_WORDS[row.status].en}. ${moneyLine(row.status, cost, 'en')}${enReason}`,
    ],
    { href: `${publicUrl.replace(/\/$/, '')}/proxy/isp/supply-request`, label: '查看补货申请 / View supply requests' },
  );
}

/**
 * Asks a contact address named on a supply request to confirm it, in both
 * languages: until it does, the request's e-mails go to the account's own
 * address. Sent once per account and address (again after a day if unconfirmed).
 */
export function renderSupplyContactMail(options: { username: string; href: string; days: number }): TMailContent {
  return compose(
    `${PRODUCT_NAME}: 确认补货申请联系邮箱 / Confirm a supply request contact address`,
    [
      `${PRODUCT_NAME} 的用户 ${options.username} 将此邮箱填写为补货申请的联系邮箱。确认后，其补货申请的进度邮件会发送到这里；不确认则不会再收到。链接 ${options.days} 天内有效。`,
      `A ${PRODUCT_NAME} user, ${options.username}, named this address as the contact of their supply requests. Confirm it to receive their progress e-mails here; if you do not, nothing more is sent here. The link is valid for ${options.days} days.`,
    ],
    { href: options.href, label: '确认 / Confirm' },
  );
}
