import { formatFen, type TLang } from '@proxy/contract';

/** An order's description (bills, the provider's subject line). */
export function orderDescription(amountFen: number, lang: TLang): string {
  return lang === 'zh' ? `余额充值 ${formatFen(amountFen)}` : `Balance top-up ${formatFen(amountFen)}`;
}

/** Subject of the work order "I have paid" opens for a payment it found but cannot credit (the customer's work orders). */
export function paymentCheckSubject(orderId: string, lang: TLang): string {
  return lang === 'zh' ? `充值订单 ${orderId} 的付款需人工核对` : `Payment of recharge order ${orderId} to be checked`;
}

/** Column titles of the bills export. */
export const BILLS_CSV_HEADER: Record<TLang, string[]> = {
  zh: [
    '订单号',
    '状态',
    '日期',
    '描述',
    '创建时间',
    '支付时间',
    '支付方式',
    '充值金额',
    '赠送',
    '手续费',
    '实付',
    '到账',
  ],
  en: [
    'Order',
    'Status',
    'Date',
    'Description',
    'Created',
    'Paid',
    'Method',
    'Amount',
    'Gift',
    'Fee',
    'Price',
    'Value',
  ],
};
