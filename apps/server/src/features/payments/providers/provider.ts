import type { TPayMethod, TPayMode } from '@proxy/contract';

/**
 * One payment provider (Alipay, WeChat Pay, the sandbox, USDT on TRON and Ethereum) behind
 * one interface: create a payment, verify a notification, ask about an order.
 * Each is on only when configured (config/env.ts), and hidden when not.
 */

/** What to charge: our order, the price the customer pays, where the provider reports back. */
export type TPaymentRequest = {
  orderId: string;
  /** Fen the customer pays (amount + fee). */
  priceFen: number;
  subject: string;
  mode: TPayMode;
  notifyUrl: string;
  returnUrl: string;
  expiresAt: Date;
};

/** How the customer pays it. */
export type TPaymentStart = { payUrl: string | null; qrCode: string | null };

/** A notification that proved genuine: which order, the provider's transaction, what was paid. */
export type TVerifiedNotification = {
  orderId: string;
  providerTxId: string;
  /** Fen the customer paid. */
  paidFen: number;
  /** USDT orders: the 10^-6 USDT the transfer carried (the order's exact amount pays it). */
  paidUnits?: bigint;
  /** When the payment happened, when the provider says (a chain's block time): after the order's time, it is late. */
  paidAt?: Date;
  /** success: paid; failure: the provider closed it unpaid; ignore: an intermediate state (nothing to do, acknowledge). */
  outcome: 'success' | 'failure' | 'ignore';
};

/** A notification as it arrived: the raw body (signatures cover the exact bytes) and the headers. */
export type TIncomingNotification = { rawBody: string; headers: Record<string, string | undefined> };

/** The answer a provider expects to a notification. */
export type TNotificationAnswer = { status: number; contentType: string; body: string };

/** What the provider says about an order (reconciliation of stale pending orders). */
export type TProviderOrderState =
  { state: 'paid'; providerTxId: string; paidFen: number } | { state: 'unpaid' } | { state: 'closed' };

/** A notification that is not genuine or does not match our order; refused and logged with the reason. */
export class NotificationRefusal extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** A payment provider. */
export type TPayProvider = {
  method: TPayMethod;
  /** Ways to pay it offers (Alipay: redirect to its page, or a QR code). */
  modes: TPayMode[];
  /** No real money moves. */
  isSandbox: boolean;
  /** Creates the payment at the provider; throws when the provider refuses or cannot be reached. */
  create(request: TPaymentRequest): Promise<TPaymentStart>;
  /** Checks signature, sender and fields; throws NotificationRefusal when the notification is not genuine. */
  verify(notification: TIncomingNotification): Promise<TVerifiedNotification>;
  /** The answers the provider expects after processing, and on a refusal. */
  answers: { ok: TNotificationAnswer; refused: TNotificationAnswer };
  /** Asks the provider about one of our orders. */
  query(orderId: string): Promise<TProviderOrderState>;
};
